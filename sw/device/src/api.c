// Target-independent part of avp/device.h.
#include <stdio.h>

#include "avp/device.h"
#include "io.h"

void avp_exit(int code) {
  avp_stdout_flush();
  avp_sys_exit(code);
}

void avp_print(const char* s) {
  avp_stdout_flush();
  avp_sys_print(s);
}

void avp_barrier(void) {
  avp_stdout_flush();
  avp_sys_barrier();
}

void avp_stats_reset(void) { avp_sys_stats(AVP_STATS_RESET); }
void avp_stats_dump(void) {
  avp_stdout_flush();  // the output so far belongs to the region
  avp_sys_stats(AVP_STATS_DUMP);
}
void avp_stats_dump_reset(void) {
  avp_stdout_flush();
  avp_sys_stats(AVP_STATS_DUMP | AVP_STATS_RESET);
}

int avp_vprintf(const char* fmt, va_list ap) {
  char buf[256];
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  avp_print(buf);
  return n;
}

int avp_printf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = avp_vprintf(fmt, ap);
  va_end(ap);
  return n;
}
