#include "base/config_text.h"

#include <algorithm>
#include <sstream>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include "base/params.h"
#include "base/utf8.h"

namespace avp {

namespace {

// Records where each document starts: the line of its first node (as
// YAML::Node::Mark() gives it), and nothing else.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<int> lines;
  void OnDocumentStart(const YAML::Mark&) override { pending_ = true; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override { node(m); }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& m) {
    if (pending_) lines.push_back(m.line + 1);
    pending_ = false;
  }
  bool pending_ = false;
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
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp says only "bad file"
    throw ParamError(origin + ":" + std::to_string(e.mark.line + 1) + ": nested more than " + std::to_string(e.depth() - 1) +
                     " levels deep");
  } catch (const YAML::Exception& e) {
    throw ParamError(origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return doc;
}

}  // namespace avp
