/* libaccelvp-acceldev: /dev/acceldev0 for an unmodified program, loaded with
 * LD_PRELOAD (`accel-vp exec` sets it). open, ioctl, mmap, read, write,
 * fstat and close of the device file and of its buffer descriptors are
 * served here over the host bridge; the driver itself runs in the simulator.
 * Every other file goes to the C library untouched. docs/host-bridge.md,
 * "The device file", gives the design and the errno values. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "acceldev_uapi.h"
#include "host_client.h"

#define EXPORT __attribute__((visibility("default")))
#define DEVICE_PATH "/dev/acceldev0"
#define PAGE 4096u
#define ACCELDEV_CHAR_MAJOR 240 /* from the range Linux leaves for local use */

enum kind { FREE = 0, DEVICE, BUFFER };

struct context {
  uint64_t handle;
  int refs; /* the device fd and each open buffer fd */
};

struct entry {
  enum kind kind;
  struct context *ctx;
  uint64_t buffer, size, npages;
  uint64_t *pages; /* bus address of each page in the shared host memory */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *table;
static size_t table_len;
static pthread_mutex_t connect_lock = PTHREAD_MUTEX_INITIALIZER; /* apart: connecting maps memory */
static avp_host *host;

/* The C library's own functions, for everything that is not ours. */
#define REAL(name, ret, ...)                                                  \
  static ret (*real_##name)(__VA_ARGS__);                                     \
  static void resolve_##name(void) {                                          \
    if (!real_##name) *(void **)&real_##name = dlsym(RTLD_NEXT, #name);       \
  }
REAL(open, int, const char *, int, ...)
REAL(openat, int, int, const char *, int, ...)
REAL(close, int, int)
REAL(ioctl, int, int, unsigned long, ...)
REAL(mmap, void *, void *, size_t, int, int, int, off_t)
REAL(read, ssize_t, int, void *, size_t)
REAL(write, ssize_t, int, const void *, size_t)
REAL(fstat, int, int, struct stat *)

/* Takes a copy of fd's entry (kind FREE when the fd is not ours). */
static struct entry lookup(int fd) {
  struct entry e = {FREE, NULL, 0, 0, 0, NULL};
  pthread_mutex_lock(&lock);
  if (fd >= 0 && (size_t)fd < table_len) e = table[fd];
  pthread_mutex_unlock(&lock);
  return e;
}

static int install(int fd, struct entry e) {
  pthread_mutex_lock(&lock);
  if ((size_t)fd >= table_len) {
    size_t n = table_len ? table_len : 64;
    while (n <= (size_t)fd) n *= 2;
    struct entry *t = realloc(table, n * sizeof *t);
    if (!t) {
      pthread_mutex_unlock(&lock);
      return -1;
    }
    memset(t + table_len, 0, (n - table_len) * sizeof *t);
    table = t;
    table_len = n;
  }
  table[fd] = e;
  pthread_mutex_unlock(&lock);
  return 0;
}

static int fail(int err) {
  errno = err;
  return -1;
}

/* A server error as the driver's errno; the bridge gone is an I/O error. */
static int fail_status(int st) { return fail(st == -EPIPE || st == -EPROTO ? EIO : -st); }

static avp_host *connect_once(void) {
  pthread_mutex_lock(&connect_lock);
  if (!host) host = avp_host_connect(NULL);
  avp_host *h = host;
  pthread_mutex_unlock(&connect_lock);
  return h;
}

/* Drops one reference of a context; the last one closes it on the device. */
static void context_unref(struct context *c) {
  pthread_mutex_lock(&lock);
  const int last = --c->refs == 0;
  pthread_mutex_unlock(&lock);
  if (!last) return;
  avp_host_call(host, AVPB_DEV_CLOSE, c->handle, 0, 0, 0, NULL, 0, NULL, NULL, 0);
  free(c);
}

/* The descriptor behind a device or buffer fd: an empty memfd, so the fd is
 * a real one (poll, dup-free close) and pages mapped past a buffer's end
 * fault with SIGBUS as the original driver's do. */
static int placeholder_fd(const char *name, int flags) {
  return memfd_create(name, (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
}

static int open_device(const char *path, int flags) {
  if (strcmp(path, DEVICE_PATH) != 0) return fail(ENOENT); /* one device: /dev/acceldev0 */
  avp_host *h = connect_once();
  if (!h) return fail(ENXIO);
  struct avpb_reply r;
  int st = avp_host_call(h, AVPB_DEV_OPEN, 0, 0, 0, 0, NULL, 0, &r, NULL, 0);
  if (st) return fail_status(st);
  struct context *c = calloc(1, sizeof *c);
  int fd = c ? placeholder_fd("acceldev0", flags) : -1;
  if (fd < 0 || install(fd, (struct entry){DEVICE, c, 0, 0, 0, NULL})) {
    int e = errno ? errno : ENOMEM;
    avp_host_call(h, AVPB_DEV_CLOSE, r.r[0], 0, 0, 0, NULL, 0, NULL, NULL, 0);
    if (fd >= 0) close(fd);
    free(c);
    return fail(e);
  }
  c->handle = r.r[0];
  c->refs = 1;
  return fd;
}

static int is_device_path(const char *path) { return path && strncmp(path, "/dev/acceldev", 13) == 0; }

EXPORT int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
  va_end(ap);
  if (is_device_path(path)) return open_device(path, flags);
  resolve_open();
  return real_open(path, flags, mode);
}
EXPORT int open64(const char *path, int flags, ...) __attribute__((alias("open")));
EXPORT int __open_2(const char *path, int flags) { return open(path, flags); }
EXPORT int __open64_2(const char *path, int flags) { return open(path, flags); }

EXPORT int openat(int dirfd, const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
  va_end(ap);
  if (is_device_path(path)) return open_device(path, flags);
  resolve_openat();
  return real_openat(dirfd, path, flags, mode);
}
EXPORT int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));
EXPORT int __openat_2(int dirfd, const char *path, int flags) { return openat(dirfd, path, flags); }
EXPORT int __openat64_2(int dirfd, const char *path, int flags) { return openat(dirfd, path, flags); }

EXPORT int close(int fd) {
  struct entry e = {FREE, NULL, 0, 0, 0, NULL};
  pthread_mutex_lock(&lock);
  if (fd >= 0 && (size_t)fd < table_len) {
    e = table[fd];
    memset(&table[fd], 0, sizeof table[fd]);
  }
  pthread_mutex_unlock(&lock);
  resolve_close();
  int rc = real_close(fd);
  if (e.kind == BUFFER) {
    avp_host_call(host, AVPB_DEV_CLOSE_BUFFER, e.ctx->handle, e.buffer, 0, 0, NULL, 0, NULL, NULL, 0);
    free(e.pages);
  }
  if (e.kind != FREE) context_unref(e.ctx);
  return rc;
}

static int create_buffer(struct entry dev, struct acceldev_ioctl_create_buffer *arg) {
  if (!arg) return fail(EFAULT);
  if (arg->type != BUFFER_TYPE_CODE && arg->type != BUFFER_TYPE_DATA) return fail(EINVAL);
  if (arg->size <= 0 || (unsigned)arg->size > ACCELDEV_BUFFER_MAX_SIZE) return fail(EINVAL);
  if (arg->type == BUFFER_TYPE_DATA && !arg->result) return fail(EFAULT);
  const uint64_t npages = ((uint64_t)arg->size + PAGE - 1) / PAGE;
  uint64_t *pages = malloc(npages * sizeof *pages);
  if (!pages) return fail(ENOMEM);
  struct avpb_reply r;
  int st = avp_host_call(host, AVPB_DEV_CREATE_BUFFER, dev.ctx->handle, (uint64_t)arg->type, (uint64_t)arg->size, 0,
                         NULL, 0, &r, pages, (uint32_t)(npages * sizeof *pages));
  if (st == 0 && r.length != npages * sizeof *pages) st = -EPROTO;
  if (st) {
    free(pages);
    return fail_status(st);
  }
  int fd = placeholder_fd("acceldev-buffer", 0);
  pthread_mutex_lock(&lock);
  ++dev.ctx->refs;
  pthread_mutex_unlock(&lock);
  if (fd < 0 || install(fd, (struct entry){BUFFER, dev.ctx, r.r[0], (uint64_t)arg->size, npages, pages})) {
    int e = errno ? errno : ENOMEM;
    avp_host_call(host, AVPB_DEV_CLOSE_BUFFER, dev.ctx->handle, r.r[0], 0, 0, NULL, 0, NULL, NULL, 0);
    if (fd >= 0) close(fd);
    free(pages);
    context_unref(dev.ctx);
    return fail(e);
  }
  if (arg->type == BUFFER_TYPE_DATA) arg->result->buffer_slot = (uint32_t)r.r[1];
  return fd;
}

static int run(struct entry dev, const struct acceldev_ioctl_run *arg) {
  if (!arg) return fail(EFAULT);
  struct entry code = lookup(arg->cfd);
  if (code.kind == FREE && fcntl(arg->cfd, F_GETFD) < 0) return fail(EBADF);
  if (code.kind != BUFFER || code.ctx != dev.ctx) return fail(EINVAL); /* not a buffer of this context */
  int st = avp_host_call(host, AVPB_DEV_RUN, dev.ctx->handle, code.buffer, arg->addr, arg->size, NULL, 0, NULL, NULL, 0);
  return st ? fail_status(st) : 0;
}

EXPORT int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  struct entry e = lookup(fd);
  if (e.kind == BUFFER) return fail(ENOTTY);
  if (e.kind == FREE) {
    resolve_ioctl();
    return real_ioctl(fd, request, arg);
  }
  switch (request) {
    case ACCELDEV_IOCTL_CREATE_BUFFER:
      return create_buffer(e, arg);
    case ACCELDEV_IOCTL_RUN:
      return run(e, arg);
    case ACCELDEV_IOCTL_WAIT: {
      if (!arg) return fail(EFAULT);
      const uint32_t v = ((const struct acceldev_ioctl_wait *)arg)->fence_wait;
      int st = avp_host_call(host, AVPB_DEV_WAIT, e.ctx->handle, v, 0, 0, NULL, 0, NULL, NULL, 0);
      return st ? fail_status(st) : 0;
    }
    default:
      return fail(ENOTTY);
  }
}

/* A buffer fd maps the buffer's pages of the shared host memory in place of
 * the placeholder; pages past the buffer stay the placeholder's (SIGBUS). */
static void *map_buffer(struct entry b, void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  if (!(flags & MAP_SHARED) || len == 0 || off < 0 || (off & (PAGE - 1))) {
    errno = EINVAL;
    return MAP_FAILED;
  }
  resolve_mmap();
  uint8_t *base = real_mmap(addr, len, prot, flags, fd, 0);
  if (base == MAP_FAILED) return MAP_FAILED;
  const int memfd = avp_host_mem_fd(host);
  for (uint64_t i = 0, first = (uint64_t)off / PAGE; first + i < b.npages && i * PAGE < len;) {
    uint64_t run = 1;  /* physically contiguous pages map in one call */
    while (first + i + run < b.npages && (i + run) * PAGE < len && b.pages[first + i + run] == b.pages[first + i] + run * PAGE)
      ++run;
    const size_t bytes = (i + run) * PAGE > len ? len - i * PAGE : run * PAGE;
    if (real_mmap(base + i * PAGE, bytes, prot, MAP_SHARED | MAP_FIXED, memfd, (off_t)b.pages[first + i]) == MAP_FAILED) {
      int e = errno;
      munmap(base, len);
      errno = e;
      return MAP_FAILED;
    }
    i += run;
  }
  return base;
}

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  struct entry e = lookup(fd);
  if (e.kind == BUFFER) return map_buffer(e, addr, len, prot, flags, fd, off);
  if (e.kind == DEVICE) {
    errno = ENODEV; /* the device file itself maps nothing */
    return MAP_FAILED;
  }
  resolve_mmap();
  return real_mmap(addr, len, prot, flags, fd, off);
}
EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off) __attribute__((alias("mmap")));

/* Neither the device file nor a buffer has read or write operations. */
EXPORT ssize_t read(int fd, void *buf, size_t n) {
  if (lookup(fd).kind != FREE) return fail(EINVAL);
  resolve_read();
  return real_read(fd, buf, n);
}

EXPORT ssize_t write(int fd, const void *buf, size_t n) {
  if (lookup(fd).kind != FREE) return fail(EINVAL);
  resolve_write();
  return real_write(fd, buf, n);
}

EXPORT int fstat(int fd, struct stat *st) {
  struct entry e = lookup(fd);
  resolve_fstat();
  int rc = real_fstat(fd, st);
  if (rc != 0 || e.kind == FREE) return rc;
  if (e.kind == DEVICE) {
    st->st_mode = S_IFCHR | 0666; /* a character device, as the driver's node */
    st->st_rdev = makedev(ACCELDEV_CHAR_MAJOR, 0);
    st->st_size = 0;
  } else {
    st->st_mode = S_IFREG | 0600;
    st->st_size = (off_t)e.size;
  }
  return 0;
}
EXPORT int fstat64(int fd, struct stat64 *st) { return fstat(fd, (struct stat *)st); } /* one layout on 64-bit Linux */
