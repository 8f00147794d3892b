// Host driver for the Acceldev front end, with the operations and semantics
// of the original kernel driver (acceldev.md, "The driver operations tests
// rely on"; docs/host-api.md), built only on MMIO, interrupts and page tables
// in host memory. Safe for concurrent callers: any number of SystemC threads
// may use the same or different contexts at once.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include <systemc>

namespace avp {

class HostPort;
class AcceldevContext;

// Encodes the user command CMP_SUBMIT (platform extension, docs/pcie.md): run
// the RefSi command buffer at [offset, offset + size) of the buffer bound to
// `slot` on the command processor. The device checks the fields.
void encode_cmp_submit(uint32_t w[5], unsigned slot, uint32_t offset, uint32_t size);

// The outcome of a driver call: success, or the errno value the original
// driver's ioctl fails with (EINVAL, EIO, EBADF, EINTR, ENOSPC, ENOMEM).
// Converts to true on success, so `if (!ctx->wait(n))` reads naturally.
class AcceldevStatus {
 public:
  constexpr AcceldevStatus(int err = 0) : err_(err) {}  // NOLINT: an errno value converts implicitly
  explicit operator bool() const { return err_ == 0; }
  int err() const { return err_; }  // 0 or a positive errno value

 private:
  int err_;
};

class AcceldevDriver {
 public:
  // The INTR bits of Acceldev itself (FENCE_WAIT ... USER_FENCE_WAIT), which
  // the driver enables and services; the bits above belong to other units.
  static constexpr uint32_t kInterrupts = 0x3F;

  explicit AcceldevDriver(HostPort& rc) : rc_(rc) {}
  // The start-up sequence: clear INTR, enable interrupts, attach the context
  // config array (255 x 192 bytes in host memory), set ENABLE.
  bool start();
  // A new context (the lowest free id), or nullptr when all 255 are open (ENOSPC).
  std::unique_ptr<AcceldevContext> open_context();
  // Sends one device command: the FREE check and the five FEED words are one
  // atomic step (no other caller's words come in between). Waits while the
  // queue is full; the driver keeps a device FENCE in a nearly full queue so
  // that this wait always ends once the device makes progress.
  void submit(const uint32_t w[5]);
  // Returns once every device command submitted before the call has been
  // executed (a device FENCE with a driver sequence number, CMD_FENCE_LAST).
  void barrier();
  // Reads INTR, clears what was raised and returns it with the bits other
  // callers took since the previous call.
  uint32_t take_interrupts();
  // Waits for the next interrupt and services it (returns at once if the line
  // is high; also returns when another caller serviced one meanwhile).
  void wait_interrupt();
  uint64_t config_base() const { return configs_; }
  uint8_t* config(unsigned ctx);
  HostPort& rc() { return rc_; }
  uint32_t seen_interrupts() const { return seen_; }

 private:
  friend class AcceldevContext;
  struct Lock;  // the feed lock (FIFO order of callers)
  void feed(const uint32_t w[5]);
  void make_room();  // with the feed lock held
  uint32_t feed_fence();
  void service();
  // Waits until `done()` holds; `done` may take simulated time (MMIO reads).
  template <typename Done>
  void wait_until(Done done);
  uint64_t alloc_page();  // zero-filled; 0 when host memory is exhausted
  void free_page(uint64_t pa) { free_pages_.push_back(pa); }

  HostPort& rc_;
  uint64_t configs_ = 0;
  std::vector<bool> used_ = std::vector<bool>(255, false);
  uint32_t seen_ = 0;        // every INTR bit observed since start
  uint32_t untaken_ = 0;     // bits serviced but not yet returned by take_interrupts
  uint64_t serviced_count_ = 0;
  sc_core::sc_event serviced_;
  uint64_t next_ticket_ = 0, serving_ = 0;
  sc_core::sc_event turn_;
  uint32_t fence_seq_ = 0;   // the last driver device FENCE submitted
  uint32_t fence_seen_ = 0;  // the last CMD_FENCE_LAST read
  int next_handle_ = 1;      // buffer handles are unique across contexts
  std::vector<uint64_t> free_pages_;
};

class AcceldevContext {
 public:
  enum class Kind { Code, Data };
  struct Buffer {
    Kind kind;
    uint64_t size;
    uint64_t page_table;  // host physical address of its page table
    std::vector<uint64_t> pages;
    int slot;  // data buffers: the slot they are bound to; code buffers: -1
  };

  ~AcceldevContext();
  unsigned id() const { return id_; }
  // A zero-filled buffer of 1 byte .. 4 MiB; a data buffer is bound to the
  // lowest free slot. Returns its handle (>= 0, unique across contexts) or
  // -EINVAL (size), -ENOSPC (no free slot), -ENOMEM (host memory), -EBADF (closed).
  int create_buffer(Kind kind, uint64_t size);
  // The buffer of handle `b`, nullptr for a handle that is not this context's.
  const Buffer* buffer(int b) const;
  // The slot of data buffer `b`, or -EINVAL.
  int slot(int b) const;
  // Host view of a buffer's bytes (they are host memory): EINVAL for a
  // handle that is not this context's or a range past the buffer.
  AcceldevStatus write(int b, uint64_t offset, const void* data, uint64_t len);
  AcceldevStatus read(int b, uint64_t offset, void* data, uint64_t len);
  // RUN user commands of code buffer `b` at [offset, offset + size). EINVAL
  // (nothing sent): `b` is not a code buffer of this context, offset or size
  // not a multiple of 4; EIO (nothing sent): the context is in error; EBADF:
  // closed. A range past the buffer is still sent: the device reports MEM_ERROR.
  [[nodiscard]] AcceldevStatus run(int b, uint64_t offset, uint64_t size);
  // Waits until the context's fence counter reaches `value` (counted from 1,
  // wrapping). EIO when the context is in error (checked first), EINTR when
  // interrupt_waits() was called meanwhile, EBADF when closed.
  [[nodiscard]] AcceldevStatus wait(uint32_t value);
  // Ends every WAIT of this context in progress with EINTR (a signal).
  void interrupt_waits();
  bool in_error();
  uint32_t fence_counter();
  // Closes one buffer: waits for every RUN already scheduled on the context,
  // unbinds it (data) and frees its memory. EINVAL for a foreign handle.
  // With keep_pages its pages stay allocated until the context closes: a
  // process's mapping of them may outlive the buffer (a device file's does),
  // and must not come to alias another buffer's pages.
  AcceldevStatus close_buffer(int b, bool keep_pages = false);
  // Waits for every RUN already scheduled on the context, unbinds its data
  // buffers, frees them, zeroes the config entry and frees the id. Later
  // calls on the context fail with EBADF.
  void close();

 private:
  friend class AcceldevDriver;
  AcceldevContext(AcceldevDriver& d, unsigned id) : drv_(d), id_(id) {}
  Buffer* find(int b);
  void release(Buffer& b);
  void free_id();
  AcceldevDriver& drv_;
  unsigned id_;
  bool open_ = true;     // false once close() has started
  bool released_ = false;
  std::map<int, Buffer> buffers_;
  std::vector<Buffer> retired_;  // closed with keep_pages: freed when the context closes
  bool slots_[16] = {};
  uint64_t interrupts_ = 0;  // interrupt_waits() calls
};

}  // namespace avp
