#include <gtest/gtest.h>

#include "cmdbuf.h"
#include "cmp/packet_decoder.h"

using namespace avp;

namespace {
DecodedCommand decode(const std::vector<uint64_t>& c) { return TlmPacketDecoder().decode(c.data(), c.size()); }
}  // namespace

TEST(Decoder, EveryOpcodeWithItsExactPayload) {
  CommandBuffer cb;
  cb.nop(3).finish().write_reg(5, 1).load_reg(0, 8).store_reg(0, 8).store_imm(0x100, 1).copy_mem(2, 0, 8, 0x3000000);
  cb.run_kernel_slice(2, 4, 1).run_instances(0, 4, {1, 2, 3}).sync_cache(3);
  const auto& c = cb.chunks();
  size_t at = 0;
  const unsigned expect[] = {AVP_CMP_NOP, AVP_CMP_FINISH, AVP_CMP_WRITE_REG64, AVP_CMP_LOAD_REG64, AVP_CMP_STORE_REG64,
                             AVP_CMP_STORE_IMM64, AVP_CMP_COPY_MEM64, AVP_CMP_RUN_KERNEL_SLICE, AVP_CMP_RUN_INSTANCES,
                             AVP_CMP_SYNC_CACHE};
  for (unsigned op : expect) {
    DecodedCommand d = TlmPacketDecoder().decode(c.data() + at, c.size() - at);
    ASSERT_EQ(d.error, AVP_CMP_OK) << d.describe();
    EXPECT_EQ(d.opcode, op);
    at += 1 + d.payload_chunks;
  }
  EXPECT_EQ(at, c.size());
  DecodedCommand run = TlmPacketDecoder().decode(c.data() + c.size() - 1 - 5, 5);
  EXPECT_EQ(run.opcode, AVP_CMP_RUN_INSTANCES);
  EXPECT_EQ(run.payload[3], 3u);
}

TEST(Decoder, MalformedHeadersHaveTheirOwnErrors) {
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_FINISH, 0, 0) | 0x1}).error, AVP_CMP_ERR_BAD_HEADER);   // reserved bits
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_FINISH, 0, 0) & ~(1ull << 31)}).error, AVP_CMP_ERR_BAD_HEADER);  // packet id
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_FINISH, 0, 0) | (1ull << 16), 0}).error, AVP_CMP_ERR_ODD_COUNT);
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_FINISH, 1, 0), 0}).error, AVP_CMP_ERR_PAYLOAD_COUNT);
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_WRITE_REG64, 2, 0), 0, 0}).error, AVP_CMP_ERR_PAYLOAD_COUNT);
  EXPECT_EQ(decode({AVP_CMP_HEADER(42, 0, 0)}).error, AVP_CMP_ERR_UNKNOWN_OPCODE);
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_WRITE_REG64, 1, 40), 0}).error, AVP_CMP_ERR_BAD_REGISTER);
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_WRITE_REG64, 1, 39), 0}).error, AVP_CMP_OK);
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_COPY_MEM64, 3, 1), 0}).error, AVP_CMP_ERR_TRUNCATED);
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_RUN_INSTANCES, 3, AVP_CMP_RUN_INLINE(0, 1)), 0, 0, 0}).error,
            AVP_CMP_ERR_PAYLOAD_COUNT);
  EXPECT_EQ(decode({}).error, AVP_CMP_ERR_NO_FINISH);
}

TEST(Decoder, NopSkipsItsPayloadWhateverItHolds) {
  DecodedCommand d = decode({AVP_CMP_HEADER(AVP_CMP_NOP, 3, 0), 0xdead, 0xbeef, 0x1234});
  EXPECT_EQ(d.error, AVP_CMP_OK);
  EXPECT_EQ(d.payload_chunks, 3u);
}

// NUM_ARGS is the 3-bit field [10:8] (seed); the bits above it are ignored.
TEST(Decoder, RunInstancesNumArgsIsBits10To8) {
  const DecodedCommand d = decode({AVP_CMP_HEADER(AVP_CMP_RUN_INSTANCES, 2, 1u << 11 | AVP_CMP_RUN_INLINE(3, 1)), 5, 0x77});
  EXPECT_EQ(d.error, AVP_CMP_OK) << d.describe();
  EXPECT_EQ(d.payload_chunks, 2u);
  EXPECT_EQ(d.payload[1], 0x77u);
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_RUN_INSTANCES, 1, 0xFFFFF800u), 5}).error, AVP_CMP_OK);  // NUM_ARGS 0
  EXPECT_EQ(decode({AVP_CMP_HEADER(AVP_CMP_RUN_INSTANCES, 1, 1u << 11 | AVP_CMP_RUN_INLINE(0, 1)), 5}).error,
            AVP_CMP_ERR_PAYLOAD_COUNT);
}
