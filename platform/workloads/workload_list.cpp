// Every workload the platform ships, registered.
#include "workloads.h"
#include "platform/workload.h"

namespace avp {

const char* const kDefaultWorkload = "vecadd";

void register_all_workloads() {
  register_memcheck_workload();
  register_cmp_examples();
  register_matmul_example();
  register_stream_examples();
  register_acceldev_examples();
  register_aql_examples();
}

}  // namespace avp
