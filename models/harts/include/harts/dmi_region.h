// A window of memory a hart accesses directly (a DMI grant, or a page of it
// with translation on): its loads, stores or fetches there skip the bus.
#pragma once
#include <cstdint>

namespace avp {

class PageWrites;

struct DmiRegion {
  uint64_t base = 0, size = 0;  // size 0: empty
  // Whether all of [addr, addr + len) lies in the region (an empty one holds nothing).
  bool holds(uint64_t addr, uint64_t len) const { return addr - base < size && size - (addr - base) >= len; }
  // Whether any of the physical bytes [pa, pa + len) lies in the region (an empty one holds none).
  bool overlaps_physical(uint64_t pa, uint64_t len) const {
    return size && base + pa_delta < pa + len && pa < base + pa_delta + size;
  }
  uint8_t* ptr = nullptr;
  bool rd = false, wr = false, exec = false;  // exec: granted to an instruction fetch
  // A store region none of whose 256-byte granules is marked in the code map
  // (decoded code, a spinning loop's load; HartCluster): its stores need not
  // look there. Cleared or the region dropped when a granule in it is marked.
  bool code_free = false;
  // Physical minus virtual address: the fast paths keep regions by the address
  // the program uses; with translation on, a region is one 4 KiB page.
  uint64_t pa_delta = 0;
  const PageWrites* writes = nullptr;  // the storage's write generations, if its memory counts them
};

}  // namespace avp
