/* The descriptor table of libaccelvp-acceldev (acceldev_preload.c): what
 * each descriptor of the device file or of a buffer refers to, with the
 * reference counts that dup, fork and close need. One short lock guards it;
 * no call of the host bridge happens under it. */
#pragma once
#include <stdint.h>

enum kind { FREE = 0, DEVICE, BUFFER };

struct context {
  uint64_t handle;
  int refs; /* each descriptor of the device or of one of its buffers */
};

/* A buffer, shared by its descriptor and that descriptor's duplicates. */
struct buffer {
  uint64_t handle, size, npages;
  uint8_t *memory; /* the buffer's pages, shared with the simulator (the server's grant, mapped) */
  int refs;        /* descriptors of this buffer */
};

/* What a descriptor of ours refers to. Descriptors inherited by a forked
 * child are `inherited`: the parent's contexts stay the parent's, so the
 * child can only close them (its own open gives it a context of its own). */
struct entry {
  enum kind kind;
  struct context *ctx;
  struct buffer *buf; /* BUFFER only */
  int inherited;
  uint64_t dev, ino;  /* the file the descriptor was made for (its placeholder) */
};

/* A copy of fd's entry (kind FREE when the fd is not ours). */
struct entry fds_lookup(int fd);
/* Records fd's entry; -1 when the table cannot grow. */
int fds_install(int fd, struct entry e);
/* Takes fd's entry out of the table (kind FREE when the fd was not ours). */
struct entry fds_take(int fd);
/* One more reference to what e refers to (a duplicate descriptor). */
void fds_ref(struct entry e);
/* One reference less; true when it was the last. */
int fds_unref_buffer(struct buffer *b);
int fds_unref_context(struct context *c);
/* fork: the table is locked around it; the child marks every entry inherited. */
void fds_lock(void);
void fds_unlock(void);
void fds_mark_inherited(void);
