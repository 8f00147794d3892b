// Where `--config NAME` finds its file: a path as given, or a bare name of a
// configuration shipped with accel-vp (configs/NAME.yaml).
#pragma once
#include <string>

namespace avp {

// `name` itself when it exists (any kind of file) or contains a '/'; else the
// shipped NAME or NAME.yaml, installed (<prefix>/share/accel-vp/configs, next
// to <prefix>/bin/accel-vp) or in the source tree this accel-vp was built
// from. Empty when a bare name is found nowhere; `searched` then lists where.
std::string find_config_file(const std::string& name, std::string& searched);

}  // namespace avp
