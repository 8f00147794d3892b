/* For the tests that speak the wire protocol by hand: a connection to the
 * server `accel-vp exec` named in ACCELVP_SOCKET, its replies, and the
 * server's resident memory. */
#ifndef AVP_BRIDGE_TEST_RAW_CLIENT_H
#define AVP_BRIDGE_TEST_RAW_CLIENT_H

#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "accelvp_bridge_proto.h"
#include "check.h"

static inline int dial(void) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  strncpy(sa.sun_path, getenv(AVPB_SOCKET_ENV), sizeof sa.sun_path - 1);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
  return fd;
}

/* The next reply, the first `cap` bytes of its payload in `out` (the rest
 * read and dropped); status 1 when the server closed the connection. The
 * descriptor it passes, if any, goes to *passed (closed when passed is NULL). */
static inline struct avpb_reply raw_reply(int fd, void *out, uint32_t cap, int *passed) {
  struct avpb_reply r = {0};
  char ctrl[CMSG_SPACE(sizeof(int))];
  struct iovec iov = {&r, sizeof r};
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl, .msg_controllen = sizeof ctrl};
  if (passed) *passed = -1;
  if (recvmsg(fd, &m, MSG_WAITALL | MSG_CMSG_CLOEXEC) != (ssize_t)sizeof r) {
    r.status = 1;
    return r;
  }
  struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
  if (cm && cm->cmsg_type == SCM_RIGHTS) {
    int got;
    memcpy(&got, CMSG_DATA(cm), sizeof got);
    if (passed) *passed = got;
    else close(got);
  }
  uint8_t chunk[16384];
  for (uint32_t at = 0; at < r.length;) {
    const size_t n = r.length - at < sizeof chunk ? r.length - at : sizeof chunk;
    if (recv(fd, chunk, n, MSG_WAITALL) != (ssize_t)n) {
      r.status = 1;
      return r;
    }
    if (at < cap) memcpy((uint8_t *)out + at, chunk, cap - at < n ? cap - at : n);
    at += (uint32_t)n;
  }
  return r;
}

/* The resident memory of the server (`accel-vp exec` is our parent), in KiB. */
static inline long server_rss_kib(void) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)getppid());
  FILE *f = fopen(path, "r");
  CHECK(f);
  long kib = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  fclose(f);
  return kib;
}

#endif
