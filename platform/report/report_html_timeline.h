// The timeline section of report.html (JavaScript): an overview of every
// track's busy share over the whole run, and a detail view of the slices with
// a time axis, zoom (wheel, buttons) and pan (drag, or click the overview).
#pragma once

namespace avp {
// Script text; expects `TL` (TimelineDigest::to_json() or null), `el`, `svg`
// and `timeAxis` from the page, and fills the element #timeline.
extern const char* const kReportTimelineScript;
}  // namespace avp
