/* Wire protocol of the host bridge (docs/host-bridge.md): the messages a host
 * process and `accel-vp serve` exchange over a Unix-domain stream socket or a
 * connection's shared-memory request ring (struct avpb_ring). One layout for
 * the server, the host library and the tests. Little-endian, fixed-size
 * headers, every request answered by exactly one reply (RING_DOORBELL
 * excepted). */
#ifndef ACCELVP_BRIDGE_PROTO_H
#define ACCELVP_BRIDGE_PROTO_H

#include <stdint.h>

#define AVPB_MAGIC 0x42505641u /* "AVPB" */
/* 2: host memory is granted block by block (HELLO passes no memfd).
 * 3: so is device DRAM (DRAM_ALLOC passes the block's memfd; no DRAM_SHARE). */
#define AVPB_VERSION 3u
/* Largest payload of one message (BAR reads and writes). */
#define AVPB_MAX_PAYLOAD (64u * 1024u)
/* Environment variable naming the socket (set by `accel-vp exec`). */
#define AVPB_SOCKET_ENV "ACCELVP_SOCKET"
/* Environment variable that, set non-empty, keeps libaccelvp-host's requests
 * on the socket (no request rings: for comparison and diagnosis). */
#define AVPB_NO_RING_ENV "ACCELVP_NO_RING"
/* IRQ_WAIT without a timeout; it fails with EDEADLK when the simulation has
 * nothing left to do (no interrupt can come). */
#define AVPB_IRQ_WAIT_FOREVER (~(uint64_t)0)

enum avpb_op {
  AVPB_HELLO = 1,        /* a0 = magic, a1 = version -> r0 = version, r1 = host memory size, r2 = session, r3 = token */
  AVPB_ATTACH = 2,       /* a0 = session, a1 = token: one more connection of the same session (threads) */
  AVPB_BYE = 3,          /* the connection ends cleanly */
  AVPB_SHUTDOWN = 4,     /* stop the server once every other session has gone */
  AVPB_CFG_READ = 10,    /* a0 = offset, a1 = size 1/2/4 -> r0 = value */
  AVPB_CFG_WRITE = 11,   /* a0 = offset, a1 = size, a2 = value */
  AVPB_MMIO_READ = 12,   /* a0 = bar (0 or 2), a1 = offset, a2 = size 1/2/4/8 -> r0 = value */
  AVPB_MMIO_WRITE = 13,  /* a0 = bar, a1 = offset, a2 = size, a3 = value (posted) */
  AVPB_BAR_READ = 14,    /* a0 = bar, a1 = offset, a2 = length <= AVPB_MAX_PAYLOAD -> payload */
  AVPB_BAR_WRITE = 15,   /* a0 = bar, a1 = offset, payload = the bytes */
  AVPB_HOST_ALLOC = 16,  /* a0 = size, a1 = alignment -> r0 = bus address, r1 = bytes (whole pages); their memfd comes with it (SCM_RIGHTS) */
  AVPB_IRQ_WAIT = 17,    /* a0 = timeout in simulated ns (0: poll, AVPB_IRQ_WAIT_FOREVER) -> r0 = interrupts since the last IRQ_WAIT, r1 = INTx level */
  AVPB_SIM_TIME = 18,    /* -> r0 = simulated time in ps */
  /* Device memory as one of the device's units sees it (docs/host-bridge.md,
   * "Accesses as a device unit"): a timed access on the device interconnect
   * tagged with the unit. -ENODEV for a unit the device does not have,
   * -EFAULT where that unit sees nothing (or the target refuses the access). */
  AVPB_UNIT_READ = 19,   /* a0 = unit (kind << 24 | index), a1 = device address, a2 = length <= AVPB_MAX_PAYLOAD -> payload */
  AVPB_UNIT_WRITE = 20,  /* a0 = unit, a1 = device address, payload = the bytes */
  AVPB_RING = 22,        /* -> r0 = size of the connection's request ring (struct avpb_ring), whose memfd comes with it (SCM_RIGHTS) */
  AVPB_RING_DOORBELL = 23, /* no payload, no reply: look at this connection's ring (sent when avpb_ring.server_polling is 0) */
  AVPB_DRAM_ALLOC = 24,  /* a0 = size, a1 = alignment -> r0 = device address, r1 = bytes (whole pages) of a block of device DRAM owned by the session, r2 = DRAM base, r3 = DRAM size; the block's memfd comes with it (SCM_RIGHTS) */
  AVPB_DRAM_FREE = 25,   /* a0 = device address from DRAM_ALLOC of this session */
  /* The server owns the device's enumeration (as VFIO's region info): sizing a
   * BAR by writing all-ones would race with every other client. */
  AVPB_BAR_INFO = 26,    /* a0 = bar (0 or 2) -> r0 = size in bytes */
  AVPB_DEV_OPEN = 30,    /* Acceldev context -> r0 = context handle */
  AVPB_DEV_CLOSE = 31,   /* a0 = context: waits for its runs, unbinds, frees the id */
  AVPB_DEV_CREATE_BUFFER = 32, /* a0 = context, a1 = type (0 code, 1 data), a2 = size -> r0 = buffer handle, r1 = slot; a memfd of its pages comes with it (SCM_RIGHTS) */
  AVPB_DEV_RUN = 33,     /* a0 = context, a1 = code buffer, a2 = byte offset, a3 = byte size */
  AVPB_DEV_WAIT = 34,    /* a0 = context, a1 = fence value: blocks until reached or the context errs */
  AVPB_DEV_CLOSE_BUFFER = 35, /* a0 = context, a1 = buffer */
};

struct avpb_request {
  uint32_t op;
  uint32_t length; /* payload bytes that follow */
  uint64_t a[4];
};

struct avpb_reply {
  uint32_t op;     /* the request's op */
  int32_t status;  /* 0, or a negative errno value */
  uint64_t r[4];
  uint64_t sim_time_ps; /* simulated time when the reply left the simulator */
  uint32_t length;      /* payload bytes that follow */
  uint32_t reserved;
};

/* A connection's request ring (AVPB_RING): shared memory through which a
 * client posts the requests that pass no descriptor, without a system call
 * while the server polls. One request in flight, as on the socket. The
 * sequence and flag words are accessed atomically (sequentially consistent
 * stores and loads) by both sides:
 *   client: writes req (+ payload), req_seq += 1; if server_polling is 0,
 *           sends AVPB_RING_DOORBELL on the socket; waits for rep_seq ==
 *           req_seq (spinning, then sleeping on rep_seq as a futex with
 *           client_sleeping = 1).
 *   server: takes req once req_seq moved, answers in rep (+ payload),
 *           rep_seq = req_seq, FUTEX_WAKE on rep_seq if client_sleeping.
 * HELLO, ATTACH, BYE, RING, RING_DOORBELL and the requests that pass a memfd
 * (HOST_ALLOC, DRAM_ALLOC, DEV_CREATE_BUFFER) are refused through the ring
 * (EINVAL): they belong to the socket. */
struct avpb_ring {
  uint32_t req_seq;         /* written by the client */
  uint32_t rep_seq;         /* written by the server; a futex word */
  uint32_t server_polling;  /* written by the server: 0 while it sleeps on its sockets */
  uint32_t client_sleeping; /* written by the client: 1 while it sleeps on rep_seq */
  struct avpb_request req;
  uint8_t req_payload[AVPB_MAX_PAYLOAD];
  struct avpb_reply rep;
  uint8_t rep_payload[AVPB_MAX_PAYLOAD];
};

#endif
