#include "memory_grants.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "memory/memory.h"

namespace avp {

MemoryGrants::MemoryGrants(Memory& mem) : mem_(mem), mem_fd_(mem.share()) {
  if (mem_fd_ < 0) throw std::runtime_error(std::string("cannot share ") + mem.name() + ": " + std::strerror(errno));
}

int MemoryGrants::grant(const std::vector<uint64_t>& pages) {
  for (uint64_t pa : pages)
    if ((pa & (kPage - 1)) || pa > mem_.size() - kPage) return -EINVAL;
  const int fd = memfd_create("avp-grant", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -errno;
  const off_t bytes = static_cast<off_t>(pages.size() * kPage);
  bool ok = ftruncate(fd, bytes) == 0 && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0;
  for (size_t i = 0; ok && i < pages.size(); ++i)
    ok = pwrite(fd, mem_.data() + pages[i], kPage, static_cast<off_t>(i * kPage)) == static_cast<ssize_t>(kPage);
  size_t mapped = 0;
  for (; ok && mapped < pages.size(); ++mapped)
    ok = mmap(mem_.data() + pages[mapped], kPage, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
              static_cast<off_t>(mapped * kPage)) != MAP_FAILED;
  if (!ok) {
    const int err = errno;
    if (mapped) revoke(std::vector<uint64_t>(pages.begin(), pages.begin() + mapped));
    close(fd);
    return -err;
  }
  // The memory's own copies are not reached any more: their storage goes.
  for (uint64_t pa : pages) fallocate(mem_fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(pa), kPage);
  return fd;
}

namespace {

std::vector<uint64_t> pages_of(uint64_t addr, uint64_t bytes) {
  std::vector<uint64_t> pages;
  for (uint64_t off = 0; off < bytes; off += MemoryGrants::kPage) pages.push_back(addr + off);
  return pages;
}

}  // namespace

int MemoryGrants::grant(uint64_t addr, uint64_t bytes) { return grant(pages_of(addr, bytes)); }

void MemoryGrants::revoke_block(uint64_t addr, uint64_t bytes) { revoke(pages_of(addr, bytes)); }

void MemoryGrants::revoke(const std::vector<uint64_t>& pages) {
  for (uint64_t pa : pages)
    if (mmap(mem_.data() + pa, kPage, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, mem_fd_, static_cast<off_t>(pa)) ==
        MAP_FAILED)
      throw std::runtime_error(std::string(mem_.name()) + ": cannot map a revoked page back: " + std::strerror(errno));
}

}  // namespace avp
