// Host driver for the Acceldev front end, with the operations and semantics
// of the original kernel driver (acceldev.md, "The driver operations tests
// rely on"), built only on MMIO, interrupts and page tables in host memory.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace avp {

class PcieRootComplex;
class AcceldevContext;

// Encodes the user command CMP_SUBMIT (platform extension, docs/pcie.md): run
// the RefSi command buffer at [offset, offset + size) of the buffer bound to
// `slot` on the command processor. The device checks the fields.
void encode_cmp_submit(uint32_t w[5], unsigned slot, uint32_t offset, uint32_t size);

class AcceldevDriver {
 public:
  explicit AcceldevDriver(PcieRootComplex& rc) : rc_(rc) {}
  // The start-up sequence: clear INTR, enable interrupts, attach the context
  // config array (255 x 192 bytes in host memory), set ENABLE.
  bool start();
  // A new context (the next free id), or nullptr when all 255 are open.
  std::unique_ptr<AcceldevContext> open_context();
  // Sends one device command through CMD_MANUAL_FEED, waiting while the queue is full.
  void submit(const uint32_t w[5]);
  // Reads INTR, clears what was raised and returns it.
  uint32_t take_interrupts();
  // Waits for the next interrupt (or returns at once if the line is high).
  void wait_interrupt();
  uint64_t config_base() const { return configs_; }
  uint8_t* config(unsigned ctx);
  PcieRootComplex& rc() { return rc_; }
  uint32_t seen_interrupts() const { return seen_; }

 private:
  friend class AcceldevContext;
  PcieRootComplex& rc_;
  uint64_t configs_ = 0;
  std::vector<bool> used_ = std::vector<bool>(255, false);
  uint32_t seen_ = 0;  // every INTR bit observed since start
};

class AcceldevContext {
 public:
  enum class Kind { Code, Data };
  struct Buffer {
    Kind kind;
    uint64_t size;
    uint64_t page_table;  // host physical address of its page table
    std::vector<uint64_t> pages;
    int slot;  // data buffers: the slot they are bound to
  };

  ~AcceldevContext();
  unsigned id() const { return id_; }
  // A zero-filled buffer of up to 4 MiB; a data buffer takes the next free
  // slot. Returns the buffer index, or -1 (too large, no slot left).
  int create_buffer(Kind kind, uint64_t size);
  const Buffer& buffer(int b) const { return buffers_.at(b); }
  // Host view of a buffer's bytes (they are host memory).
  void write(int b, uint64_t offset, const void* data, uint64_t len);
  void read(int b, uint64_t offset, void* data, uint64_t len);
  // RUN user commands of code buffer `b` at [offset, offset + size): false
  // (nothing sent) when offset or size is not a multiple of 4. A range past
  // the buffer is still sent: the device reports MEM_ERROR.
  bool run(int b, uint64_t offset, uint64_t size);
  // Waits until the context's fence counter reaches `value` (counted from 1,
  // wrapping). False when the context is in error (checked first).
  bool wait(uint32_t value);
  bool in_error();
  uint32_t fence_counter();
  // Frees the id and zeroes the config entry.
  void close();

 private:
  friend class AcceldevDriver;
  AcceldevContext(AcceldevDriver& d, unsigned id) : drv_(d), id_(id) {}
  AcceldevDriver& drv_;
  unsigned id_;
  bool open_ = true;
  std::vector<Buffer> buffers_;
  bool slots_[16] = {};
};

}  // namespace avp
