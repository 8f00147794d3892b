// The one-line progress display on stderr. Anything else that prints (log
// lines, hart console output, the run summary) calls status_line_end() first,
// so the progress line is ended before other output and never overwritten.
#pragma once
#include <string>

namespace avp {

// Replaces the progress line on stderr with `text` (no newline).
void status_line_show(const std::string& text);
// Ends the progress line with a newline if one is shown; no-op otherwise.
void status_line_end();

}  // namespace avp
