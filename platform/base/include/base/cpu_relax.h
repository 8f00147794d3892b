// The pause hint of a busy-wait loop (a spinning thread yields its core's
// pipeline to the other hardware thread and saves power).
#pragma once

namespace avp {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace avp
