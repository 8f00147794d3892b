// The platform's workloads (`accel-vp run <name>`): the memory check and the
// example host programs; each file of platform/workloads registers its own
// with the platform's workload registry (workload.h).
#pragma once

namespace avp {

// Registers every workload below (workload_list.cpp).
void register_all_workloads();
// The workload `make run` runs.
extern const char* const kDefaultWorkload;

void register_memcheck_workload();  // memcheck_workload.cpp
void register_cmp_examples();       // vecadd_cmp.cpp
void register_matmul_example();     // matmul_cmp.cpp
void register_stream_examples();    // stream_cmp.cpp
void register_acceldev_examples();  // acceldev_fill.cpp, acceldev_kernel.cpp
void register_aql_examples();       // aql_examples.cpp

}  // namespace avp
