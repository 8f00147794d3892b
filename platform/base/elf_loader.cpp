#include "base/elf_loader.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <memory>
#include <sstream>
#include <vector>

#include "base/input_file.h"
#include "base/source_lines.h"
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

void read_notes(Elf_Scn* scn, std::vector<ElfNote>& notes) {
  Elf_Data* data = elf_getdata(scn, nullptr);
  if (!data || !data->d_buf) return;
  GElf_Nhdr nh;
  size_t name_off = 0, desc_off = 0;
  const char* buf = static_cast<const char*>(data->d_buf);
  for (size_t off = 0; (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) != 0;) {
    const size_t name_len = nh.n_namesz && buf[name_off + nh.n_namesz - 1] == 0 ? nh.n_namesz - 1 : nh.n_namesz;
    notes.push_back({std::string(buf + name_off, name_len), nh.n_type, std::string(buf + desc_off, nh.n_descsz)});
  }
}

}  // namespace

ElfImage load_elf(const std::string& path, const ElfWriter& write) {
  if (elf_version(EV_CURRENT) == EV_NONE) throw ElfError("libelf initialisation failed");
  const std::string problem = input_file_problem(path);
  if (!problem.empty()) throw ElfError(path + ": " + problem);
  Fd fd{open(path.c_str(), O_RDONLY)};
  if (fd.fd < 0) throw ElfError(path + ": cannot open");
  ElfHandle h{elf_begin(fd.fd, ELF_C_READ, nullptr)};
  if (!h.e || elf_kind(h.e) != ELF_K_ELF) throw ElfError(path + ": not an ELF file");
  GElf_Ehdr eh;
  if (!gelf_getehdr(h.e, &eh)) throw ElfError(path + ": unreadable ELF header (" + elf_errmsg(-1) + ")");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64) throw ElfError(path + ": not a 64-bit ELF file (RV64 expected)");
  if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
    throw ElfError(path + ": a big-endian ELF file (RISC-V programs are little-endian, ELFDATA2LSB)");
  if (eh.e_machine != EM_RISCV) throw ElfError(path + ": machine " + std::to_string(eh.e_machine) + " is not RISC-V (243)");
  if (eh.e_type != ET_EXEC) throw ElfError(path + ": not an executable (ET_EXEC expected)");
  if (eh.e_phentsize != sizeof(Elf64_Phdr))
    throw ElfError(path + ": e_phentsize is " + std::to_string(eh.e_phentsize) + ", not " + std::to_string(sizeof(Elf64_Phdr)) +
                   " (the size of an ELF64 program header)");
  size_t nph = 0;
  if (elf_getphdrnum(h.e, &nph) != 0 || nph == 0) throw ElfError(path + ": no program headers");

  // The raw image, for segment contents.
  size_t size = 0;
  const char* raw = elf_rawfile(h.e, &size);
  if (!raw) throw ElfError(path + ": cannot read file contents");
  if (eh.e_shoff > size || uint64_t{eh.e_shnum} * eh.e_shentsize > size - eh.e_shoff)
    throw ElfError(path + ": the section header table lies outside the file (truncated?)");

  ElfImage img;
  img.path = path;
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
    // The bss part in chunks: a corrupt p_memsz must not allocate gigabytes.
    static const std::vector<uint8_t> zeros(64 * 1024, 0);
    for (uint64_t at = ph.p_filesz; at < ph.p_memsz; at += zeros.size())
      if (!write(ph.p_paddr + at, zeros.data(), std::min<uint64_t>(zeros.size(), ph.p_memsz - at)))
        throw ElfError(path + ": segment " + std::to_string(i) + " bss at " + hex(ph.p_paddr + at) +
                       " is not in device memory");
    img.segments.push_back({ph.p_paddr, ph.p_memsz, ph.p_flags});
    img.lowest = std::min<uint64_t>(img.lowest, ph.p_paddr);
    img.highest = std::max<uint64_t>(img.highest, ph.p_paddr + ph.p_memsz);
  }
  if (img.lowest == ~0ull) throw ElfError(path + ": no loadable segment");

  std::vector<Symbol> symbols;
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(h.e, scn)) != nullptr) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) continue;
    if (sh.sh_type == SHT_NOTE) read_notes(scn, img.notes);
    if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
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
      img.symbol_sizes.emplace(name, sym.st_size);
      // Section-relative labels of the assembler ($x, .L...) say nothing to a reader.
      if (name[0] != '$' && name[0] != '.') symbols.push_back(Symbol{name, sym.st_value, sym.st_size});
    }
  }
  img.named_symbols = std::move(symbols);
  return img;
}

void register_symbols(const ElfImage& img, uint64_t bias) {
  std::vector<Symbol> placed = img.named_symbols;
  for (Symbol& s : placed) s.addr += bias;
  SymbolTable::instance().add_image(img.lowest + bias, img.highest + bias, placed);
  if (!img.path.empty()) SourceLines::instance().add_image(img.path, img.lowest + bias, img.highest + bias, bias);
}

}  // namespace avp
