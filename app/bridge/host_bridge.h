// The host bridge: the platform as a PCIe device for host programs in their
// own processes (docs/host-bridge.md). A Unix-domain socket server whose
// clients get the host memory as a shared memfd and send configuration, MMIO,
// interrupt and Acceldev device-file requests, on the socket or through the
// connection's shared-memory request ring; each connection is served by its
// own SystemC thread at the simulated time the request reaches the device.
#pragma once
#include <poll.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "accelvp_bridge_proto.h"
#include "base/log.h"
#include "base/block_allocator.h"
#include "memory_grants.h"

namespace avp {

class Platform;
class AcceldevDriver;
class AcceldevContext;

class HostBridge {
 public:
  // Creates the shared host memory and listens on `socket_path` (an existing
  // socket file there is replaced). Throws std::runtime_error with the reason.
  HostBridge(Platform& platform, const std::string& socket_path);
  ~HostBridge();
  const std::string& path() const { return path_; }

  // The host program of a session (run from its SystemC thread). Serves until
  // `child` (when > 0) has exited and its connections are gone, returning its
  // exit status (128 + signal when killed), or, without a child, until a
  // client asks for SHUTDOWN and every connection has gone (returns 0).
  int serve(pid_t child);

 private:
  static constexpr size_t kMaxDramBlocks = 4096;          // DRAM_ALLOC blocks one session may hold
  static constexpr uint64_t kAcceldevRegistersEnd = 0x1000;  // BAR0 [0, this): Acceldev's registers
  struct Context {
    std::unique_ptr<AcceldevContext> ctx;
    std::vector<bool> buffer_open;
    std::vector<uint64_t> granted_pages;  // its buffers' pages, revoked when it closes
  };
  struct Session {
    uint64_t id = 0, token = 0;
    unsigned conns = 0;
    uint64_t irq_seen = 0;
    uint64_t next_context = 1;
    std::map<uint64_t, Context> contexts;
    std::vector<uint64_t> host_pages;    // of its HOST_ALLOC blocks, granted until the session ends
    std::map<uint64_t, uint64_t> dram_blocks;  // device address -> bytes of its DRAM_ALLOC blocks, granted
  };
  // A connection's shared request ring (AVPB_RING), unmapped with the connection.
  struct RingUnmap {
    void operator()(avpb_ring* r) const;
  };
  struct Conn {
    int fd = -1;
    std::unique_ptr<avpb_ring, RingUnmap> ring;
    uint32_t ring_seen = 0;  // sequence number of the last request taken from the ring
    bool from_ring = false;  // the request in progress came through the ring
    unsigned id = 0;
    std::shared_ptr<Session> session;
    std::vector<uint8_t> in, out;
    bool busy = false, dead = false, finished = false, has_request = false;
    avpb_request req{};
    std::vector<uint8_t> payload;
    sc_core::sc_event wake;
  };

  // Gate (host_bridge.cpp): sockets, dispatch, and when simulated time may pass.
  std::vector<pollfd> socket_set(std::vector<Conn*>& order) const;  // the listener, then each live connection
  bool socket_ready() const;           // something to accept, read or write now
  bool work_without_sockets() const;   // a connection to close or a request already read
  void check_sockets(int timeout_ms);  // poll: accept, read and write what is ready
  void accept_clients();
  void read_from(Conn& c);
  void flush(Conn& c);
  bool take_request(Conn& c);
  void drop(Conn& c, const std::string& why);
  void conn_thread(Conn* c);
  void send_reply(Conn& c, const avpb_reply& r, const void* payload, uint32_t len, int pass_fd = -1);
  void irq_watch();

  // Request rings (host_bridge_ring.cpp): shared-memory requests without a
  // system call while the gate polls.
  int open_ring(Conn& c);  // AVPB_RING: maps the ring, returns its memfd to pass (or -errno)
  bool take_ring_request(Conn& c);
  void ring_reply(Conn& c, const avpb_reply& r, const void* payload, uint32_t len);
  bool ring_request_pending() const;
  // Before the gate blocks on its sockets: spins a short while for ring
  // requests; if none came, tells clients to ring the doorbell (returns
  // false; set_ring_polling(true) once awake).
  bool await_ring_request();
  void set_ring_polling(bool polling);

  // Requests (host_bridge_requests.cpp): run in the connection's SystemC thread.
  void handle(Conn& c);
  int handle_device_io(Conn& c, avpb_reply& r, std::vector<uint8_t>& out);
  int unit_access(Conn& c, std::vector<uint8_t>& out);
  // Device-file requests; a new buffer's grant goes to `pass_fd`.
  int handle_acceldev(Conn& c, avpb_reply& r, int& pass_fd);
  int acceldev_op(Conn& c, avpb_reply& r, int& pass_fd);  // with the driver locked
  int acceldev_wait(Context& ctx, uint32_t value);
  void close_context(Context& ctx);  // with the driver locked
  int host_alloc(Session& s, const avpb_request& q, avpb_reply& r);  // -> a grant of the new block (or -errno)
  int dram_alloc(Session& s, const avpb_request& q, avpb_reply& r);  // likewise
  int dram_free(Session& s, uint64_t addr);
  int driver_register_write(uint64_t off, uint64_t size, uint64_t& v);  // 0, or -EBUSY
  static bool command_keeps_driver(uint32_t command);
  // The driver's device-command feed is five MMIO writes: one caller at a time.
  void lock_driver();
  void unlock_driver();
  void take_driver_interrupts();
  void drain_device();  // waits until every device command queued so far has run
  // The driver owns Acceldev ENABLE: a program that cleared it would stop
  // every other program's runs. Sets it again (with a warning) when cleared.
  AcceldevDriver* driver();
  void release_session(Session& s);

  Platform& p_;
  std::string path_;
  Logger log_{"host_bridge"};
  int listen_fd_ = -1;
  int spare_fd_ = -1;  // given up to accept and refuse a client when descriptors run out
  bool shutdown_requested_ = false, irq_watch_started_ = false;
  bool ring_served_ = false;  // a ring request was taken since the sockets were last checked
  std::chrono::steady_clock::time_point sockets_checked_;
  unsigned next_conn_ = 1;
  uint64_t next_session_ = 1;
  std::map<unsigned, std::unique_ptr<Conn>> conns_;
  sc_core::sc_event done_ev_, irq_ev_, starved_ev_;
  uint64_t irq_count_ = 0, starved_gen_ = 0;
  BlockAllocator dram_alloc_;  // device DRAM for every client (DRAM_ALLOC)
  MemoryGrants host_grants_;   // each client's host memory (HOST_ALLOC, Acceldev buffers)
  MemoryGrants dram_grants_;   // each client's device DRAM blocks (DRAM_ALLOC)
  std::unique_ptr<AcceldevDriver> driver_;
  bool driver_failed_ = false, driver_locked_ = false;
  uint32_t drain_seq_ = 0;
  sc_core::sc_event driver_free_, serviced_ev_;
};

}  // namespace avp
