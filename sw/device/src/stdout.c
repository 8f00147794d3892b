// picolibc tinystdio stdout/stderr: each hart collects a line and prints it
// with one avp_print, so lines of different harts never interleave.
#include <stdio.h>

#include "avp/device.h"
#include "io.h"

#define LINE_MAX_CHARS 128

static char line[AVP_MAX_HARTS][LINE_MAX_CHARS];
static unsigned line_len[AVP_MAX_HARTS];

static void flush_hart(unsigned h) {
  if (line_len[h] == 0) return;
  line[h][line_len[h]] = '\0';
  line_len[h] = 0;
  avp_sys_print(line[h]);
}

void avp_stdout_flush(void) {
  if (avp_stdio_uses_console) {
    avp_console_flush();
    return;
  }
  unsigned h = avp_hart_id();
  if (h < AVP_MAX_HARTS) flush_hart(h);
}

static int stdout_put(char c, FILE* f) {
  (void)f;
  if (avp_stdio_uses_console) {
    avp_console_putc(c);
    return (unsigned char)c;
  }
  unsigned h = avp_hart_id();
  if (h >= AVP_MAX_HARTS) {
    char s[2] = {c, '\0'};
    avp_sys_print(s);
    return (unsigned char)c;
  }
  line[h][line_len[h]++] = c;
  if (c == '\n' || line_len[h] == LINE_MAX_CHARS - 1) flush_hart(h);
  return (unsigned char)c;
}

static int stdout_flush(FILE* f) {
  (void)f;
  avp_stdout_flush();
  return 0;
}

static FILE avp_stdout_file = FDEV_SETUP_STREAM(stdout_put, NULL, stdout_flush, _FDEV_SETUP_WRITE);
FILE* const stdout = &avp_stdout_file;
FILE* const stderr = &avp_stdout_file;
