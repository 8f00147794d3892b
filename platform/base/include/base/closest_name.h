// Suggestions for mistyped names (parameters, command-line options).
#pragma once
#include <string>
#include <vector>

namespace avp {

size_t edit_distance(const std::string& a, const std::string& b);
// The candidate nearest to `name` by edit distance when near enough to be a
// typo of it (at most a quarter of its length, at least 2); empty otherwise.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace avp
