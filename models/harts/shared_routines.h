// Routines translated code calls instead of carrying their code at every
// place that needs it (the I-cache's way and previous-line hits at block
// ends, entering the next block): each is made once per layout of the
// fields it addresses and kept for the process, in executable memory of its
// own, shared by every block of every hart. Emitted at each block end, the
// I-cache hits made the blocks longer by about 150 bytes and `mixed` 4 %
// slower in pinned A/B runs; the entry of the next block made the Linux
// kernel's translated code a third larger than the host's caches favour.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace avp {

// The routine `make` makes for the layout in `layout` (`bytes` bytes that
// say everything its code depends on, compared byte by byte), made the
// first time and named `name` in perf's map (perf_map.h); nullptr when the
// host gives no executable memory.
const void* shared_routine(const char* name, std::vector<uint8_t> (*make)(const void*), const void* layout,
                           size_t bytes);

}  // namespace avp
