// `accel-vp info` and `--list-params`: the resolved platform as text.
#pragma once
#include <ostream>

namespace avp {
class Platform;
void print_info(const Platform& p, std::ostream& os);
// Every register block: where it is, its misuse policy and its registers.
void print_registers(Platform& p, std::ostream& os);
// Parameters whose name contains `filter` (all when empty), in aligned columns.
void print_params(std::ostream& os, const std::string& filter = "");
}  // namespace avp
