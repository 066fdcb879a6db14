// SPDX-License-Identifier: Apache-2.0
/// \file
/// Strict TOML → Manifest through TableReader, then a resolve pass over every variant so that a
/// bad expression is reported when the manifest is loaded, not when it is run.
#include "foresight/validation/manifest.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "foresight/ir/launch.h"
#include "foresight/support/strings.h"
#include "foresight/support/text_file.h"
#include "foresight/support/toml_reader.h"
#include "foresight/support/expression.h"

namespace foresight {

namespace fs = std::filesystem;

const std::vector<std::string>& checkReferences() {
  static const std::vector<std::string> refs = {"gemm", "transpose", "copy", "reduce_sum",
                                                "spmv_csr"};
  return refs;
}

long long ResolvedExperiment::totalBytes() const {
  long long total = 0;
  for (const ResolvedBuffer& b : buffers) total += b.count * elemTypeBytes(b.type);
  return total;
}

namespace {

ElemType toElemType(const std::string& s) { return parseElemType(s).value_or(ElemType::F32); }

/// Splits "a, cdiv(b, c), d" at top-level commas.
std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  out.push_back(current);
  for (std::string& s : out) {
    const size_t b = s.find_first_not_of(" \t");
    const size_t e = s.find_last_not_of(" \t");
    s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  }
  return out;
}

/// A required whole, non-negative number (TOML integer).
long long readInteger(TableReader& r, const std::string& key) {
  const double v = r.number(key);
  if (v != static_cast<double>(static_cast<long long>(v))) {
    r.failHere("'" + r.path() + "." + key + "' must be a whole number");
  }
  return static_cast<long long>(v);
}

/// "FILE:LINE=VALUE" → HintSpec; false when malformed.
bool parseHint(const std::string& text, HintSpec& out) {
  const size_t eq = text.find('=');
  const size_t colon = text.rfind(':', eq);
  if (eq == std::string::npos || colon == std::string::npos || colon == 0) return false;
  out.file = text.substr(0, colon);
  out.value = text.substr(eq + 1);
  try {
    size_t used = 0;
    out.line = std::stoi(text.substr(colon + 1, eq - colon - 1), &used);
    if (used != eq - colon - 1 || out.line <= 0) return false;
  } catch (const std::exception&) {
    return false;
  }
  return !out.value.empty();
}

std::string optionalString(TableReader& r, const toml::table& t, const std::string& key,
                           std::string fallback) {
  return t.get(key) ? r.string(key) : fallback;
}

}  // namespace

Expected<Manifest> loadManifestFromString(const std::string& text, const std::string& path) {
  Expected<toml::table> parsed = parseToml(text, path);
  if (!parsed) return std::move(parsed).takeError();
  const toml::table& root = *parsed;
  Error error;
  Manifest m;
  m.path = path;
  TableReader top(root, "", path, &error);
  std::vector<std::string> sequence;
  const toml::node* sequenceNode = nullptr;

  if (const toml::table* t = top.table("experiment")) {
    TableReader r(*t, "experiment", path, &error);
    m.name = r.string("name");
    m.source = r.string("source");
    m.suite = r.choice("suite", {"polybench", "rodinia", "matmul", "transpose", "reduction", "spmv",
                                 "stencil", "micro"});
    m.group = optionalString(r, *t, "group", "");
    m.description = r.string("description");
    if (t->get("rotate")) m.rotate = r.choice("rotate", {"yes", "no"}) == "yes";
    if (t->get("reinit")) m.reinit = r.choice("reinit", {"yes", "no"}) == "yes";
    if (t->get("flush")) m.flush = r.choice("flush", {"yes", "no"}) == "yes";
    if (t->get("alternatives")) m.alternatives = r.choice("alternatives", {"yes", "no"}) == "yes";
    sequenceNode = t->get("sequence");
    sequence = r.stringArray("sequence");
    for (const char* key : {"trips", "branches"}) {
      const toml::node* node = t->get(key);
      for (const std::string& text : r.stringArray(key)) {
        HintSpec hint;
        if (!parseHint(text, hint)) {
          r.failAt(*node, std::string("'experiment.") + key +
                              "' entries look like \"FILE:LINE=VALUE\", got \"" + text + "\"");
          break;
        }
        (std::string(key) == "trips" ? m.trips : m.branches).push_back(hint);
      }
    }
    r.finish();
    if (m.group.empty()) m.group = m.name;
    if (!r.failed())
      m.source = (fs::path(path).parent_path() / m.source).lexically_normal().string();
  }
  if (const toml::table* t = top.optionalTable("defines")) {
    TableReader r(*t, "defines", path, &error);
    for (const std::string& key : r.keys()) m.defines[key] = readInteger(r, key);
    r.finish();
  }
  if (const toml::table* t = top.optionalTable("variants")) {
    TableReader r(*t, "variants", path, &error);
    for (const std::string& name : r.keys()) {
      const toml::table* vt = r.table(name);
      if (!vt) break;
      TableReader v(*vt, "variants." + name, path, &error);
      VariantSpec variant{name, {}};
      for (const std::string& key : v.keys()) {
        if (!m.defines.count(key)) {
          std::vector<std::string> names;
          for (const auto& [k, val] : m.defines) names.push_back(k);
          v.failAt(*vt->get(key), "variant '" + name + "' overrides '" + key +
                                      "', which is not in [defines]" + didYouMean(key, names));
          break;
        }
        variant.defines[key] = readInteger(v, key);
      }
      v.finish();
      m.variants.push_back(std::move(variant));
    }
    r.finish();
  }
  if (m.variants.empty()) m.variants.push_back({"default", {}});

  std::set<std::string> bufferNames, scalarNames;
  if (const toml::table* t = top.table("buffers")) {
    TableReader r(*t, "buffers", path, &error);
    for (const std::string& name : r.keys()) {
      const toml::table* bt = r.table(name);
      if (!bt) break;
      TableReader b(*bt, "buffers." + name, path, &error);
      BufferSpec buffer;
      buffer.name = name;
      buffer.type = toElemType(b.choice("type", elemTypeNames()));
      buffer.count = b.string("count");
      buffer.init = b.string("init");
      const std::string role = b.choice("role", {"input", "output", "inout"});
      buffer.role = role == "output"  ? BufferRole::Output
                    : role == "inout" ? BufferRole::InOut
                                      : BufferRole::Input;
      b.finish();
      if (b.failed()) break;
      const std::string kind = buffer.init.substr(0, buffer.init.find(':'));
      const auto& kinds = initPatternKinds();
      const auto it =
          std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return kind == k.name; });
      std::vector<std::string> kindNames;
      for (const auto& k : kinds) kindNames.push_back(k.name);
      const size_t params = std::count(buffer.init.begin(), buffer.init.end(), ':');
      if (it == kinds.end()) {
        b.failAt(*bt->get("init"),
                 "unknown init pattern '" + kind + "'" + didYouMean(kind, kindNames));
      } else if (static_cast<int>(params) != it->params) {
        b.failAt(*bt->get("init"), "init pattern '" + kind + "' takes " +
                                       std::to_string(it->params) +
                                       " parameter(s) separated by ':'");
      }
      bufferNames.insert(name);
      m.buffers.push_back(std::move(buffer));
    }
    r.finish();
  }
  if (const toml::table* t = top.optionalTable("scalars")) {
    TableReader r(*t, "scalars", path, &error);
    for (const std::string& name : r.keys()) {
      const toml::table* st = r.table(name);
      if (!st) break;
      TableReader s(*st, "scalars." + name, path, &error);
      ScalarSpec scalar;
      scalar.name = name;
      scalar.type = toElemType(s.choice("type", elemTypeNames()));
      scalar.value = s.string("value");
      s.finish();
      if (bufferNames.count(name)) s.failHere("scalar '" + name + "' has the name of a buffer");
      scalarNames.insert(name);
      m.scalars.push_back(std::move(scalar));
    }
    r.finish();
  }
  std::vector<std::string> argNames(bufferNames.begin(), bufferNames.end());
  argNames.insert(argNames.end(), scalarNames.begin(), scalarNames.end());
  auto checkName = [&](TableReader& r, const toml::table& t, const std::string& key,
                       const std::string& name, bool buffersOnly) {
    const bool known = bufferNames.count(name) || (!buffersOnly && scalarNames.count(name));
    if (!known && !r.failed()) {
      r.failAt(*t.get(key),
               "'" + r.path() + "." + key + "' names '" + name + "', which is not a " +
                   (buffersOnly ? "buffer" : "buffer or scalar") +
                   didYouMean(name, buffersOnly ? std::vector<std::string>(bufferNames.begin(),
                                                                           bufferNames.end())
                                                : argNames));
    }
  };
  if (const toml::table* t = top.table("launch")) {
    TableReader r(*t, "launch", path, &error);
    std::vector<LaunchSpec> byLabel;
    for (const std::string& label : r.keys()) {
      const toml::table* lt = r.table(label);
      if (!lt) break;
      TableReader l(*lt, "launch." + label, path, &error);
      LaunchSpec launch;
      launch.label = label;
      launch.kernel = l.string("kernel");
      launch.grid = splitList(l.string("grid"));
      launch.block = splitList(l.string("block"));
      launch.sharedBytes = optionalString(l, *lt, "shared_bytes", "0");
      launch.repeat = optionalString(l, *lt, "repeat", "1");
      launch.carveout = optionalString(l, *lt, "carveout", "");
      launch.args = l.stringArray("args");
      l.finish();
      if (!l.failed() && (launch.grid.size() > 3 || launch.block.size() > 3)) {
        l.failHere("'launch." + label + "' grid and block take 1 to 3 comma-separated extents");
      }
      for (const std::string& a : launch.args) checkName(l, *lt, "args", a, false);
      byLabel.push_back(std::move(launch));
    }
    r.finish();
    if (!r.failed()) {
      if (byLabel.empty()) r.failHere("[launch] needs at least one [launch.<label>] table");
      if (sequence.empty() && byLabel.size() > 1) {
        r.failHere("several [launch.*] tables: give their order in 'experiment.sequence'");
      }
      if (sequence.empty() && byLabel.size() == 1) sequence.push_back(byLabel.front().label);
      std::set<std::string> used;
      for (const std::string& label : sequence) {
        const auto it = std::find_if(byLabel.begin(), byLabel.end(),
                                     [&](const auto& l) { return l.label == label; });
        if (it == byLabel.end()) {
          std::vector<std::string> labels;
          for (const auto& l : byLabel) labels.push_back(l.label);
          r.failAt(sequenceNode ? *sequenceNode : static_cast<const toml::node&>(*t),
                   "'experiment.sequence' names '" + label + "', which is not a [launch.*] table" +
                       didYouMean(label, labels));
          break;
        }
        m.launches.push_back(*it);
        used.insert(label);
      }
      for (const auto& l : byLabel) {
        if (!r.failed() && !used.count(l.label)) {
          r.failAt(*t->get(l.label), "[launch." + l.label + "] is not in 'experiment.sequence'");
        }
      }
    }
  }
  if (const toml::table* t = top.optionalTable("check")) {
    TableReader r(*t, "check", path, &error);
    CheckSpec check;
    std::vector<std::string> refs = checkReferences();
    check.reference = r.choice("reference", refs);
    check.output = r.string("output");
    check.inputs = r.stringArray("inputs");
    check.params = splitList(r.string("params"));
    if (t->get("tolerance")) check.tolerance = r.number("tolerance");
    r.finish();
    checkName(r, *t, "output", check.output, true);
    for (const std::string& in : check.inputs) checkName(r, *t, "inputs", in, true);
    m.check = std::move(check);
  }
  top.finish();
  if (!error.message.empty()) return error;

  // Resolve every variant now, so a bad expression fails at load time.
  for (const VariantSpec& v : m.variants) {
    Expected<ResolvedExperiment> r = resolveVariant(m, v);
    if (!r) {
      Error e = std::move(r).takeError();
      if (e.file.empty()) e.file = path;
      return e;
    }
  }
  return m;
}

Expected<Manifest> loadManifest(const std::string& path) {
  Expected<std::string> text = readTextFile(path, "manifest");
  if (!text) return std::move(text).takeError();
  Expected<Manifest> m = loadManifestFromString(*text, path);
  if (!m) return m;
  // A plan for a source that does not exist would only fail on the GPU machine.
  std::error_code ec;
  if (!fs::is_regular_file(m->source, ec)) {
    int line = 0, at = 0;
    std::istringstream lines(*text);
    for (std::string l; std::getline(lines, l) && line == 0;) {
      ++at;
      if (trim(l).rfind("source", 0) == 0 && trim(l).find('=') != std::string::npos) line = at;
    }
    return makeError("experiment source '" + m->source + "' does not exist", path, line);
  }
  return m;
}

Expected<std::vector<Manifest>> loadCorpus(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return makeError("corpus directory '" + dir + "' does not exist");
  std::vector<std::string> paths;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); ++it) {
    // measurements/ and runner/ hold no experiments; a subdirectory with its own measurements/
    // is a corpus of its own (validation/public), scored with `--corpus` pointing at it.
    if (it->is_directory() &&
        (it->path().filename() == "measurements" || it->path().filename() == "runner" ||
         fs::is_directory(it->path() / "measurements", ec))) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".toml")
      paths.push_back(it->path().string());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Manifest> out;
  std::map<std::string, std::string> seen;
  for (const std::string& p : paths) {
    Expected<Manifest> m = loadManifest(p);
    if (!m) return std::move(m).takeError();
    if (seen.count(m->name)) {
      return makeError("experiment name '" + m->name + "' is also used by " + seen[m->name], p, 0);
    }
    seen[m->name] = p;
    out.push_back(std::move(*m));
  }
  std::sort(out.begin(), out.end(),
            [](const Manifest& a, const Manifest& b) { return a.name < b.name; });
  return out;
}

Expected<ResolvedExperiment> resolveVariant(const Manifest& m, const VariantSpec& variant, bool arrayContents) {
  ResolvedExperiment out;
  out.experiment = m.name;
  out.variant = variant.name;
  out.group = m.group;
  out.alternatives = m.alternatives;
  out.source = m.source;
  out.manifestPath = m.path;
  out.rotate = m.rotate;
  out.reinit = m.reinit;
  out.flush = m.flush;
  out.defines = m.defines;
  for (const auto& [k, v] : variant.defines) out.defines[k] = v;
  const auto& vars = out.defines;
  auto where = [&](const std::string& what, Error e) {
    e.message = "variant '" + variant.name + "', " + what + ": " + e.message;
    e.file = m.path;
    return e;
  };
  for (const BufferSpec& b : m.buffers) {
    ResolvedBuffer rb{b.name, b.type, 0, "", {}, 0, b.role};
    Expected<long long> count = evalExpression(b.count, vars);
    if (!count) return where("buffer '" + b.name + "' count", count.error());
    if (*count <= 0) return where("buffer '" + b.name + "'", makeError("count must be positive"));
    rb.count = *count;
    std::vector<std::string> parts = splitList(b.init);  // no commas in patterns: one part
    std::string rest = parts.front();
    size_t colon = rest.find(':');
    rb.initKind = rest.substr(0, colon);
    while (colon != std::string::npos) {
      rest = rest.substr(colon + 1);
      colon = rest.find(':');
      const std::string param = rest.substr(0, colon);
      if (rb.initKind == "constant") {
        char* end = nullptr;
        rb.initValue = std::strtod(param.c_str(), &end);
        if (end == param.c_str() || *end != '\0') {
          return where("buffer '" + b.name + "' init",
                       makeError("constant needs a number, got '" + param + "'"));
        }
        continue;
      }
      Expected<long long> v = evalExpression(param, vars);
      if (!v) return where("buffer '" + b.name + "' init", v.error());
      rb.initParams.push_back(*v);
    }
    out.buffers.push_back(std::move(rb));
  }
  for (const ScalarSpec& s : m.scalars) {
    ResolvedScalar rs{s.name, s.type, 0, 0};
    if (s.type == ElemType::F32 || s.type == ElemType::F64) {
      char* end = nullptr;
      rs.floatValue = std::strtod(s.value.c_str(), &end);
      if (end == s.value.c_str() || *end != '\0') {
        return where("scalar '" + s.name + "'", makeError("'" + s.value + "' is not a number"));
      }
    } else {
      Expected<long long> v = evalExpression(s.value, vars);
      if (!v) return where("scalar '" + s.name + "'", v.error());
      rs.intValue = *v;
    }
    out.scalars.push_back(rs);
  }
  for (const LaunchSpec& l : m.launches) {
    ResolvedLaunch rl;
    rl.kernel = l.kernel;
    rl.args = l.args;
    long long* grid[] = {&rl.launch.grid.x, &rl.launch.grid.y, &rl.launch.grid.z};
    long long* block[] = {&rl.launch.block.x, &rl.launch.block.y, &rl.launch.block.z};
    for (size_t i = 0; i < l.grid.size(); ++i) {
      Expected<long long> v = evalExpression(l.grid[i], vars);
      if (!v) return where("launch '" + l.label + "' grid", v.error());
      if (*v <= 0)
        return where("launch '" + l.label + "' grid", makeError("extents must be positive"));
      *grid[i] = *v;
    }
    for (size_t i = 0; i < l.block.size(); ++i) {
      Expected<long long> v = evalExpression(l.block[i], vars);
      if (!v) return where("launch '" + l.label + "' block", v.error());
      if (*v <= 0)
        return where("launch '" + l.label + "' block", makeError("extents must be positive"));
      *block[i] = *v;
    }
    Expected<long long> shared = evalExpression(l.sharedBytes, vars);
    if (!shared) return where("launch '" + l.label + "' shared_bytes", shared.error());
    rl.launch.dynamicSharedBytes = *shared;
    Expected<long long> repeat = evalExpression(l.repeat, vars);
    if (!repeat) return where("launch '" + l.label + "' repeat", repeat.error());
    if (*repeat <= 0)
      return where("launch '" + l.label + "' repeat", makeError("repeat must be positive"));
    rl.repeat = *repeat;
    if (!l.carveout.empty()) {
      Expected<long long> carveout = evalExpression(l.carveout, vars);
      if (!carveout) return where("launch '" + l.label + "' carveout", carveout.error());
      if (*carveout < 0 || *carveout > 100)
        return where("launch '" + l.label + "' carveout",
                     makeError("a carveout is a percentage in 0..100, got " + std::to_string(*carveout)));
      rl.launch.carveoutPercent = static_cast<int>(*carveout);
    }
    // A variant CUDA cannot launch would only fail on the GPU (cuLaunchKernel: invalid value).
    if (Expected<void> ok = checkLaunchLimits(rl.launch); !ok)
      return where("launch '" + l.label + "'", ok.error());
    rl.launch.macros = out.defines;
    for (size_t i = 0; i < l.args.size(); ++i) {
      // Buffers by parameter position ("@i"): their names need not be the kernel's.
      for (const ResolvedBuffer& b : out.buffers) {
        if (b.name != l.args[i]) continue;
        const std::string at = "@" + std::to_string(i);
        rl.launch.arrayBytes[at] = b.count * elemTypeBytes(b.type);
        // The contents the runner uploads, for the loads whose values decide addresses,
        // branches and trip counts: integer arrays the kernel reads (float contents would only
        // decide float branches, which the hints state, and would stop loop folding).
        if (!arrayContents || b.role == BufferRole::Output || b.initKind == "poison" || isFloatElem(b.type)) continue;
        Expected<ArrayData> data = ArrayData::fromPattern(b.type, InitPattern{b.initKind, b.initParams, b.initValue},
                                                          patternSeed(out.experiment, out.variant, b.name), b.count);
        if (!data) return where("buffer '" + b.name + "' init", data.error());
        rl.launch.arrayData.insert_or_assign(at, std::move(*data));
      }
    }
    for (const std::string& a : l.args) {
      for (const ResolvedScalar& s : out.scalars) {
        if (s.name != a) continue;
        const bool real = s.type == ElemType::F32 || s.type == ElemType::F64;
        rl.launch.args[a] = real ? ArgValue::fromReal(s.floatValue) : ArgValue(s.intValue);
      }
    }
    out.launches.push_back(std::move(rl));
  }
  for (const HintSpec& h : m.trips) {
    Expected<long long> v = evalExpression(h.value, vars);
    if (!v) return where("trip hint " + h.file + ":" + std::to_string(h.line), v.error());
    out.trips.push_back({h.file, h.line, static_cast<double>(*v)});
  }
  for (const HintSpec& h : m.branches) {
    char* end = nullptr;
    const double p = std::strtod(h.value.c_str(), &end);
    if (end == h.value.c_str() || *end != '\0' || p < 0 || p > 1) {
      return where("branch hint " + h.file + ":" + std::to_string(h.line),
                   makeError("'" + h.value + "' is not a probability in [0, 1]"));
    }
    out.branches.push_back({h.file, h.line, p});
  }
  if (m.check) {
    ResolvedCheck c{m.check->reference, m.check->output, m.check->inputs, {}, m.check->tolerance};
    for (const std::string& p : m.check->params) {
      Expected<long long> v = evalExpression(p, vars);
      if (!v) return where("check params", v.error());
      c.params.push_back(*v);
    }
    out.check = std::move(c);
  }
  return out;
}

}  // namespace foresight
