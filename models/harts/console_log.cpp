#include "harts/console_log.h"

#include <cstdio>

#include "base/status_line.h"
#include "base/trace.h"

namespace avp {

ConsoleLog::ConsoleLog(const std::string& owner, std::function<std::string(unsigned hart)> track)
    : track_(std::move(track)), log_(owner) {}

void ConsoleLog::line(unsigned hart, const sc_core::sc_time& when, const std::string& text) {
  const std::string prefix = "[hart" + std::to_string(hart) + "] ";
  if (lines_.size() < kKeptLines) {
    const std::string kept = text.substr(0, kKeptChars);
    text_.push_back(prefix + kept);
    lines_.push_back({hart, when, kept});
  } else {
    ++dropped_;
  }
  AVP_LOG(log_, Debug, "[hart" << hart << " @ " << when << "] " << text);
  Trace::instance().slice(track_(hart), "print", when, when, {{"text", text}});
  status_line_end();
  std::printf("%s%s\n", prefix.c_str(), text.c_str());
  std::fflush(stdout);
}

}  // namespace avp
