// The platform with the host runtime and aql_kernels.co loaded, for the AQL tests.
#pragma once
#include <gtest/gtest.h>

#include <functional>

#include "accel_device.h"
#include "hsa_runtime.h"
#include "platform/platform.h"

namespace avp::aql {

struct Bench {
  Platform p;
  Bench() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }
  void run(const std::function<void(AccelDevice&, HsaRuntime&)>& body) {
    sc_core::sc_spawn([&] {
      AccelDevice dev(p.host);
      ASSERT_TRUE(dev.open());
      HsaRuntime rt(p.host);
      ASSERT_EQ(rt.load_code_object(dev, AVP_AQL_KERNELS_CO), CodeObjectError::kNone) << rt.load_error();
      body(dev, rt);
      sc_core::sc_stop();
    });
    sc_core::sc_start();
  }
  const amd_queue_t& queue(const HsaRuntime::Queue& q) { return *reinterpret_cast<const amd_queue_t*>(p.host.host_ptr(q.amd_queue)); }
};

}  // namespace avp::aql
