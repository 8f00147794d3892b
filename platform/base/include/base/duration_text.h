// Times for people (summaries, messages, progress): scaled to s, ms, us, ns or
// ps with at most three decimals ("1.622 s", "40.114 us", "20 us").
// Parameter values use format_time (base/params.h), which is exact.
#pragma once
#include <string>

#include <systemc>

namespace avp {

std::string format_duration(const sc_core::sc_time& t);
std::string format_duration_ns(double ns);

}  // namespace avp
