// SPDX-License-Identifier: Apache-2.0
#include "foresight/advise/placement/patch.h"

#include <fmt/format.h>

#include <cctype>
#include <vector>

#include "foresight/frontend/cuda/cuda_frontend.h"

namespace foresight {

namespace {

bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Whether `word` occurs in `text` as a whole identifier.
bool hasWord(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !isIdent(text[at - 1]);
    const bool right = at + word.size() >= text.size() || !isIdent(text[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

/// "float* x" → "const float* __restrict__ x": the pointee made const and the pointer restrict,
/// each only when missing. The name is the declaration's last identifier.
std::string restrictConst(const std::string& decl, const std::string& name) {
  std::string out = decl;
  const size_t at = out.rfind(name);
  if (!hasWord(out, "__restrict__") && !hasWord(out, "__restrict") && at != std::string::npos) {
    out.insert(at, "__restrict__ ");
  }
  const size_t star = out.find('*');
  if (star != std::string::npos && !hasWord(out.substr(0, star), "const")) out.insert(0, "const ");
  return out;
}

/// What applies a placement the declaration cannot express.
const char* howToApply(Placement p) {
  switch (p) {
    case Placement::Constant: return "copy it into constant memory (placement.cuh: placeInConstant)";
    case Placement::Shared: return "stage the block's tile in shared memory (placement.cuh: PlacedArray::view)";
    case Placement::PersistingL2: return "give the stream an L2 access-policy window (placement.cuh: placeInPersistingL2)";
    case Placement::Texture: return "read it through a texture object for the texture cache (placement.cuh: placeInTexture)";
    default: return "";
  }
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b <= text.size()) {
    const size_t e = text.find('\n', b);
    if (e == std::string::npos) {
      if (b < text.size()) out.push_back(text.substr(b));
      break;
    }
    out.push_back(text.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

}  // namespace

Expected<std::string> placementPatch(const std::string& source, const std::string& path, const std::string& kernel,
                                     const AccessProfile& profile, const Plan& plan) {
  // The kernel's own name (a template instantiation's base name) as defined in the source.
  const std::string base = kernel.substr(0, kernel.find('<'));
  const std::vector<cuda::SourceParam> params = cuda::sourceParams(source, base);
  if (params.empty()) return makeError("--emit-patch: no definition of kernel '" + base + "' with parameters", path, 0);

  std::string header = fmt::format("foresight place: the chosen plan for kernel '{}' as a source change\n", base);
  // Edits as (begin, end, replacement), in source order (the parameters' order).
  struct Edit {
    size_t begin, end;
    std::string text;
  };
  std::vector<Edit> edits;
  for (size_t a = 0; a < plan.size(); ++a) {
    const std::string& name = profile.arrays[a].name;
    const Placement p = plan[a];
    if (p == Placement::Global) continue;
    const cuda::SourceParam* param = nullptr;
    for (const cuda::SourceParam& sp : params) {
      if (sp.name == name) param = &sp;
    }
    if (!param || param->end <= param->begin) {
      return makeError("--emit-patch: kernel '" + base + "' has no parameter '" + name + "' in its definition", path, 0);
    }
    if (p == Placement::ReadOnly || p == Placement::Texture) {
      const std::string decl = source.substr(param->begin, param->end - param->begin);
      const std::string changed = restrictConst(decl, name);
      if (changed != decl) edits.push_back({param->begin, param->end, changed});
      header += fmt::format("  {}: {} path: const __restrict__ (nvcc then loads it with ld.global.nc){}\n", name,
                            placementName(p), p == Placement::Texture ? "; or " + std::string(howToApply(p)) : "");
    } else {
      header += fmt::format("  {}: {}: not a declaration change; {}\n", name, placementName(p), howToApply(p));
    }
  }
  std::string changed = source;
  for (auto e = edits.rbegin(); e != edits.rend(); ++e) changed.replace(e->begin, e->end - e->begin, e->text);
  if (edits.empty()) return header + "  (no declaration change applies)\n";

  // A diff without context: one hunk per changed line (parameters change within their lines).
  const std::vector<std::string> before = lines(source), after = lines(changed);
  std::string out = header + fmt::format("--- {}\n+++ {}\n", path, path);
  for (size_t l = 0; l < before.size() && l < after.size(); ++l) {
    if (before[l] == after[l]) continue;
    out += fmt::format("@@ -{0},1 +{0},1 @@\n-{1}\n+{2}\n", l + 1, before[l], after[l]);
  }
  return out;
}

}  // namespace foresight
