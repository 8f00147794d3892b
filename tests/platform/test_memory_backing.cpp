// A memory's storage and the host's pages behind it (Memory::huge_pages):
// 4 KiB pages unless asked for huge ones, also where the host's transparent
// huge pages are "always" on; the storage reads back what was written.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "base/params.h"
#include "memory/memory.h"
#include "vm_flags.h"

namespace avp {
namespace {

bool transparent_huge_pages() { return static_cast<bool>(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")); }

TEST(MemoryBacking, AsksForHugeHostPagesOnlyWhenSetTo) {
  auto& reg = ParamRegistry::instance();
  reg.clear_presets();
  reg.load_yaml_text("huge_mem:\n  huge_pages: true\n", "cfg.yaml");
  Memory small("small_mem", 8 << 20, sc_core::sc_time(10, sc_core::SC_NS));
  Memory huge("huge_mem", 8 << 20, sc_core::sc_time(10, sc_core::SC_NS));
  EXPECT_NO_THROW(reg.check_unused_presets());
  reg.clear_presets();
  EXPECT_FALSE(small.huge_pages.get());
  EXPECT_TRUE(huge.huge_pages.get());
  for (Memory* m : {&small, &huge}) {
    const uint64_t v = 0x1122334455667788ull;
    m->write(5 << 20, &v, sizeof v);
    uint64_t back = 0;
    m->read(5 << 20, &back, sizeof back);
    EXPECT_EQ(back, v);
  }
  if (!transparent_huge_pages()) GTEST_SKIP() << "no transparent huge pages on this host";
  const std::string small_flags = test::vm_flags_of(small.data()), huge_flags = test::vm_flags_of(huge.data());
  EXPECT_NE(small_flags.find(" nh"), std::string::npos) << small_flags;
  EXPECT_EQ(small_flags.find(" hg"), std::string::npos) << small_flags;
  EXPECT_NE(huge_flags.find(" hg"), std::string::npos) << huge_flags;
}

}  // namespace
}  // namespace avp
