// SPDX-License-Identifier: Apache-2.0
/// \file
/// Reading skeleton files and their sample index data.
#include "foresight/frontend/skeleton/skeleton_frontend.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "foresight/frontend/skeleton/lowering.h"
#include "foresight/support/text_file.h"

namespace foresight::skeleton {

namespace {

/// A sample file: whitespace- or comma-separated integers, row-major (grophecy.md §2.3).
Expected<void> loadSample(Array& a, const std::string& baseDir, const std::string& skeletonPath) {
  const std::filesystem::path p = std::filesystem::path(baseDir) / a.sampleFile;
  Expected<std::string> text = readTextFile(p.string(), "sample file");
  if (!text) {
    return makeError("array '" + a.name + "': cannot read sample file '" + p.string() + "'",
                     skeletonPath, a.loc.line, a.loc.column);
  }
  std::string data = *text;
  for (char& c : data) {
    if (c == ',') c = ' ';
  }
  std::istringstream in(data);
  std::string word;
  int line = 1;
  while (in >> word) {
    try {
      size_t used = 0;
      a.sample.push_back(std::stoll(word, &used));
      if (used != word.size()) throw std::invalid_argument(word);
    } catch (const std::exception&) {
      return makeError(
          "sample file for array '" + a.name + "' holds '" + word + "', not an integer", p.string(),
          line);
    }
  }
  if (a.sample.empty())
    return makeError("sample file for array '" + a.name + "' is empty", p.string(), 0);
  return {};
}

}  // namespace

Expected<Skeleton> loadSkeletonFromString(const std::string& text, const std::string& sourceName,
                                          const std::string& baseDir, const ParseOptions& options) {
  Expected<Skeleton> sk = parseSkeleton(text, sourceName, options);
  if (!sk) return sk;
  if (baseDir.empty()) return sk;
  for (Array& a : sk->arrays) {
    if (a.sampleFile.empty()) continue;
    Expected<void> ok = loadSample(a, baseDir, sourceName);
    if (!ok) return std::move(ok).takeError();
  }
  return sk;
}

Expected<Skeleton> loadSkeletonFile(const std::string& path, const ParseOptions& options) {
  Expected<std::string> text = readTextFile(path, "input file");
  if (!text) return std::move(text).takeError();
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  return loadSkeletonFromString(*text, path, dir, options);
}

Expected<LoadedInput> loadSkeletonInput(const std::string& path, const InputOptions& options) {
  ParseOptions parse;
  for (const auto& [name, value] : options.macros) {
    try {
      size_t used = 0;
      parse.macros[name] = std::stoll(value, &used);
      if (used != value.size()) throw std::invalid_argument(value);
    } catch (const std::exception&) {
      return makeError("-D " + name + "=" + value + ": skeleton macros must be integers");
    }
  }
  Expected<Skeleton> sk = loadSkeletonFile(path, parse);
  if (!sk) return std::move(sk).takeError();
  Gpu generic;  // without a target: warp of 32, 32-byte sectors
  generic.name = "generic";
  generic.warpSize.value = 32;
  const Gpu& gpu = options.gpu ? *options.gpu : generic;
  Expected<Characterizer> ch = Characterizer::create(*sk, gpu, {.costs = peripheralCostsFor(gpu)});
  if (!ch) return std::move(ch).takeError();
  const Layout layout = defaultLayout(*sk, *ch);
  Expected<LoweredLayout> lowered = lowerLayout(*ch, layout, options.gpu != nullptr);
  if (!lowered) return std::move(lowered).takeError();
  LoadedInput input;
  input.path = path;
  input.frontend = "skeleton";
  input.kernels.push_back(std::move(lowered->kernel));
  input.launch = lowered->launch;
  input.notes.push_back("skeleton lowered with its default layout " + describeLayout(layout, *sk) +
                        "; foresight predict/explore FILE.sk search the layouts");
  return input;
}

}  // namespace foresight::skeleton
