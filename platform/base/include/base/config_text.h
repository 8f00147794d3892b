// Configuration text as one YAML document, read defensively: the text must
// be UTF-8 (yaml-cpp reads other bytes into strings it writes back
// differently), and a second document is found without YAML::LoadAll,
// which loops for ever on some malformed text ("{a: 1}, b}").
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>

namespace avp {

struct ConfigDocument {
  YAML::Node root;               // the first document (null when the text has none)
  int second_document_line = 0;  // 1-based line where a second document starts; 0: none
};

// Throws ParamError "origin:LINE: ..." for text that is not UTF-8 or not YAML.
ConfigDocument read_config_text(const std::string& text, const std::string& origin);

}  // namespace avp
