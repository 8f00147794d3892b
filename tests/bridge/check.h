/* Test helpers for the C host programs run under `accel-vp exec`: a failed
 * check prints where and why and exits 1. */
#ifndef AVP_BRIDGE_TEST_CHECK_H
#define AVP_BRIDGE_TEST_CHECK_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                        \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      fprintf(stderr, "%s:%d: check failed: %s (errno %d: %s)\n", __FILE__, __LINE__, #cond, \
              errno, strerror(errno));                                                     \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

/* `call` fails with -1 and errno `err`. */
#define CHECK_ERRNO(call, err)                                                                    \
  do {                                                                                            \
    errno = 0;                                                                                    \
    long rc_ = (long)(call);                                                                      \
    if (rc_ != -1 || errno != (err)) {                                                            \
      fprintf(stderr, "%s:%d: %s returned %ld errno %d (%s), expected -1 errno %d (%s)\n", __FILE__, \
              __LINE__, #call, rc_, errno, strerror(errno), err, strerror(err));                  \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)

#endif
