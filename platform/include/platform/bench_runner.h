// The sc_main of a benchmark program: the default platform, quiet SystemC
// info reports, and `bench` run as the host thread until it returns.
#pragma once
#include <functional>

#include "base/log.h"
#include "platform.h"

namespace avp {

inline int run_platform_bench(const std::function<void(Platform&)>& bench) {
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  install_log_handler();
  Platform p;
  sc_core::sc_spawn([&] {
    bench(p);
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  return 0;
}

}  // namespace avp
