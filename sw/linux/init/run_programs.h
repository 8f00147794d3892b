// The host init's programs from the kernel command line (docs/full-system.md):
// each `fullsystem.run=PATH[,ARG...]` runs PATH with its arguments, in order,
// and becomes one check named after PATH's file name: PASS when it exits 0.
#ifndef AVP_LINUX_RUN_PROGRAMS_H
#define AVP_LINUX_RUN_PROGRAMS_H

void run_programs(const char* cmdline);

#endif
