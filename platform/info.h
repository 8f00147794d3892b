// `accel-vp info` and `--list-params`: the resolved platform as text.
#pragma once
#include <ostream>

namespace avp {
class Platform;
void print_info(const Platform& p, std::ostream& os);
void print_params(std::ostream& os);
}  // namespace avp
