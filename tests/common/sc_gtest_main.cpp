// GoogleTest entry point for test executables that link SystemC: SystemC's
// main() calls sc_main, which runs the tests. Each test runs in its own
// process under CTest (gtest_discover_tests), so each may elaborate a design.
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

#include "base/log.h"

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  avp::install_log_handler();
  return RUN_ALL_TESTS();
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
