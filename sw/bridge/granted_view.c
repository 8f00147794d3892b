/* libaccelvp-host: a program's view of a memory the server grants it block
 * by block (granted_view.h). */
#define _GNU_SOURCE
#include "granted_view.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void granted_view_init(struct granted_view *v) {
  pthread_mutex_init(&v->lock, NULL);
  v->base = NULL;
  v->origin = v->size = 0;
  v->blocks = NULL;
  v->nblocks = v->cap = 0;
}

int granted_view_reserve(struct granted_view *v, uint64_t origin, uint64_t size) {
  pthread_mutex_lock(&v->lock);
  int st = 0;
  if (!v->base) {
    void *p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) st = -1;
    else {
      v->base = p;
      v->origin = origin;
      v->size = size;
    }
  } else if (v->origin != origin || v->size != size) {
    errno = EPROTO;
    st = -1;
  }
  pthread_mutex_unlock(&v->lock);
  return st;
}

void granted_view_destroy(struct granted_view *v) {
  if (v->base) munmap(v->base, v->size);
  free(v->blocks);
  pthread_mutex_destroy(&v->lock);
}

/* Room for one more block in the list; 0 when memory ran out. */
static int room_for_one_more(struct granted_view *v) {
  if (v->nblocks < v->cap) return 1;
  const size_t cap = v->cap ? 2 * v->cap : 16;
  struct granted_block *b = realloc(v->blocks, cap * sizeof *b);
  if (!b) return 0;
  v->blocks = b;
  v->cap = cap;
  return 1;
}

/* The block's offset in the view, or -1 when [addr, addr + size) is not in the memory. */
static int64_t offset_of(const struct granted_view *v, uint64_t addr, uint64_t size) {
  if (!v->base || addr < v->origin || addr - v->origin > v->size || size > v->size - (addr - v->origin)) return -1;
  return (int64_t)(addr - v->origin);
}

void *granted_view_map(struct granted_view *v, int fd, uint64_t addr, uint64_t size) {
  void *p = NULL;
  pthread_mutex_lock(&v->lock);
  const int64_t offset = offset_of(v, addr, size);
  if (offset < 0) errno = EPROTO;
  else if (!room_for_one_more(v)) errno = ENOMEM;
  else if ((p = mmap(v->base + offset, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0)) == MAP_FAILED) p = NULL;
  else v->blocks[v->nblocks++] = (struct granted_block){addr, size};
  pthread_mutex_unlock(&v->lock);
  close(fd);
  return p;
}

void granted_view_unmap(struct granted_view *v, uint64_t addr) {
  pthread_mutex_lock(&v->lock);
  for (size_t i = 0; i < v->nblocks; ++i) {
    const struct granted_block b = v->blocks[i];
    if (b.addr != addr) continue;
    /* The range reserved again, as it was before the grant. */
    mmap(v->base + (b.addr - v->origin), b.size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    v->blocks[i] = v->blocks[--v->nblocks];
    break;
  }
  pthread_mutex_unlock(&v->lock);
}

void *granted_view_ptr(struct granted_view *v, uint64_t addr, size_t len) {
  void *p = NULL;
  pthread_mutex_lock(&v->lock);
  for (size_t i = 0; i < v->nblocks && !p; ++i) {
    const struct granted_block *b = &v->blocks[i];
    if (addr >= b->addr && len <= b->size && addr - b->addr <= b->size - len) p = v->base + (addr - v->origin);
  }
  pthread_mutex_unlock(&v->lock);
  if (!p) errno = EFAULT;
  return p;
}
