// The endpoint bound on its own (no root complex, libsystemctlm-soc style):
// BAR0 windows (the CMP host interface over a fake CmpHostInterface, a test
// front end), extension interrupt bits and the INTx level, and
// device-initiated 64-bit atomics to host memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "base/payload.h"
#include "cmp/cmp_host_registers.h"
#include "memory/memory.h"
#include "pcie/bar0_regs.h"
#include "pcie/pcie_endpoint.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

using namespace avp;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

struct FakeCmp : CmpHostInterface {
  std::vector<std::pair<uint64_t, uint64_t>> submitted;
  unsigned resets = 0;
  bool submit(uint64_t a, uint64_t s) override {
    submitted.emplace_back(a, s);
    return true;
  }
  bool submit_for(uint64_t a, uint64_t s, uint32_t, std::function<void(bool)>) override { return submit(a, s); }
  unsigned free_slots() const override { return 16 - static_cast<unsigned>(submitted.size()); }
  uint64_t completed_count() const override { return 7; }
  CmpStatusWord status() const override {
    CmpStatusWord w;
    w.busy = true;
    w.error_code = 3;
    w.error_offset = 0x40;
    return w;
  }
  void reset() override { ++resets; }
  bool idle() const override { return true; }
  const sc_core::sc_event& idle_event() const override { return idle_; }
  sc_core::sc_event idle_;
};

// The host side in place of a root complex: one initiator per endpoint target socket.
struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> cfg{"cfg"}, bar0{"bar0"}, bar2{"bar2"}, dma{"dma"};
  explicit Host(sc_core::sc_module_name n) : sc_module(n) {}
};

struct Bench {
  PcieLink link{"link"};
  Host h{"host"};
  FakeCmp cmp;
  PcieEndpoint ep{"endpoint", link, PlatformInfo{}};
  CmpHostRegisters cmp_regs{&ep, cmp};
  Memory host{"host_mem", 1 << 20, sc_core::SC_ZERO_TIME};
  Memory dram{"dram", 1 << 20, sc_core::SC_ZERO_TIME};
  std::vector<bool> levels;
  Bench() {
    h.cfg.bind(ep.cfg);
    h.bar0.bind(ep.bar0);
    h.bar2.bind(ep.bar2);
    h.dma.bind(ep.dma);
    ep.upstream.bind(host.socket);
    ep.device.bind(dram.socket);
    ep.intx.bind([this](bool l) { levels.push_back(l); });
    ep.map_window(CmpHostRegisters::kWindowStart, CmpHostRegisters::kWindowEnd, cmp_regs.registers());
    cmp.irq.bind([this](uint32_t bits) { ep.raise(bits); });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  tlm::tlm_response_status access(tlm::tlm_fw_transport_if<>& s, bool write, uint64_t addr, void* d, unsigned n,
                                  PcieAtomicExtension* ext = nullptr) {
    tlm::tlm_generic_payload gp;
    prepare_payload(gp, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, d, n);
    if (ext) gp.set_extension(ext);
    sc_time t = sc_core::SC_ZERO_TIME;
    s.b_transport(gp, t);
    if (ext) gp.clear_extension(ext);
    return gp.get_response_status();
  }
  void w32(tlm::tlm_fw_transport_if<>& s, uint64_t a, uint32_t v) { access(s, true, a, &v, 4); }
  uint32_t r32(tlm::tlm_fw_transport_if<>& s, uint64_t a) {
    uint32_t v = 0;
    access(s, false, a, &v, 4);
    return v;
  }
};

}  // namespace

TEST(PcieEndpoint, Bar0ForwardsTheCommandBufferRegistersToTheCmp) {
  Bench b;
  auto& bar0 = *b.h.bar0.operator->();
  b.w32(*b.h.cfg.operator->(), 0x04, 0x2);  // memory space
  b.w32(bar0, AVP_CB_ADDR_LO, 0x4000'1000);
  b.w32(bar0, AVP_CB_ADDR_HI, 0x1);
  b.w32(bar0, AVP_CB_SIZE, 256);
  b.w32(bar0, AVP_CB_SUBMIT, 1);
  ASSERT_EQ(b.cmp.submitted.size(), 1u);
  EXPECT_EQ(b.cmp.submitted[0].first, 0x1'4000'1000ull);
  EXPECT_EQ(b.cmp.submitted[0].second, 256u);
  EXPECT_EQ(b.r32(bar0, AVP_CB_FREE), 15u);
  EXPECT_EQ(b.r32(bar0, AVP_CB_DONE_COUNT), 7u);
  EXPECT_EQ(b.r32(bar0, AVP_CMP_STATUS), 1u);
  EXPECT_EQ(b.r32(bar0, AVP_CMP_ERR_CODE), 3u);
  EXPECT_EQ(b.r32(bar0, AVP_CMP_ERR_OFFSET), 0x40u);
  b.w32(bar0, AVP_CMP_RESET, 1);
  EXPECT_EQ(b.cmp.resets, 1u);
  EXPECT_EQ(b.r32(bar0, AVP_INFO_MAGIC), AVP_INFO_MAGIC_VALUE);
}

TEST(PcieEndpoint, ExtensionInterruptBitsDriveTheLineOnlyWhenEnabled) {
  Bench b;
  auto& bar0 = *b.h.bar0.operator->();
  b.w32(*b.h.cfg.operator->(), 0x04, 0x2);  // memory space
  b.cmp.irq.signal(AVP_INTR_CMDBUF_DONE);
  EXPECT_EQ(b.r32(bar0, 0x0000), 1u << 8);
  EXPECT_TRUE(b.levels.empty());  // not enabled: the line stays low
  b.w32(bar0, 0x0004, 1u << 8);
  ASSERT_EQ(b.levels.size(), 1u);
  EXPECT_TRUE(b.levels.back());
  b.w32(bar0, 0x0000, 1u << 8);  // write 1 to clear
  EXPECT_EQ(b.r32(bar0, 0x0000), 0u);
  ASSERT_EQ(b.levels.size(), 2u);
  EXPECT_FALSE(b.levels.back());
}

TEST(PcieEndpoint, DeviceAtomicsReachHostMemoryOnlyWithBusMastering) {
  Bench b;
  auto& dma = *b.h.dma.operator->();
  auto& cfg = *b.h.cfg.operator->();
  uint64_t v = 40;
  ASSERT_EQ(b.access(dma, true, 0x100, &v, 8), tlm::TLM_COMMAND_ERROR_RESPONSE);  // bus master off
  b.w32(cfg, 0x04, 0x6);  // memory space + bus master
  ASSERT_EQ(b.access(dma, true, 0x100, &v, 8), tlm::TLM_OK_RESPONSE);
  auto* add = new PcieAtomicExtension;
  add->op = PcieAtomicExtension::FetchAdd;
  add->operand = 2;
  uint64_t old = 0;
  ASSERT_EQ(b.access(dma, false, 0x100, &old, 8, add), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(old, 40u);
  add->op = PcieAtomicExtension::CompareSwap;
  add->compare = 41;  // mismatch: memory keeps 42
  add->operand = 7;
  ASSERT_EQ(b.access(dma, false, 0x100, &old, 8, add), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(old, 42u);
  add->compare = 42;
  ASSERT_EQ(b.access(dma, false, 0x100, &old, 8, add), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(old, 42u);
  uint64_t now = 0;
  ASSERT_EQ(b.access(dma, false, 0x100, &now, 8), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(now, 7u);
  delete add;
}

TEST(PcieEndpoint, BarsDoNotDecodeWhileMemorySpaceIsDisabled) {
  Bench b;
  auto& bar0 = *b.h.bar0.operator->();
  auto& bar2 = *b.h.bar2.operator->();
  EXPECT_EQ(b.r32(bar0, AVP_INFO_MAGIC), 0xFFFFFFFFu);  // unsupported request: master abort
  b.w32(bar0, AVP_CB_SUBMIT, 1);
  EXPECT_TRUE(b.cmp.submitted.empty());
  b.w32(bar2, 0x10, 0x12345678);
  b.w32(*b.h.cfg.operator->(), 0x04, 0x2);
  EXPECT_EQ(b.r32(bar0, AVP_INFO_MAGIC), AVP_INFO_MAGIC_VALUE);
  auto* ur = dynamic_cast<const Counter*>(StatRegistry::instance().find("endpoint.unsupported_requests"));
  ASSERT_NE(ur, nullptr);
  EXPECT_EQ(ur->value(), 3u);
}

namespace {
// Stands in for a front end with its own BAR0 window: a 64-bit doorbell and a status register.
struct FrontEnd {
  RegisterBlock regs;
  Reg<uint64_t> DOORBELL{regs, "DOORBELL", 0x3008, Access::WO};
  Reg<uint32_t> STATUS{regs, "STATUS", 0x2010, Access::RO, 0x10};
  std::vector<uint64_t> rung;
  explicit FrontEnd(const sc_core::sc_object* owner)
      : regs(owner, "BAR0 test front end", 0x4000, RegisterBlock::Misuse::Ignore, "test_latency") {
    DOORBELL.on_write([this](uint64_t v) { rung.push_back(v); });
  }
};
}  // namespace

TEST(PcieEndpoint, Bar0RoutesEachWindowToItsFrontEndsRegisterBlock) {
  Bench b;
  FrontEnd fe{&b.ep};
  b.ep.map_window(0x2000, 0x4000, fe.regs);
  auto& bar0 = *b.h.bar0.operator->();
  b.w32(*b.h.cfg.operator->(), 0x04, 0x2);
  uint64_t doorbell = 0x1234'5678'9ABCull;  // one 8-byte write
  ASSERT_EQ(b.access(bar0, true, 0x3008, &doorbell, 8), tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(fe.rung.size(), 1u);
  EXPECT_EQ(fe.rung[0], doorbell);
  EXPECT_EQ(b.r32(bar0, 0x2010), 0x10u);
  EXPECT_EQ(b.r32(bar0, 0x2014), 0xFFFFFFFFu);  // inside the window, no register: misuse
  EXPECT_EQ(b.r32(bar0, 0x5000), 0xFFFFFFFFu);  // outside every window: misuse
  EXPECT_EQ(b.r32(bar0, AVP_INFO_MAGIC), AVP_INFO_MAGIC_VALUE);  // the endpoint's own info window
  auto* misuse = dynamic_cast<const Counter*>(StatRegistry::instance().find("endpoint.mmio_misuse"));
  ASSERT_NE(misuse, nullptr);
  EXPECT_EQ(misuse->value(), 2u);
  EXPECT_THROW(b.ep.map_window(0x3000, 0x5000, fe.regs), std::logic_error);  // overlaps
}
