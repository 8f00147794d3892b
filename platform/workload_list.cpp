// Every part of the platform that ships workloads registers them here.
#include "workload.h"

namespace avp {

void register_memcheck_workload();

const char* const kDefaultWorkload = "memcheck";

void register_all_workloads() {
  register_memcheck_workload();
}

}  // namespace avp
