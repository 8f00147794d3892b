// The RTL decoder against the TLM reference: directed cases, a randomized
// equivalence run over a million packets, a mutated RTL the lockstep checker
// must catch, valid/ready protocol checks and the clocked wrapper's VCD.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

// SystemC before any Verilated header (see rtl_packet_decoder.h).
#include "rtl_packet_decoder.h"
#include "cmd_decoder_sc.h"
#include "cmdbuf.h"
#include "lockstep_decoder.h"
#include "vcd_reader.h"
#include "Vcmd_decoder.h"
#include "Vcmd_decoder_mutated.h"

using namespace avp;

namespace {

std::unique_ptr<LockstepDecoder> lockstep() {
  return std::make_unique<LockstepDecoder>(std::make_unique<TlmPacketDecoder>(), std::make_unique<RtlPacketDecoder<Vcmd_decoder>>());
}

// Decodes a whole buffer command by command, as the command processor does.
void decode_all(PacketDecoder& d, const std::vector<uint64_t>& c) {
  for (size_t at = 0; at < c.size();) {
    uint64_t window[9] = {};
    for (size_t i = 0; i < 9 && at + i < c.size(); ++i) window[i] = c[at + i];
    const DecodedCommand r = d.decode(window, c.size() - at);
    if (r.error) break;
    at += 1 + r.payload_chunks;
  }
}

}  // namespace

TEST(RtlDecoder, EveryOpcodeDecodesLikeTheReference) {
  auto ls = lockstep();
  CommandBuffer cb;
  cb.nop(0).nop(12).finish().write_reg(39, 1).load_reg(7, 8).store_reg(0, 16).store_imm(0x100, ~0ull).copy_mem(2, 1, 2, 3);
  cb.run_kernel_slice(2, 4, 1).run_instances(0, 4, {1, 2, 3, 4, 5, 6, 7}).run_instances(8, 1, {}).sync_cache(3);
  decode_all(*ls, cb.chunks());
  EXPECT_EQ(ls->commands(), 12u);
  for (const auto& m : ls->mismatches()) ADD_FAILURE() << m.describe();
}

TEST(RtlDecoder, EveryErrorCaseDecodesLikeTheReference) {
  const std::vector<std::vector<uint64_t>> cases = {
      {AVP_CMP_HEADER(AVP_CMP_FINISH, 0, 0) | 0x1},                       // reserved bits
      {AVP_CMP_HEADER(AVP_CMP_FINISH, 0, 0) & ~(1ull << 30)},             // packet id
      {AVP_CMP_HEADER(AVP_CMP_FINISH, 0, 0) | (1ull << 16), 0},           // odd COUNT
      {AVP_CMP_HEADER(AVP_CMP_FINISH, 1, 0), 0},                          // payload count
      {AVP_CMP_HEADER(AVP_CMP_COPY_MEM64, 2, 0), 0, 0},                   // payload count
      {AVP_CMP_HEADER(77, 0, 0)},                                         // unknown opcode
      {AVP_CMP_HEADER(AVP_CMP_WRITE_REG64, 1, 40), 5},                    // register index
      {AVP_CMP_HEADER(AVP_CMP_STORE_REG64, 1, 0xFFFFFFFF), 5},            // register index
      {AVP_CMP_HEADER(AVP_CMP_COPY_MEM64, 3, 1), 0},                      // truncated
      {AVP_CMP_HEADER(AVP_CMP_NOP, 4, 0), 0},                             // truncated NOP
      {AVP_CMP_HEADER(AVP_CMP_RUN_INSTANCES, 1, 1u << 11 | AVP_CMP_RUN_INLINE(0, 1)), 0},  // 1 + NUM_ARGS[10:8]
      {AVP_CMP_HEADER(AVP_CMP_RUN_INSTANCES, 2, AVP_CMP_RUN_INLINE(0, 2)), 0, 0},  // 1 + NUM_ARGS
  };
  auto ls = lockstep();
  for (const auto& c : cases) {
    const DecodedCommand d = ls->decode(c.data(), c.size());
    EXPECT_NE(d.error, AVP_CMP_OK);
  }
  for (const auto& m : ls->mismatches()) ADD_FAILURE() << m.describe();
}

// NUM_ARGS is inline[10:8] in the RTL as in the reference: the bits above are ignored.
TEST(RtlDecoder, RunInstancesNumArgsIsBits10To8) {
  RtlPacketDecoder<Vcmd_decoder> rtl;
  const std::vector<uint64_t> c = {AVP_CMP_HEADER(AVP_CMP_RUN_INSTANCES, 2, 0xFFFFF800u | AVP_CMP_RUN_INLINE(3, 1)), 5, 0x77};
  const DecodedCommand d = rtl.decode(c.data(), c.size());
  EXPECT_EQ(d.error, AVP_CMP_OK) << d.describe();
  EXPECT_EQ(d.payload_chunks, 2u);
  EXPECT_EQ(d.payload[1], 0x77u);
}

TEST(RtlDecoder, MillionRandomValidAndCorruptedPacketsMatchTheReference) {
  std::mt19937_64 rng(12345);
  TlmPacketDecoder tlm;
  RtlPacketDecoder<Vcmd_decoder> rtl;
  uint64_t mismatches = 0;
  std::string first;
  for (int n = 0; n < 1'000'000; ++n) {
    uint64_t c[9];
    const unsigned op = rng() % 12;
    unsigned payload = static_cast<unsigned>(std::max(0, expected_payload(op, 0)));
    uint32_t inl = static_cast<uint32_t>(rng() % 48);
    if (op == AVP_CMP_RUN_INSTANCES) {
      inl = AVP_CMP_RUN_INLINE(rng() % 9, rng() % 8);
      payload = 1 + ((inl >> 8) & 7);
    }
    c[0] = AVP_CMP_HEADER(op, payload, inl);
    for (int i = 1; i < 9; ++i) c[i] = rng();
    switch (rng() % 4) {  // corrupt a quarter of the packets in one of several ways
      case 0: c[0] ^= 1ull << (rng() % 64); break;
      case 1: c[0] = (c[0] & ~(0x3FFFull << 16)) | ((rng() % 20) << 16); break;
      default: break;
    }
    const size_t available = 1 + rng() % 10;
    const DecodedCommand a = tlm.decode(c, available), b = rtl.decode(c, available);
    bool same = a.error == b.error && a.opcode == b.opcode && a.inline_value == b.inline_value &&
                a.payload_chunks == b.payload_chunks;
    if (same && (a.error == AVP_CMP_OK || a.error == AVP_CMP_ERR_BAD_REGISTER))
      for (unsigned i = 0; i < std::min(8u, a.payload_chunks); ++i) same = same && a.payload[i] == b.payload[i];
    if (!same && mismatches++ == 0) first = "reference " + a.describe() + " / rtl " + b.describe();
  }
  EXPECT_EQ(mismatches, 0u) << first;
}

TEST(RtlDecoder, LockstepCatchesTheMutatedRtl) {
  LockstepDecoder ls(std::make_unique<TlmPacketDecoder>(), std::make_unique<RtlPacketDecoder<Vcmd_decoder_mutated>>());
  CommandBuffer cb;
  cb.write_reg(0, 1).copy_mem(1, 0x10, 0x8000'0000'0000'0000ull, 0).finish();
  decode_all(ls, cb.chunks());
  ASSERT_EQ(ls.mismatches().size(), 1u);
  const DecoderMismatch& m = ls.mismatches()[0];
  EXPECT_EQ(m.command_index, 1u);
  EXPECT_EQ(m.fields, std::vector<std::string>{"payload[1]"});
  EXPECT_NE(m.describe().find("COPY_MEM64"), std::string::npos) << m.describe();
}

TEST(RtlDecoder, ValidReadyProtocol) {
  VerilatedContext ctx;
  Vcmd_decoder m(&ctx, "dut");
  auto tick = [&] {
    m.clk = 0;
    m.eval();
    m.clk = 1;
    m.eval();
  };
  m.rst = 1;
  tick();
  m.rst = 0;
  std::mt19937 rng(7);
  CommandBuffer cb;
  for (int i = 0; i < 50; ++i) cb.copy_mem(i, i, i, i).write_reg(i % 40, i).nop(i % 3);
  const auto& c = cb.chunks();
  size_t at = 0;
  unsigned outputs = 0, held = 0;
  bool was_valid_unready = false;
  uint32_t last_opcode = 0, last_inline = 0;
  for (int cycle = 0; cycle < 20000 && outputs < 150; ++cycle) {
    m.in_valid = at < c.size() && rng() % 3 != 0;
    m.in_data = at < c.size() ? c[at] : 0;
    m.in_avail = static_cast<uint16_t>(c.size() - std::min(at, c.size()));
    m.out_ready = rng() % 2;
    m.eval();
    if (was_valid_unready) {  // outputs hold while valid and not ready
      ASSERT_TRUE(m.out_valid);
      ASSERT_EQ(m.out_opcode, last_opcode);
      ASSERT_EQ(m.out_inline, last_inline);
      ++held;
    }
    if (m.out_valid) {
      ASSERT_FALSE(m.in_ready);  // no new chunk while a command waits
    }
    const bool accept = m.in_valid && m.in_ready;
    outputs += m.out_valid && m.out_ready;
    was_valid_unready = m.out_valid && !m.out_ready;
    last_opcode = m.out_opcode;
    last_inline = m.out_inline;
    tick();
    if (accept) ++at;
  }
  EXPECT_EQ(outputs, 150u);
  EXPECT_EQ(at, c.size());
  EXPECT_GT(held, 0u);
  m.final();
}

TEST(RtlDecoder, ClockedWrapperWritesAVcdOfThePins) {
  const std::string vcd = "rtl_decoder_test.vcd";
  {
    sc_core::sc_clock clk("clk", 10, sc_core::SC_NS);
    CmdDecoderSc dut("dut", vcd);
    dut.clk(clk);
    CommandBuffer cb;
    cb.write_reg(3, 0x1234).finish();
    sc_core::sc_spawn([&] {
      dut.rst.write(true);
      sc_core::wait(20, sc_core::SC_NS);
      dut.rst.write(false);
      dut.out_ready.write(true);
      for (size_t i = 0; i < cb.chunks().size(); ++i) {
        dut.in_valid.write(true);
        dut.in_data.write(cb.chunks()[i]);
        dut.in_avail.write(static_cast<uint32_t>(cb.chunks().size() - i));
        do sc_core::wait(clk.posedge_event()); while (!dut.in_ready.read());
      }
      dut.in_valid.write(false);
      sc_core::wait(50, sc_core::SC_NS);
      sc_core::sc_stop();
    });
    sc_core::sc_start();
  }
  // The pins as the waveform shows them: in_valid rises and falls, the
  // decoder presents WRITE_REG64 then FINISH.
  const auto w = test::read_vcd(vcd);
  ASSERT_TRUE(w.count("in_valid") && w.count("out_opcode") && w.count("out_valid")) << "pins missing in " << vcd;
  const auto valid = test::values_of(w.at("in_valid"));
  ASSERT_GE(valid.size(), 3u);
  EXPECT_EQ(valid[valid.size() - 2], 1u);
  EXPECT_EQ(valid.back(), 0u);
  std::vector<uint64_t> presented;
  const auto& ov = w.at("out_valid");
  const auto& op = w.at("out_opcode");
  for (const auto& e : ov)
    if (e.value == 1) {
      uint64_t opcode = 0;
      for (const auto& o : op)
        if (o.time <= e.time) opcode = o.value;
      presented.push_back(opcode);
    }
  EXPECT_EQ(presented, (std::vector<uint64_t>{AVP_CMP_WRITE_REG64, AVP_CMP_FINISH}));
}

namespace {
// A stand-in for a Verilated decoder that never presents a command.
struct StuckDecoder {
  uint8_t clk = 0, rst = 0, in_valid = 0, out_ready = 0, out_valid = 0, out_opcode = 0, out_error = 0;
  uint64_t in_data = 0;
  uint16_t in_avail = 0, out_payload_count = 0;
  uint32_t out_inline = 0;
  uint64_t out_payload[8] = {};
  unsigned evals = 0;
  StuckDecoder(VerilatedContext*, const char*) {}
  void eval() { ++evals; }
  void final() {}
  void trace(VerilatedVcdC*, int) {}
};
}  // namespace

TEST(RtlDecoder, AnRtlThatNeverAnswersIsALockstepErrorNotAHang) {
  LockstepDecoder ls(std::make_unique<TlmPacketDecoder>(), std::make_unique<RtlPacketDecoder<StuckDecoder>>(), "stuck");
  CommandBuffer cb;
  cb.write_reg(0, 1).finish();
  DecodedCommand d;
  EXPECT_FALSE(ls.step(cb.chunks().data(), cb.chunks().size(), d));
  EXPECT_EQ(d.error, AVP_CMP_ERR_LOCKSTEP);
  ASSERT_EQ(ls.mismatches().size(), 1u);
  EXPECT_EQ(ls.mismatches()[0].fields[0], "error");
  EXPECT_LE(d.cycles, 10u);  // bounded by the packet's own length
}

TEST(RtlDecoder, LockstepCountsPacketsMismatchesAndRtlCycles) {
  LockstepDecoder ls(std::make_unique<TlmPacketDecoder>(), std::make_unique<RtlPacketDecoder<Vcmd_decoder_mutated>>(),
                     "counted");
  CommandBuffer cb;
  cb.write_reg(0, 1).copy_mem(1, 0x10, 0x8000'0000'0000'0000ull, 0).finish();
  decode_all(ls, cb.chunks());
  EXPECT_EQ(ls.commands(), 2u);  // the mismatch stops the buffer
  EXPECT_EQ(ls.rtl_cycles(), (1u + 2) + (3u + 2));  // n payload chunks: n + 2 cycles
  auto stat = [](const std::string& n) { return dynamic_cast<const Counter*>(StatRegistry::instance().find(n)); };
  ASSERT_NE(stat("counted.packets_compared"), nullptr);
  EXPECT_EQ(stat("counted.packets_compared")->value(), 2u);
  EXPECT_EQ(stat("counted.mismatches")->value(), 1u);
  EXPECT_EQ(stat("counted.rtl_cycles")->value(), 8u);
}
