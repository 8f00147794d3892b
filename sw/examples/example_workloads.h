// The example host programs' workloads (`accel-vp run <name>`): each file of
// sw/examples registers its own with the platform's workload registry.
#pragma once

namespace avp {

void register_cmp_examples();       // vecadd_cmp.cpp
void register_matmul_example();     // matmul_cmp.cpp
void register_stream_examples();    // stream_cmp.cpp
void register_acceldev_examples();  // acceldev_fill.cpp, acceldev_kernel.cpp
void register_aql_examples();       // aql_examples.cpp

}  // namespace avp
