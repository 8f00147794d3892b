// C part of program start-up (all program targets): per-hart TLS block on the
// hart's stack, .bss clear and constructors by hart 0 while the other harts
// wait, then main(hart_id) and avp_exit with its return value.
#include <stdint.h>
#include <string.h>

#include "avp/device.h"
#include "io.h"

extern char __bss_start[], __bss_end[];
extern char __tls_size[], __tls_align[];
extern void _init_tls(void* tls);
extern void _set_tls(void* tls);
extern void __libc_init_array(void);
extern int main(int hart_id);

// In .data, not .bss: it must read 0 before hart 0 has cleared .bss.
static volatile uint32_t boot_done __attribute__((section(".data"))) = 0;
static __thread unsigned this_hart;

unsigned avp_hart_id(void) { return this_hart; }

void _avp_start(unsigned hart) __attribute__((noreturn, used));
void _avp_start(unsigned hart) {
  // The TLS block lives in this frame, which is never left.
  uintptr_t align = (uintptr_t)__tls_align < 16 ? 16 : (uintptr_t)__tls_align;
  uintptr_t raw = (uintptr_t)__builtin_alloca((uintptr_t)__tls_size + align);
  void* tls = (void*)((raw + align - 1) & ~(align - 1));
  _init_tls(tls);
  _set_tls(tls);
  this_hart = hart;

  if (hart == 0) {
    memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
    __libc_init_array();
    __atomic_store_n(&boot_done, 1, __ATOMIC_RELEASE);
  } else {
    while (__atomic_load_n(&boot_done, __ATOMIC_ACQUIRE) == 0) {
    }
  }
  avp_exit(main((int)hart));
}

// picolibc's exit() ends here after atexit handlers and destructors.
void _exit(int code) { avp_exit(code); }
