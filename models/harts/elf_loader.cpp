#include "harts/elf_loader.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <memory>
#include <sstream>
#include <vector>

#include "base/symbols.h"

namespace avp {
namespace {

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};
struct ElfHandle {
  Elf* e;
  ~ElfHandle() {
    if (e) elf_end(e);
  }
};

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

}  // namespace

ElfImage load_elf(const std::string& path, const ElfWriter& write) {
  if (elf_version(EV_CURRENT) == EV_NONE) throw ElfError("libelf initialisation failed");
  Fd fd{open(path.c_str(), O_RDONLY)};
  if (fd.fd < 0) throw ElfError(path + ": cannot open");
  ElfHandle h{elf_begin(fd.fd, ELF_C_READ, nullptr)};
  if (!h.e || elf_kind(h.e) != ELF_K_ELF) throw ElfError(path + ": not an ELF file");
  GElf_Ehdr eh;
  if (!gelf_getehdr(h.e, &eh)) throw ElfError(path + ": unreadable ELF header (" + elf_errmsg(-1) + ")");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64) throw ElfError(path + ": not a 64-bit ELF file (RV64 expected)");
  if (eh.e_machine != EM_RISCV) throw ElfError(path + ": machine " + std::to_string(eh.e_machine) + " is not RISC-V (243)");
  if (eh.e_type != ET_EXEC) throw ElfError(path + ": not an executable (ET_EXEC expected)");
  size_t nph = 0;
  if (elf_getphdrnum(h.e, &nph) != 0 || nph == 0) throw ElfError(path + ": no program headers");

  // The raw image, for segment contents.
  size_t size = 0;
  const char* raw = elf_rawfile(h.e, &size);
  if (!raw) throw ElfError(path + ": cannot read file contents");

  ElfImage img;
  img.entry = eh.e_entry;
  for (size_t i = 0; i < nph; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(h.e, static_cast<int>(i), &ph)) throw ElfError(path + ": bad program header " + std::to_string(i));
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_filesz > ph.p_memsz) throw ElfError(path + ": segment " + std::to_string(i) + " has filesz > memsz");
    if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
      throw ElfError(path + ": segment " + std::to_string(i) + " lies outside the file (truncated?)");
    if (ph.p_filesz && !write(ph.p_paddr, raw + ph.p_offset, ph.p_filesz))
      throw ElfError(path + ": segment " + std::to_string(i) + " at " + hex(ph.p_paddr) + " (" +
                     std::to_string(ph.p_filesz) + " bytes) is not in device memory");
    if (ph.p_memsz > ph.p_filesz) {
      std::vector<uint8_t> zeros(ph.p_memsz - ph.p_filesz, 0);
      if (!write(ph.p_paddr + ph.p_filesz, zeros.data(), zeros.size()))
        throw ElfError(path + ": segment " + std::to_string(i) + " bss at " + hex(ph.p_paddr + ph.p_filesz) +
                       " is not in device memory");
    }
    img.lowest = std::min<uint64_t>(img.lowest, ph.p_paddr);
    img.highest = std::max<uint64_t>(img.highest, ph.p_paddr + ph.p_memsz);
  }
  if (img.lowest == ~0ull) throw ElfError(path + ": no loadable segment");

  std::vector<Symbol> symbols;
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(h.e, scn)) != nullptr) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!data) continue;
    const size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < n; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(i), &sym)) continue;
      const int type = GELF_ST_TYPE(sym.st_info);
      if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) continue;
      const char* name = elf_strptr(h.e, sh.sh_link, sym.st_name);
      if (!name || !*name) continue;
      img.symbols.emplace(name, sym.st_value);
      // Section-relative labels of the assembler ($x, .L...) say nothing to a reader.
      if (name[0] != '$' && name[0] != '.') symbols.push_back(Symbol{name, sym.st_value, sym.st_size});
    }
  }
  SymbolTable::instance().add_image(img.lowest, img.highest, symbols);
  return img;
}

}  // namespace avp
