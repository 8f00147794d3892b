/* For the tests that speak the wire protocol by hand: a connection to the
 * server `accel-vp exec` named in ACCELVP_SOCKET. */
#ifndef AVP_BRIDGE_TEST_RAW_CLIENT_H
#define AVP_BRIDGE_TEST_RAW_CLIENT_H

#include <sys/socket.h>
#include <sys/un.h>

#include "accelvp_bridge_proto.h"
#include "check.h"

static inline int dial(void) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  strncpy(sa.sun_path, getenv(AVPB_SOCKET_ENV), sizeof sa.sun_path - 1);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
  return fd;
}

#endif
