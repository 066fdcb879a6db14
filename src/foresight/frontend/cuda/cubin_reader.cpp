// SPDX-License-Identifier: Apache-2.0
/// \file
/// ELF64 section/symbol walking and `.nv.info` record decoding for cubins.
#include "foresight/frontend/cuda/cubin_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>

namespace foresight::cuda {

namespace {

// .nv.info attributes (names as in CuAssembler's CuNVInfo.py / NVIDIA's EIATTR enum).
constexpr int kAttrMaxThreads = 0x05;
constexpr int kAttrParamCbank = 0x0a;
constexpr int kAttrFrameSize = 0x11;
constexpr int kAttrMinStackSize = 0x12;
constexpr int kAttrKparamInfo = 0x17;
constexpr int kAttrCbankParamSize = 0x19;
constexpr int kAttrMaxregCount = 0x1b;
constexpr int kAttrExitInstrOffsets = 0x1c;
constexpr int kAttrRegcount = 0x2f;
constexpr int kAttrBarrierCount = 0x4c;  // undocumented; equals ptxas "used N barriers"
constexpr int kFmtSval = 0x04;
constexpr int kEmCuda = 190;
/// sm_90+ fold 1 KiB of system-reserved shared memory into each .nv.shared.<kernel>.
constexpr long long kReservedSharedSm90 = 1024;

template <class T>
T get(std::string_view b, size_t off) {
  T v{};
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

struct Section {
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
  std::uint32_t info = 0;
};

/// One decoded .nv.info record.
struct Record {
  int fmt = 0;
  int attr = 0;
  std::uint16_t value = 0;     ///< fmt 1–3
  std::string_view data;       ///< fmt 4
};

Expected<std::vector<Record>> decodeInfo(std::string_view s, const std::string& file,
                                         const std::string& section) {
  std::vector<Record> out;
  size_t p = 0;
  while (p + 4 <= s.size()) {
    Record r;
    r.fmt = static_cast<unsigned char>(s[p]);
    r.attr = static_cast<unsigned char>(s[p + 1]);
    const std::uint16_t v = get<std::uint16_t>(s, p + 2);
    p += 4;
    if (r.fmt == kFmtSval) {
      if (p + v > s.size()) return makeError("truncated record in " + section, file, 0);
      r.data = s.substr(p, v);
      p += v;
    } else if (r.fmt >= 1 && r.fmt <= 3) {
      r.value = v;
    } else {
      return makeError("unknown .nv.info record format " + std::to_string(r.fmt) + " in " + section, file, 0);
    }
    out.push_back(r);
  }
  return out;
}

/// The NUL-terminated string at `offset` of a string table, cut at the table's end (a corrupt
/// table need not end in NUL); empty past the end.
std::string stringAt(std::string_view table, std::uint64_t offset) {
  if (offset >= table.size()) return {};
  const std::string_view rest = table.substr(offset);
  return std::string(rest.substr(0, rest.find('\0')));
}

}  // namespace

const CubinKernel* Cubin::find(std::string_view name) const {
  for (const CubinKernel& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

Expected<Cubin> readCubin(std::string_view b, const std::string& file) {
  if (b.size() < 64 || b.substr(0, 4) != "\x7f" "ELF") return makeError("not an ELF file (cubin expected)", file, 0);
  if (b[4] != 2 || b[5] != 1) return makeError("not a little-endian ELF64 cubin", file, 0);
  if (get<std::uint16_t>(b, 18) != kEmCuda) return makeError("ELF file is not for the CUDA machine (EM_CUDA)", file, 0);
  Cubin cubin;
  // e_flags name the SM in bits 8–15 under the ELF OS/ABI of CUDA 12.8+ (0x41), in bits 0–7
  // under the older one (0x33: the cubins CUDA 12.5's ptxas writes for Volta).
  const std::uint32_t flags = get<std::uint32_t>(b, 48);
  const bool newAbi = static_cast<unsigned char>(b[7]) == 0x41;
  cubin.smVersion = static_cast<int>(newAbi ? (flags >> 8) & 0xff : flags & 0xff);
  if (cubin.smVersion == 0) cubin.smVersion = static_cast<int>(flags & 0xff);

  const std::uint64_t shoff = get<std::uint64_t>(b, 40);
  const std::uint16_t shentsize = get<std::uint16_t>(b, 58);
  const std::uint16_t shnum = get<std::uint16_t>(b, 60);
  const std::uint16_t shstrndx = get<std::uint16_t>(b, 62);
  if (shentsize < 64 || shoff > b.size() || std::uint64_t(shnum) * shentsize > b.size() - shoff || shstrndx >= shnum) {
    return makeError("corrupt ELF section table", file, 0);
  }
  std::vector<Section> sections(shnum);
  std::vector<std::uint32_t> nameOffsets(shnum);
  for (int i = 0; i < shnum; ++i) {
    const size_t h = shoff + size_t(i) * shentsize;
    Section& s = sections[i];
    s.type = get<std::uint32_t>(b, h + 4);
    s.offset = get<std::uint64_t>(b, h + 24);
    s.size = get<std::uint64_t>(b, h + 32);
    s.link = get<std::uint32_t>(b, h + 40);
    s.info = get<std::uint32_t>(b, h + 44);
    nameOffsets[i] = get<std::uint32_t>(b, h);  // resolved below
  }
  auto sectionData = [&](const Section& s) -> std::string_view {
    if (s.type == 8 /*NOBITS*/ || s.offset > b.size() || s.size > b.size() - s.offset) return {};
    return b.substr(s.offset, s.size);
  };
  const std::string_view shstr = sectionData(sections[shstrndx]);
  for (size_t i = 0; i < sections.size(); ++i) sections[i].name = stringAt(shstr, nameOffsets[i]);

  // Symbols: index → name (the .nv.info records are keyed by symbol index).
  std::map<std::uint32_t, std::string> symbols;
  for (const Section& s : sections) {
    if (s.type != 2 /*SYMTAB*/ || s.link >= sections.size()) continue;
    const std::string_view data = sectionData(s);
    const std::string_view strtab = sectionData(sections[s.link]);
    for (size_t i = 0; i + 24 <= data.size(); i += 24) {
      const std::uint32_t nameOff = get<std::uint32_t>(data, i);
      if (nameOff < strtab.size()) symbols[static_cast<std::uint32_t>(i / 24)] = stringAt(strtab, nameOff);
    }
  }

  bool hasReservedShared = false;
  std::map<std::string, CubinKernel> byName;
  for (const Section& s : sections) {
    if (s.name == ".nv.shared.reserved.0") hasReservedShared = true;
    if (s.name.rfind(".text.", 0) == 0) {
      CubinKernel& k = byName[s.name.substr(6)];
      k.name = s.name.substr(6);
      k.textBytes = static_cast<long long>(s.size);
    }
  }
  for (const Section& s : sections) {
    if (s.name.rfind(".nv.shared.", 0) == 0) {
      auto it = byName.find(s.name.substr(11));
      if (it != byName.end()) it->second.sharedBytes = static_cast<long long>(s.size);
    }
  }
  if (hasReservedShared) {
    for (auto& [name, k] : byName) k.sharedBytes = std::max(0LL, k.sharedBytes - kReservedSharedSm90);
  }

  for (const Section& s : sections) {
    if (s.name.rfind(".nv.info", 0) != 0) continue;
    Expected<std::vector<Record>> records = decodeInfo(sectionData(s), file, s.name);
    if (!records) return std::move(records).takeError();
    const bool global = s.name == ".nv.info";
    CubinKernel* own = nullptr;
    if (!global) {
      auto it = byName.find(s.name.substr(9));
      if (it == byName.end()) continue;
      own = &it->second;
    }
    for (const Record& r : *records) {
      if (global) {
        if (r.fmt != kFmtSval || r.data.size() < 8) continue;
        auto sym = symbols.find(get<std::uint32_t>(r.data, 0));
        if (sym == symbols.end()) continue;
        auto it = byName.find(sym->second);
        if (it == byName.end()) continue;
        const std::uint32_t v = get<std::uint32_t>(r.data, 4);
        if (r.attr == kAttrRegcount) it->second.registers = static_cast<int>(v);
        if (r.attr == kAttrFrameSize) it->second.frameBytes = v;
        if (r.attr == kAttrMinStackSize) it->second.minStackBytes = v;
        continue;
      }
      switch (r.attr) {
        case kAttrMaxThreads:
          for (int d = 0; d < 3 && size_t(4 * d + 4) <= r.data.size(); ++d) {
            own->maxThreads[d] = static_cast<int>(get<std::uint32_t>(r.data, 4 * d));
          }
          break;
        case kAttrParamCbank:
          if (r.data.size() >= 8) {
            own->paramBankOffset = get<std::uint16_t>(r.data, 4);
          }
          break;
        case kAttrKparamInfo:
          if (r.data.size() >= 12) {
            CubinParam p;
            p.ordinal = get<std::uint16_t>(r.data, 4);
            p.offset = get<std::uint16_t>(r.data, 6);
            p.size = static_cast<int>((get<std::uint32_t>(r.data, 8) >> 18) & 0x3fff);
            own->params.push_back(p);
          }
          break;
        case kAttrCbankParamSize: own->paramBytes = r.value; break;
        case kAttrMaxregCount: own->maxRegCount = r.value; break;
        case kAttrBarrierCount: own->barriers = r.value; break;
        case kAttrExitInstrOffsets:
          for (size_t i = 0; i + 4 <= r.data.size(); i += 4) own->exitOffsets.push_back(get<std::uint32_t>(r.data, i));
          break;
        default: break;
      }
    }
  }
  for (auto& [name, k] : byName) {
    std::sort(k.params.begin(), k.params.end(), [](const CubinParam& a, const CubinParam& c) { return a.ordinal < c.ordinal; });
    cubin.kernels.push_back(std::move(k));
  }
  if (cubin.kernels.empty()) return makeError("the cubin contains no kernels", file, 0);
  return cubin;
}

}  // namespace foresight::cuda
