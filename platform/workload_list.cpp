// Every part of the platform that ships workloads registers them here.
#include "workload.h"

namespace avp {

void register_memcheck_workload();
void register_cmp_examples();
void register_matmul_example();
void register_stream_examples();
void register_acceldev_examples();
void register_aql_examples();

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
