/* Bad clients of the host bridge, speaking the wire protocol by hand: a
 * request before the handshake, a wrong version, an unknown request, an
 * oversized message, a client gone mid-message, accesses as units the device
 * lacks or where they see nothing, a BAR left mid-sizing. Each gets an error or is
 * disconnected, and the server goes on serving a well-behaved client. */
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "accelvp_bridge_proto.h"
#include "accelvp_host.h"
#include "bar0_regs.h"
#include "check.h"
#include "raw_client.h"

static void send_req3(int fd, uint32_t op, uint32_t length, uint64_t a0, uint64_t a1, uint64_t a2) {
  struct avpb_request q = {op, length, {a0, a1, a2, 0}};
  CHECK(send(fd, &q, sizeof q, MSG_NOSIGNAL) == (ssize_t)sizeof q);
}

static void send_req(int fd, uint32_t op, uint32_t length, uint64_t a0, uint64_t a1) { send_req3(fd, op, length, a0, a1, 0); }

/* The next reply's status, or 1 when the server closed the connection. */
static int reply_status(int fd) {
  struct avpb_reply r;
  ssize_t n = recv(fd, &r, sizeof r, MSG_WAITALL);
  if (n == 0) return 1;
  CHECK(n == (ssize_t)sizeof r);
  for (uint32_t i = 0; i < r.length; ++i) {
    char c;
    CHECK(recv(fd, &c, 1, 0) == 1);
  }
  return r.status;
}

int main(void) {
  int fd = dial();
  send_req(fd, AVPB_MMIO_READ, 0, 0, 0);  /* before HELLO */
  CHECK(reply_status(fd) == -EPERM && reply_status(fd) == 1);
  close(fd);

  fd = dial();
  send_req(fd, AVPB_HELLO, 0, AVPB_MAGIC, 99);
  CHECK(reply_status(fd) == -EPROTO && reply_status(fd) == 1);
  close(fd);

  fd = dial();
  send_req(fd, AVPB_HELLO, 0, AVPB_MAGIC, AVPB_VERSION);
  CHECK(reply_status(fd) == 0);
  send_req(fd, 999, 0, 0, 0);
  CHECK(reply_status(fd) == -ENOSYS);
  /* Accesses as a device unit: units the device lacks, addresses the unit
   * cannot see, no length, a write without bytes. */
  send_req3(fd, AVPB_UNIT_READ, 0, 3u << 24 | 4096, 0x10000000u, 8);  /* hart 4096 */
  CHECK(reply_status(fd) == -ENODEV);
  send_req3(fd, AVPB_UNIT_READ, 0, 5u << 24, 0x10000000u, 8);         /* the DMA is no unit to act as */
  CHECK(reply_status(fd) == -ENODEV);
  send_req3(fd, AVPB_UNIT_READ, 0, 1ull << 32, 0x40000000u, 8);
  CHECK(reply_status(fd) == -ENODEV);
  send_req3(fd, AVPB_UNIT_READ, 0, 1u << 24, 0x10000000u, 8);         /* the host has no core-local TCDM */
  CHECK(reply_status(fd) == -EFAULT);
  send_req3(fd, AVPB_UNIT_READ, 0, 3u << 24, 0x10000000u, 8);         /* hart 0 has */
  CHECK(reply_status(fd) == 0);
  send_req3(fd, AVPB_UNIT_READ, 0, 3u << 24, 0x0F000000u, 8);         /* nothing there */
  CHECK(reply_status(fd) == -EFAULT);
  send_req3(fd, AVPB_UNIT_READ, 0, 3u << 24, 0x10000000u, 0);
  CHECK(reply_status(fd) == -EINVAL);
  send_req3(fd, AVPB_UNIT_READ, 0, 3u << 24, 0x10000000u, AVPB_MAX_PAYLOAD + 1);
  CHECK(reply_status(fd) == -EINVAL);
  send_req3(fd, AVPB_UNIT_WRITE, 0, 3u << 24, 0x10000000u, 0);
  CHECK(reply_status(fd) == -EINVAL);
  send_req(fd, 21, 0, 0, 0);  /* DRAM_SHARE, gone with version 3 */
  CHECK(reply_status(fd) == -ENOSYS);
  send_req(fd, AVPB_MMIO_READ, 0, 1, 0);  /* no BAR 1 */
  CHECK(reply_status(fd) == -EINVAL);
  send_req(fd, AVPB_BAR_INFO, 0, 1, 0);
  CHECK(reply_status(fd) == -EINVAL);
  /* A program in the middle of sizing the BARs itself (all-ones in them). */
  send_req3(fd, AVPB_CFG_WRITE, 0, 0x10, 4, 0xFFFFFFFFu);
  CHECK(reply_status(fd) == 0);
  send_req3(fd, AVPB_CFG_WRITE, 0, 0x18, 4, 0xFFFFFFFFu);
  CHECK(reply_status(fd) == 0);
  send_req(fd, AVPB_CFG_READ, 8, 0, 4);   /* a payload where none belongs */
  CHECK(send(fd, "12345678", 8, MSG_NOSIGNAL) == 8);
  CHECK(reply_status(fd) == -EINVAL);
  send_req(fd, AVPB_BAR_WRITE, AVPB_MAX_PAYLOAD + 1, 2, 0);
  CHECK(reply_status(fd) == 1);  /* oversized: disconnected */
  close(fd);

  fd = dial();  /* gone in the middle of a message */
  send_req(fd, AVPB_HELLO, 0, AVPB_MAGIC, AVPB_VERSION);
  CHECK(reply_status(fd) == 0);
  CHECK(send(fd, "\x0c\x00", 2, MSG_NOSIGNAL) == 2);
  close(fd);

  avp_host *h = avp_host_connect(NULL);
  CHECK(h);
  uint32_t v;
  CHECK(avp_cfg_read(h, 0, 2, &v) == 0 && v == 0x0666);
  /* Another program's sizing does not change what avp_bar_map reports. */
  avp_bar *bar0 = avp_bar_map(h, 0);
  CHECK(bar0 && avp_bar_size(bar0) == AVP_BAR0_SIZE);
  avp_bar_unmap(bar0);
  avp_host_disconnect(h);
  printf("bridge_protocol: OK\n");
  return 0;
}
