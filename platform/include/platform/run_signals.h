// Signals that steer a running simulation, checked once per quantum by the run
// loop: SIGINT and SIGTERM ask it to stop cleanly (outputs written, exit status
// 128 + signal), a second SIGINT or SIGTERM ends the process at once, and
// SIGUSR1 asks for the statistics so far without stopping.
#pragma once

namespace avp {

// Installs the handlers (idempotent). Until then the signals keep their defaults.
void install_run_signals();
// The signal that asked the run to stop (SIGINT, SIGTERM), or 0. A quit
// typed on the UART's terminal (Ctrl-A x) counts as SIGINT.
int stop_signal();
// Asks the run to stop as SIGINT does, from the UART's terminal (Ctrl-A x).
void request_console_stop();
// What asked the run to stop: "SIGINT", "SIGTERM" or "Ctrl-A x" ("" if nothing).
const char* stop_cause();
// True once per SIGUSR1 received since the last call.
bool take_snapshot_request();
// "SIGINT", "SIGTERM", ...
const char* signal_name(int sig);

}  // namespace avp
