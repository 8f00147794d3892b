// RTL decoder speed: cycles per second of the Verilated model stepped
// directly, the same in lockstep with the TLM decoder, and the slowdown of a
// command-heavy buffer decoded in lockstep against the TLM decoder alone.
#include <chrono>
#include <cstdio>

#include "bench_results.h"
#include "rtl_packet_decoder.h"
#include "Vcmd_decoder.h"
#include "cmdbuf.h"
#include "lockstep_decoder.h"

using namespace avp;

namespace {

double decode_buffer(PacketDecoder& d, const std::vector<uint64_t>& c) {
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t at = 0; at < c.size();) {
    uint64_t w[9] = {};
    for (size_t i = 0; i < 9 && at + i < c.size(); ++i) w[i] = c[at + i];
    const DecodedCommand r = d.decode(w, c.size() - at);
    if (r.error) {
      std::fprintf(stderr, "bench_rtl: unexpected decode error %s\n", r.describe().c_str());
      return 0;
    }
    at += 1 + r.payload_chunks;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int sc_main(int, char**) {
  CommandBuffer cb;
  const unsigned n = 1'000'000;
  for (unsigned i = 0; i < n / 4; ++i) cb.write_reg(i % 40, i).copy_mem(1, i, i, 0).sync_cache(1).store_imm(i, i);
  const auto& c = cb.chunks();
  TlmPacketDecoder tlm;
  auto* rtl = new RtlPacketDecoder<Vcmd_decoder>();
  std::unique_ptr<PacketDecoder> rtl_owner(rtl);
  LockstepDecoder lockstep(std::make_unique<TlmPacketDecoder>(), std::make_unique<RtlPacketDecoder<Vcmd_decoder>>());
  const double t_tlm = decode_buffer(tlm, c);
  const uint64_t c0 = rtl->cycles();
  const double t_rtl = decode_buffer(*rtl, c);
  const uint64_t cycles = rtl->cycles() - c0;
  const double t_lock = decode_buffer(lockstep, c);
  std::printf("decoder    commands   chunks     wall [s]  commands/s     RTL cycles/s\n");
  std::printf("tlm        %8u   %8zu   %8.3f  %12.0f\n", n, c.size(), t_tlm, n / t_tlm);
  std::printf("rtl        %8u   %8zu   %8.3f  %12.0f  %12.0f\n", n, c.size(), t_rtl, n / t_rtl, cycles / t_rtl);
  std::printf("lockstep   %8u   %8zu   %8.3f  %12.0f  %12.0f\n", n, c.size(), t_lock, n / t_lock, cycles / t_lock);
  std::printf("slowdown of lockstep against TLM alone on this command-heavy buffer: %.1fx (%zu mismatches)\n",
              t_lock / t_tlm, lockstep.mismatches().size());
  BenchResults results;
  results.add("rtl.decoder", n / t_rtl, "commands/s", "tlm decoder", n / t_tlm);
  results.add("rtl.lockstep", n / t_lock, "commands/s", "tlm decoder", n / t_tlm);
  results.add("rtl.cycles_per_s", cycles / t_rtl, "cycles/s");
  return 0;
}
