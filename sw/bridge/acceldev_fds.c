#include "acceldev_fds.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *table;
static size_t table_len;

struct entry fds_lookup(int fd) {
  struct entry e = {FREE, NULL, NULL, 0, 0, 0};
  pthread_mutex_lock(&lock);
  if (fd >= 0 && (size_t)fd < table_len) e = table[fd];
  pthread_mutex_unlock(&lock);
  return e;
}

int fds_install(int fd, struct entry e) {
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

struct entry fds_take(int fd) {
  struct entry e = {FREE, NULL, NULL, 0, 0, 0};
  pthread_mutex_lock(&lock);
  if (fd >= 0 && (size_t)fd < table_len) {
    e = table[fd];
    memset(&table[fd], 0, sizeof table[fd]);
  }
  pthread_mutex_unlock(&lock);
  return e;
}

void fds_ref(struct entry e) {
  pthread_mutex_lock(&lock);
  ++e.ctx->refs;
  if (e.buf) ++e.buf->refs;
  pthread_mutex_unlock(&lock);
}

int fds_unref_buffer(struct buffer *b) {
  pthread_mutex_lock(&lock);
  const int last = --b->refs == 0;
  pthread_mutex_unlock(&lock);
  return last;
}

int fds_unref_context(struct context *c) {
  pthread_mutex_lock(&lock);
  const int last = --c->refs == 0;
  pthread_mutex_unlock(&lock);
  return last;
}

void fds_lock(void) { pthread_mutex_lock(&lock); }
void fds_unlock(void) { pthread_mutex_unlock(&lock); }

void fds_mark_inherited(void) {
  for (size_t i = 0; i < table_len; ++i) table[i].inherited = table[i].kind != FREE;
}
