// The simulator's terminal in raw mode while an interactive UART owns it (as
// QEMU's -nographic): keys go to the guest one by one, unechoed, Ctrl-C
// included; output keeps its newline translation. The saved mode is restored
// by restore_terminal(), which is async-signal-safe (the signal paths that
// _exit call it) and also runs at exit.
#pragma once

namespace avp {

// Puts terminal `fd` in raw mode; false when `fd` is not a terminal. Idempotent.
bool enter_raw_terminal(int fd);
// Restores the mode enter_raw_terminal saved (nothing when none is saved).
void restore_terminal();
// False when terminal `fd` is this process's controlling terminal and the
// process is in a background group of it (it would be stopped on reading the
// terminal or changing its mode).
bool in_foreground(int fd);
// True when file descriptors `a` and `b` are the same terminal.
bool same_terminal(int a, int b);

}  // namespace avp
