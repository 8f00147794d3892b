// The ECAM host bridge of the host system (docs/full-system.md) in front of
// a root complex and an endpoint: configuration requests of every size to
// device 0 function 0 (byte enables on writes), master aborts for absent
// devices and for addresses no BAR claims, BAR0/BAR2 forwarding once Linux
// would have assigned them, bad sizes refused, every request timed by the link.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include <tlm_utils/simple_initiator_socket.h>

#include "base/payload.h"
#include "base/stats.h"
#include "memory/memory.h"
#include "pcie/bar0_regs.h"
#include "pcie/ecam_host_bridge.h"
#include "pcie/pcie_endpoint.h"
#include "pcie/root_complex.h"

using namespace avp;

namespace {

constexpr uint64_t kBar0 = 0x40000000, kBar2 = 0x400000000ull;

struct Cpu : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Cpu> ecam{"ecam"}, mmio{"mmio"};
  tlm_utils::simple_initiator_socket<Cpu> device_dma{"device_dma"};  // the device side, unused
  explicit Cpu(sc_core::sc_module_name n) : sc_module(n) {}
};

PlatformInfo info() {
  PlatformInfo i;
  i.dram_size = 1 << 20;
  return i;
}

struct Bench {
  PcieLink link{"link"};
  PcieRootComplex rc{"host", link};
  PcieEndpoint ep{"endpoint", link, info()};
  Memory dram{"dram", 1 << 20, sc_core::SC_ZERO_TIME};
  PcieEcamBridge bridge{"bridge", rc, ep.config_space()};
  Cpu cpu{"cpu"};
  std::vector<bool> intx;
  Bench() {
    rc.cfg_out.bind(ep.cfg);
    rc.bar0_out.bind(ep.bar0);
    rc.bar2_out.bind(ep.bar2);
    ep.upstream.bind(rc.host_mem.socket);
    ep.device.bind(dram.socket);
    cpu.ecam.bind(bridge.ecam);
    cpu.mmio.bind(bridge.mmio);
    cpu.device_dma.bind(ep.dma);
    ep.intx.bind([this](bool l) { rc.intx(l); });
    rc.intx_line.bind([this](bool l) { intx.push_back(l); });
  }
  // Runs `body` in a SystemC thread (the bridge waits for the link).
  void run(std::function<void()> body) {
    sc_core::sc_spawn(body);
    sc_core::sc_start();
  }
  tlm::tlm_response_status access(bool ecam, bool write, uint64_t addr, void* d, unsigned n) {
    tlm::tlm_generic_payload gp;
    prepare_payload(gp, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, d, n);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    (ecam ? cpu.ecam : cpu.mmio)->b_transport(gp, t);
    return gp.get_response_status();
  }
  template <typename T>
  T read(bool ecam, uint64_t addr) {
    T v = 0;
    EXPECT_EQ(access(ecam, false, addr, &v, sizeof v), tlm::TLM_OK_RESPONSE);
    return v;
  }
  template <typename T>
  void write(bool ecam, uint64_t addr, T v) {
    EXPECT_EQ(access(ecam, true, addr, &v, sizeof v), tlm::TLM_OK_RESPONSE);
  }
  uint64_t counter(const std::string& name) {
    auto* c = dynamic_cast<const Counter*>(StatRegistry::instance().find(name));
    return c ? c->value() : ~0ull;
  }
};

}  // namespace

TEST(PcieEcamBridge, ConfigurationRequestsOfEverySizeReachDevice0Function0) {
  Bench b;
  b.run([&] {
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    EXPECT_EQ(b.read<uint32_t>(true, 0x00), AVP_PCI_VENDOR_ID | AVP_PCI_DEVICE_ID << 16);
    EXPECT_GT(sc_core::sc_time_stamp(), start);  // a non-posted request over the link
    EXPECT_EQ(b.read<uint16_t>(true, 0x02), AVP_PCI_DEVICE_ID);
    EXPECT_EQ(b.read<uint8_t>(true, 0x0B), AVP_PCI_CLASS >> 16);
    EXPECT_EQ(b.read<uint8_t>(true, 0x0E), 0);  // header type 0, one function
    EXPECT_EQ(b.read<uint8_t>(true, 0x3D), 1);  // INTA
    b.write<uint16_t>(true, 0x04, 0x0006);      // memory space and bus master
    EXPECT_TRUE(b.ep.config_space().memory_enabled());
    EXPECT_TRUE(b.ep.config_space().bus_master());
    EXPECT_EQ(b.read<uint16_t>(true, 0x06), 0x0010);  // status untouched: capabilities
    b.write<uint8_t>(true, 0x3C, 0x2A);               // interrupt line, the pin beside it kept
    EXPECT_EQ(b.read<uint32_t>(true, 0x3C), 0x012Au);
    b.write<uint32_t>(true, 0x10, ~0u);  // BAR sizing
    EXPECT_EQ(b.read<uint32_t>(true, 0x10), ~(AVP_BAR0_SIZE - 1));
  });
  EXPECT_EQ(b.counter("bridge.config_requests"), 11u);
  EXPECT_EQ(b.counter("bridge.master_aborts"), 0u);
}

TEST(PcieEcamBridge, AbsentDevicesAndFunctionsReadAllOnes) {
  Bench b;
  b.run([&] {
    EXPECT_EQ(b.read<uint32_t>(true, 1u << 15), ~0u);           // device 1
    EXPECT_EQ(b.read<uint16_t>(true, 1u << 12), 0xFFFF);        // function 1
    EXPECT_EQ(b.read<uint32_t>(true, 31u << 15 | 7u << 12), ~0u);
    b.write<uint32_t>(true, 2u << 15 | 0x04, 0x6);               // dropped
    EXPECT_FALSE(b.ep.config_space().memory_enabled());
  });
  EXPECT_EQ(b.counter("bridge.master_aborts"), 4u);
  EXPECT_EQ(b.counter("bridge.config_requests"), 0u);
}

TEST(PcieEcamBridge, BadConfigurationRequestSizesAreBusErrors) {
  Bench b;
  b.run([&] {
    uint64_t v = 0;
    EXPECT_EQ(b.access(true, false, 0x00, &v, 8), tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(b.access(true, false, 0x01, &v, 2), tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(b.access(true, true, 0x06, &v, 4), tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(b.access(true, false, 0x00, &v, 3), tlm::TLM_BURST_ERROR_RESPONSE);
  });
  EXPECT_EQ(b.counter("bridge.config_requests"), 0u);
}

TEST(PcieEcamBridge, MemoryWindowsReachTheBarsOnlyWhereTheyAreAssignedAndDecode) {
  Bench b;
  b.run([&] {
    EXPECT_EQ(b.read<uint32_t>(false, kBar0 + AVP_INFO_MAGIC), ~0u);  // unassigned: nobody claims it
    b.write<uint32_t>(true, 0x10, static_cast<uint32_t>(kBar0));
    b.write<uint32_t>(true, 0x18, static_cast<uint32_t>(kBar2));
    b.write<uint32_t>(true, 0x1C, static_cast<uint32_t>(kBar2 >> 32));
    EXPECT_EQ(b.ep.config_space().bar2(), kBar2);
    EXPECT_EQ(b.read<uint32_t>(false, kBar0 + AVP_INFO_MAGIC), ~0u);  // decode off: unsupported request
    b.write<uint16_t>(true, 0x04, 0x0002);
    EXPECT_EQ(b.read<uint32_t>(false, kBar0 + AVP_INFO_MAGIC), AVP_INFO_MAGIC_VALUE);
    EXPECT_EQ(b.read<uint32_t>(false, kBar0 + AVP_BAR0_SIZE), ~0u);  // past BAR0
    b.write<uint64_t>(false, kBar2 + 0x100, 0x0123456789ABCDEFull);
    EXPECT_EQ(b.read<uint64_t>(false, kBar2 + 0x100), 0x0123456789ABCDEFull);
    b.write<uint32_t>(false, kBar0 + AVP_BAR0_SIZE, 1);  // dropped
  });
  uint64_t in_dram = 0;
  std::memcpy(&in_dram, b.dram.data() + 0x100, 8);
  EXPECT_EQ(in_dram, 0x0123456789ABCDEFull);
  EXPECT_EQ(b.counter("bridge.mmio_requests"), 4u);
  EXPECT_EQ(b.counter("bridge.master_aborts"), 4u);
}

TEST(PcieEcamBridge, IntxReachesTheHostsInterruptLine) {
  Bench b;
  b.run([&] {
    b.write<uint32_t>(true, 0x10, static_cast<uint32_t>(kBar0));
    b.write<uint16_t>(true, 0x04, 0x0002);
    b.write<uint32_t>(false, kBar0 + ACCELDEV_INTR_ENABLE, ACCELDEV_INTR_FENCE_WAIT);
    b.ep.raise(ACCELDEV_INTR_FENCE_WAIT);
    b.write<uint32_t>(false, kBar0 + ACCELDEV_INTR, ACCELDEV_INTR_FENCE_WAIT);  // W1C
  });
  ASSERT_GE(b.intx.size(), 2u);
  EXPECT_TRUE(b.intx[b.intx.size() - 2]);
  EXPECT_FALSE(b.intx.back());
}
