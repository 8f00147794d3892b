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
#include <sys/uio.h>
#include <unistd.h>

#include "acceldev_fds.h"
#include "acceldev_uapi.h"
#include "host_client.h"

#define EXPORT __attribute__((visibility("default")))
#define DEVICE_PATH "/dev/acceldev0"
#define PAGE 4096u
#define ACCELDEV_CHAR_MAJOR 240 /* from the range Linux leaves for local use */

static pthread_mutex_t connect_lock = PTHREAD_MUTEX_INITIALIZER; /* apart: connecting maps memory */
static avp_host *host;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

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
REAL(dup, int, int)
REAL(dup2, int, int, int)
REAL(dup3, int, int, int, int)
REAL(fcntl, int, int, int, ...)

static int fail(int err) {
  errno = err;
  return -1;
}

/* The program's memory as the driver's copy_from_user / copy_to_user see it:
 * a bad pointer is EFAULT (-1), never a fault in the program. Where the
 * system refuses process_vm_readv/writev, the copy is made directly. */
static int copy_in(void *dst, const void *user, size_t n) {
  struct iovec local = {dst, n}, remote = {(void *)user, n};
  if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n) return 0;
  if (errno != ENOSYS && errno != EPERM) return -1;
  memcpy(dst, user, n);
  return 0;
}

static int copy_out(void *user, const void *src, size_t n) {
  struct iovec local = {(void *)src, n}, remote = {user, n};
  if (process_vm_writev(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n) return 0;
  if (errno != ENOSYS && errno != EPERM) return -1;
  memcpy(user, src, n);
  return 0;
}

/* A server error as the driver's errno; the bridge gone is an I/O error. */
static int fail_status(int st) { return fail(st == -EPIPE || st == -EPROTO ? EIO : -st); }

/* The child of a fork shares its parent's bridge connections: it must not
 * talk on them. It forgets them (connecting anew when it opens the device)
 * and keeps the inherited descriptors only to close them. */
static void lock_for_fork(void) {
  pthread_mutex_lock(&connect_lock);
  fds_lock();
}

static void unlock_after_fork(void) {
  fds_unlock();
  pthread_mutex_unlock(&connect_lock);
}

static void forget_parent_connection(void) {
  host = NULL;
  fds_mark_inherited();
  unlock_after_fork();
}

static void install_atfork(void) { pthread_atfork(lock_for_fork, unlock_after_fork, forget_parent_connection); }

static avp_host *connect_once(void) {
  pthread_once(&atfork_once, install_atfork);
  pthread_mutex_lock(&connect_lock);
  if (!host) host = avp_host_connect(NULL);
  avp_host *h = host;
  pthread_mutex_unlock(&connect_lock);
  return h;
}

static void release(struct entry e);

/* Records a new descriptor of ours. The number may still have an entry: its
 * file was closed behind the library (its number is free again only then),
 * so what that entry held is released first. */
static int adopt(int fd, struct entry e) {
  release(fds_take(fd));
  return fds_install(fd, e);
}

/* Drops one reference of a context; the last one closes it on the device. */
static void context_unref(struct context *c) {
  if (!fds_unref_context(c)) return;
  avp_host_call(host, AVPB_DEV_CLOSE, c->handle, 0, 0, 0, NULL, 0, NULL, NULL, 0);
  free(c);
}

/* The descriptor behind a device or buffer fd: an empty memfd, so the fd is
 * a real one (poll, dup-free close) and pages mapped past a buffer's end
 * fault with SIGBUS as the original driver's do. */
static int placeholder_fd(const char *name, int flags) {
  return memfd_create(name, (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
}

/* The file behind a descriptor of ours, to tell when the program has closed
 * it behind the library (fclose of an fdopen'd stream, closerange,
 * syscall(SYS_close)) and the number now names another file. */
static int identify(int fd, struct entry *e) {
  struct stat st;
  resolve_fstat();
  if (real_fstat(fd, &st) != 0) return -1;
  e->dev = (uint64_t)st.st_dev;
  e->ino = (uint64_t)st.st_ino;
  return 0;
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
  struct entry e = {DEVICE, c, NULL, 0, 0, 0};
  if (fd < 0 || identify(fd, &e) || adopt(fd, e)) {
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

/* What closing one descriptor of ours does once the descriptor itself is
 * gone: the last descriptor of a buffer releases it, the last of a context
 * closes the context. An inherited descriptor releases nothing. */
static void release(struct entry e) {
  if (e.kind == FREE || e.inherited) return;
  if (e.kind == BUFFER) {
    if (fds_unref_buffer(e.buf)) {
      avp_host_call(host, AVPB_DEV_CLOSE_BUFFER, e.ctx->handle, e.buf->handle, 0, 0, NULL, 0, NULL, NULL, 0);
      munmap(e.buf->memory, e.buf->npages * PAGE);
      free(e.buf);
    }
  }
  context_unref(e.ctx);
}

/* fd's entry, dropped (and its references released) when fd no longer names
 * the file it was made for. */
static struct entry lookup(int fd) {
  struct entry e = fds_lookup(fd), now;
  if (e.kind == FREE || (identify(fd, &now) == 0 && now.dev == e.dev && now.ino == e.ino)) return e;
  struct entry stale = fds_take(fd);
  if (stale.kind != FREE && stale.ctx == e.ctx && stale.buf == e.buf) release(stale);
  return (struct entry){FREE, NULL, NULL, 0, 0, 0};
}

EXPORT int close(int fd) {
  struct entry e = fds_take(fd);
  resolve_close();
  int rc = real_close(fd);
  release(e);
  return rc;
}

/* A duplicate refers to what the original refers to (one more reference). */
static int share(int from, int to) {
  struct entry e = lookup(from);
  if (e.kind == FREE || to < 0 || to == from) return to;
  if (!e.inherited) fds_ref(e);
  if (adopt(to, e)) {
    release(e);
    resolve_close();
    real_close(to);
    return fail(EMFILE);
  }
  return to;
}

EXPORT int dup(int fd) {
  resolve_dup();
  return share(fd, real_dup(fd));
}

/* dup2/dup3 close `to` first when it is open: so does its entry. */
static int dup_onto(int from, int to, int rc) {
  if (rc < 0 || from == to) return rc;
  release(fds_take(to));
  return share(from, rc);
}

EXPORT int dup2(int from, int to) {
  resolve_dup2();
  return dup_onto(from, to, real_dup2(from, to));
}

EXPORT int dup3(int from, int to, int flags) {
  resolve_dup3();
  return dup_onto(from, to, real_dup3(from, to, flags));
}

EXPORT int fcntl(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void *arg = va_arg(ap, void *); /* an int or a pointer, passed on as it came */
  va_end(ap);
  resolve_fcntl();
  const int rc = real_fcntl(fd, cmd, arg);
  return cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC ? share(fd, rc) : rc;
}
EXPORT int fcntl64(int fd, int cmd, ...) __attribute__((alias("fcntl")));

static int create_buffer(struct entry dev, struct acceldev_ioctl_create_buffer *user_arg) {
  struct acceldev_ioctl_create_buffer a, *arg = &a;
  struct acceldev_ioctl_create_buffer_result result;
  if (!user_arg || copy_in(&a, user_arg, sizeof a)) return fail(EFAULT);
  if (arg->type != BUFFER_TYPE_CODE && arg->type != BUFFER_TYPE_DATA) return fail(EINVAL);
  if (arg->size <= 0 || (unsigned)arg->size > ACCELDEV_BUFFER_MAX_SIZE) return fail(EINVAL);
  if (arg->type == BUFFER_TYPE_DATA && (!arg->result || copy_in(&result, arg->result, sizeof result))) return fail(EFAULT);
  const uint64_t npages = ((uint64_t)arg->size + PAGE - 1) / PAGE;
  struct avpb_reply r;
  int memory_fd = -1;
  int st = avp_host_call_fd(host, AVPB_DEV_CREATE_BUFFER, dev.ctx->handle, (uint64_t)arg->type, (uint64_t)arg->size, 0,
                            &r, &memory_fd);
  if (st == 0 && memory_fd < 0) st = -EPROTO;
  if (st) return fail_status(st);
  /* Kept as a mapping, not a descriptor the program could close behind us;
   * the program's own mappings are made from it (map_buffer). */
  resolve_mmap();
  uint8_t *memory = real_mmap(NULL, npages * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, memory_fd, 0);
  close(memory_fd);
  if (memory == MAP_FAILED) {
    int e = errno;
    avp_host_call(host, AVPB_DEV_CLOSE_BUFFER, dev.ctx->handle, r.r[0], 0, 0, NULL, 0, NULL, NULL, 0);
    return fail(e);
  }
  int fd = placeholder_fd("acceldev-buffer", 0);
  struct buffer *b = calloc(1, sizeof *b);
  fds_ref((struct entry){DEVICE, dev.ctx, NULL, 0});
  if (b) *b = (struct buffer){r.r[0], (uint64_t)arg->size, npages, memory, 1};
  struct entry be = {BUFFER, dev.ctx, b, 0, 0, 0};
  result.buffer_slot = (uint32_t)r.r[1];
  const int copied = arg->type != BUFFER_TYPE_DATA || copy_out(arg->result, &result, sizeof result) == 0;
  if (fd < 0 || !b || !copied || identify(fd, &be) || adopt(fd, be)) {
    int e = !copied ? EFAULT : errno ? errno : ENOMEM;
    avp_host_call(host, AVPB_DEV_CLOSE_BUFFER, dev.ctx->handle, r.r[0], 0, 0, NULL, 0, NULL, NULL, 0);
    if (fd >= 0) close(fd);
    munmap(memory, npages * PAGE);
    free(b);
    context_unref(dev.ctx);
    return fail(e);
  }
  return fd;
}

static int run(struct entry dev, const struct acceldev_ioctl_run *user_arg) {
  struct acceldev_ioctl_run a, *arg = &a;
  if (!user_arg || copy_in(&a, user_arg, sizeof a)) return fail(EFAULT);
  struct entry code = lookup(arg->cfd);
  if (code.kind == FREE && fcntl(arg->cfd, F_GETFD) < 0) return fail(EBADF);
  if (code.kind != BUFFER || code.ctx != dev.ctx) return fail(EINVAL); /* not a buffer of this context */
  int st = avp_host_call(host, AVPB_DEV_RUN, dev.ctx->handle, code.buf->handle, arg->addr, arg->size, NULL, 0, NULL, NULL, 0);
  return st ? fail_status(st) : 0;
}

EXPORT int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  struct entry e = lookup(fd);
  if (e.kind == FREE) {
    resolve_ioctl();
    return real_ioctl(fd, request, arg);
  }
  if (e.inherited) return fail(EIO); /* the parent's context: a forked child opens its own */
  if (e.kind == BUFFER) return fail(ENOTTY);
  switch (request) {
    case ACCELDEV_IOCTL_CREATE_BUFFER:
      return create_buffer(e, arg);
    case ACCELDEV_IOCTL_RUN:
      return run(e, arg);
    case ACCELDEV_IOCTL_WAIT: {
      struct acceldev_ioctl_wait w;
      if (!arg || copy_in(&w, arg, sizeof w)) return fail(EFAULT);
      const uint32_t v = w.fence_wait;
      int st = avp_host_call(host, AVPB_DEV_WAIT, e.ctx->handle, v, 0, 0, NULL, 0, NULL, NULL, 0);
      return st ? fail_status(st) : 0;
    }
    default:
      return fail(ENOTTY);
  }
}

/* A buffer fd maps the buffer's pages (new mappings of the same pages as
 * b->memory) in place of the placeholder; pages past the buffer stay the
 * placeholder's (SIGBUS). */
static void *map_buffer(const struct buffer *b, void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  if (!(flags & MAP_SHARED) || len == 0 || off < 0 || (off & (PAGE - 1))) {
    errno = EINVAL;
    return MAP_FAILED;
  }
  resolve_mmap();
  uint8_t *base = real_mmap(addr, len, prot, flags, fd, 0);
  if (base == MAP_FAILED) return MAP_FAILED;
  const uint64_t first = (uint64_t)off / PAGE;
  if (first < b->npages) {
    const size_t bytes = len < (b->npages - first) * PAGE ? len : (b->npages - first) * PAGE;
    /* An old size of 0 makes a second mapping of a shared mapping's pages. */
    if (mremap(b->memory + first * PAGE, 0, bytes, MREMAP_MAYMOVE | MREMAP_FIXED, base) == MAP_FAILED ||
        mprotect(base, bytes, prot) != 0) {
      int e = errno;
      munmap(base, len);
      errno = e;
      return MAP_FAILED;
    }
  }
  return base;
}

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  struct entry e = lookup(fd);
  if (e.kind == BUFFER && e.inherited) {
    errno = ENODEV; /* the parent's buffer: its mappings from before the fork stay */
    return MAP_FAILED;
  }
  if (e.kind == BUFFER) return map_buffer(e.buf, addr, len, prot, flags, fd, off);
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
    st->st_size = (off_t)e.buf->size;
  }
  return 0;
}
EXPORT int fstat64(int fd, struct stat64 *st) { return fstat(fd, (struct stat *)st); } /* one layout on 64-bit Linux */
