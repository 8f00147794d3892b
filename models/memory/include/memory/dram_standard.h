// A DRAM standard's timing as the models take it: the memory's latencies and
// open rows (row_buffers.h) and its port's peak bandwidth (the interconnect's
// bus.<port>.bandwidth and .channels). The values are defaults: every one is a
// parameter a configuration may override.
#pragma once
#include <cstdint>

#include <systemc>

namespace avp {

struct DramStandard {
  sc_core::sc_time read_latency;   // tAA: column read to first data
  sc_core::sc_time write_latency;  // CWL
  uint32_t banks;                  // 0: no banks, open rows not modelled
  uint64_t row_bytes;              // page size across the channel
  sc_core::sc_time activate;       // tRCD
  sc_core::sc_time precharge;      // tRP
  sc_core::sc_time row_cycle;      // tRC (0: banks never busy)
  sc_core::sc_time refresh_interval;  // tREFI (0: no refresh)
  sc_core::sc_time refresh_latency;   // tRFC
  double channel_bandwidth;        // bytes/ns of each channel (0: unlimited)
  uint32_t channels;
};

// The device DRAM's default: one channel of DDR4-3200 x64, one rank of x8
// parts (JEDEC speed bin DDR4-3200AA, 22-22-22; JESD79-4 and the Micron 8Gb
// x8 MT40A1G8 data sheet, speed grade -062E). configs/ddr4-3200.yaml names
// the same values; docs/timing.md, "DRAM presets", maps each one.
inline DramStandard ddr4_3200_x64() {
  using sc_core::sc_time;
  using sc_core::SC_NS;
  using sc_core::SC_PS;
  return {sc_time(13750, SC_PS),  // tAA = CL 22 x tCK 0.625 ns
          sc_time(10000, SC_PS),  // CWL 16 x tCK
          16,                     // 4 bank groups x 4 banks
          8192,                   // 1 KiB page per x8 part x 8 parts
          sc_time(13750, SC_PS),  // tRCD
          sc_time(13750, SC_PS),  // tRP
          sc_time(45750, SC_PS),  // tRC = tRAS 32 ns + tRP
          sc_time(7800, SC_NS),   // tREFI at up to 85 C
          sc_time(350, SC_NS),    // tRFC1 of an 8Gb part
          25.6,                   // 3200 MT/s x 8 bytes: 2.5 ns per 64-byte burst (BL8)
          1};
}

}  // namespace avp
