#include "config_text.h"

#include <algorithm>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

#include "params.h"
#include "utf8.h"

namespace avp {

namespace {

// Records where each document starts and nothing else.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<int> lines;
  void OnDocumentStart(const YAML::Mark& mark) override { lines.push_back(mark.line + 1); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

ConfigDocument read_config_text(const std::string& text, const std::string& origin) {
  if (const size_t bad = invalid_utf8_offset(text); bad != std::string::npos)
    throw ParamError(origin + ":" + std::to_string(1 + std::count(text.begin(), text.begin() + bad, '\n')) +
                     ": not UTF-8 text (byte " + std::to_string(static_cast<unsigned char>(text[bad])) +
                     " at offset " + std::to_string(bad) + ")");
  ConfigDocument doc;
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentStarts starts;
    // Two documents are enough to know; LoadAll would go on (for ever on some text).
    while (starts.lines.size() < 2 && parser.HandleNextDocument(starts)) {
    }
    if (starts.lines.size() > 1) doc.second_document_line = starts.lines[1];
    doc.root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ParamError(origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return doc;
}

}  // namespace avp
