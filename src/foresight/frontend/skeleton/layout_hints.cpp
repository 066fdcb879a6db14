// SPDX-License-Identifier: Apache-2.0
/// \file
/// Hints files.
#include "foresight/frontend/skeleton/layout_hints.h"

#include <toml++/toml.h>

#include <map>

#include "foresight/support/edit_distance.h"
#include "foresight/support/text_file.h"
#include "foresight/support/toml_reader.h"

namespace foresight::skeleton {

namespace {

/// Value readers of the hints' structured keys (lists of shapes, names, stage sizes); keys
/// themselves are read strictly through TableReader, which shares the same first error.
class HintReader {
 public:
  HintReader(std::string source, Error* error) : source_(std::move(source)), error_(error) {}
  bool failed() const { return !error_->message.empty(); }

  void fail(const toml::node& n, const std::string& message) {
    if (failed()) return;
    *error_ = makeError(message, source_, static_cast<int>(n.source().begin.line),
                        static_cast<int>(n.source().begin.column));
  }
  std::vector<int> intList(const toml::node& n, const std::string& what) {
    std::vector<int> out;
    const toml::array* a = n.as_array();
    if (!a) return fail(n, what + " must be an array of positive integers"), out;
    for (const toml::node& e : *a) {
      if (!e.is_integer() || e.as_integer()->get() <= 0)
        return fail(e, what + " must hold positive integers"), out;
      out.push_back(static_cast<int>(e.as_integer()->get()));
    }
    if (out.empty()) fail(n, what + " must not be empty");
    return out;
  }
  std::vector<std::vector<int>> shapeList(const toml::node& n, const std::string& what) {
    std::vector<std::vector<int>> out;
    const toml::array* a = n.as_array();
    if (!a) return fail(n, what + " must be an array of shapes, e.g. [[16, 16], [32, 8]]"), out;
    for (const toml::node& e : *a) out.push_back(intList(e, what + " entries"));
    return out;
  }
  std::vector<std::string> nameList(const toml::node& n, const std::string& what) {
    std::vector<std::string> out;
    const toml::array* a = n.as_array();
    if (!a) return fail(n, what + " must be an array of array names"), out;
    for (const toml::node& e : *a) {
      if (!e.is_string()) return fail(e, what + " must hold array names (strings)"), out;
      out.push_back(e.as_string()->get());
    }
    return out;
  }
  std::map<std::string, std::vector<long long>> stages(const toml::node& n, bool single) {
    std::map<std::string, std::vector<long long>> out;
    const toml::table* t = n.as_table();
    if (!t)
      return fail(n, single ? "'stage' must be a table such as { k = 16 }"
                            : "'stage' must be a table such as { k = [0, 16] }"),
             out;
    for (const auto& [k, v] : *t) {
      std::vector<long long> sizes;
      auto take = [&](const toml::node& e) {
        if (!e.is_integer() || e.as_integer()->get() < 0)
          return fail(e, "staging sizes must be integers >= 0 (0 = not staged)");
        sizes.push_back(e.as_integer()->get());
      };
      if (single) {
        take(v);
      } else if (const toml::array* a = v.as_array()) {
        for (const toml::node& e : *a) take(e);
      } else {
        fail(v, "'stage." + std::string(k.str()) + "' must be an array of sizes");
      }
      out[std::string(k.str())] = sizes;
    }
    return out;
  }
  double number(const toml::node& n, const std::string& what) {
    if (n.is_integer()) return static_cast<double>(n.as_integer()->get());
    if (n.is_floating_point()) return n.as_floating_point()->get();
    fail(n, what + " must be a number");
    return 0;
  }

 private:
  std::string source_;
  Error* error_;
};

/// The nodes of `keys` in `table` (null where absent), read strictly: an unknown key is an
/// error (reported before any value error, so a misspelling is named first).
std::map<std::string, const toml::node*> readKeys(const toml::table& table, const std::string& path,
                                                  const std::string& source, Error* error,
                                                  const std::vector<std::string>& keys) {
  TableReader reader(table, path, source, error);
  std::map<std::string, const toml::node*> out;
  for (const std::string& k : keys) out[k] = reader.optionalNode(k);
  reader.finish();
  return out;
}

}  // namespace

Expected<LayoutHints> parseLayoutHints(std::string_view text, const std::string& sourceName,
                                       const PeripheralCosts& defaults) {
  Expected<toml::table> parsed = parseToml(text, sourceName);
  if (!parsed) return std::move(parsed).takeError();
  const toml::table& root = *parsed;
  Error error;
  HintReader r(sourceName, &error);
  LayoutHints h;
  h.costs = defaults;
  TableReader top(root, "", sourceName, &error);
  const toml::table* domain = top.optionalTable("domain");
  const toml::table* layout = top.optionalTable("layout");
  const toml::table* peripheral = top.optionalTable("peripheral");
  top.finish();
  if (domain && layout) r.fail(*layout, "a hints file has either [domain] or [layout], not both");
  if (domain && !r.failed()) {
    auto v = readKeys(*domain, "domain", sourceName, &error,
                      {"block", "fold", "stage", "order", "cache", "unroll", "stage_multipliers", "min_threads", "max_fold"});
    LayoutDomain& d = h.domain;
    if (v["block"]) d.blocks = r.shapeList(*v["block"], "'domain.block'");
    if (v["fold"]) d.folds = r.shapeList(*v["fold"], "'domain.fold'");
    if (v["stage"]) d.stages = r.stages(*v["stage"], false);
    if (const toml::node* o = v["order"]) {
      if (const toml::array* a = o->as_array(); a && !a->empty()) {
        for (const toml::node& e : *a) d.orders.push_back(r.nameList(e, "'domain.order' entries"));
      } else {
        r.fail(*o, "'domain.order' must be an array of orders, e.g. [[\"r\", \"c\"], [\"c\", \"r\"]]");
      }
    }
    if (const toml::node* c = v["cache"]) {
      std::vector<std::vector<std::string>> sets;
      if (const toml::array* a = c->as_array()) {
        for (const toml::node& e : *a) sets.push_back(r.nameList(e, "'domain.cache' entries"));
      } else {
        r.fail(*c, "'domain.cache' must be an array of arrays of names, e.g. [[\"A\", \"B\"], []]");
      }
      d.cacheSets = sets;
    }
    if (const toml::node* u = v["unroll"]) {
      d.unroll.clear();
      if (const toml::array* a = u->as_array()) {
        for (const toml::node& e : *a) {
          if (!e.is_boolean())
            r.fail(e, "'domain.unroll' must hold true and/or false");
          else
            d.unroll.push_back(e.as_boolean()->get());
        }
      } else {
        r.fail(*u, "'domain.unroll' must be an array such as [true, false]");
      }
    }
    if (v["stage_multipliers"]) d.stageMultipliers = r.intList(*v["stage_multipliers"], "'domain.stage_multipliers'");
    if (v["min_threads"]) d.minThreads = static_cast<int>(r.number(*v["min_threads"], "'domain.min_threads'"));
    if (v["max_fold"]) d.maxFold = static_cast<int>(r.number(*v["max_fold"], "'domain.max_fold'"));
  }
  if (layout && !r.failed()) {
    auto v = readKeys(*layout, "layout", sourceName, &error, {"block", "fold", "stage", "order", "cache", "unroll"});
    h.pinned = true;
    h.domain.stagesExhaustive = true;
    LayoutDomain& d = h.domain;
    if (v["block"]) {
      d.blocks = {r.intList(*v["block"], "'layout.block'")};
    } else {
      r.fail(*layout, "[layout] needs 'block', e.g. block = [16, 16]");
    }
    if (v["fold"]) d.folds = {r.intList(*v["fold"], "'layout.fold'")};
    if (d.folds.empty() && !d.blocks.empty()) d.folds = {std::vector<int>(d.blocks[0].size(), 1)};
    d.stages = {};
    if (v["stage"]) d.stages = r.stages(*v["stage"], true);
    if (v["order"]) d.orders = {r.nameList(*v["order"], "'layout.order'")};
    d.cacheSets = std::vector<std::vector<std::string>>{{}};
    if (v["cache"]) d.cacheSets = std::vector<std::vector<std::string>>{r.nameList(*v["cache"], "'layout.cache'")};
    d.unroll = {true};
    if (const toml::node* u = v["unroll"]) {
      if (!u->is_boolean())
        r.fail(*u, "'layout.unroll' must be true or false");
      else
        d.unroll = {u->as_boolean()->get()};
    }
  }
  if (peripheral && !r.failed()) {
    auto v = readKeys(*peripheral, "peripheral", sourceName, &error,
                      {"unroll_group", "branch", "loop_iteration", "caching_instruction", "uncoalesced_index",
                       "thread_overhead"});
    PeripheralCosts& c = h.costs;
    if (const toml::node* g = v["unroll_group"]) {
      c.unrollGroup = static_cast<int>(r.number(*g, "'peripheral.unroll_group'"));
      if (c.unrollGroup < 1) r.fail(*g, "'peripheral.unroll_group' must be at least 1");
    }
    if (v["branch"]) c.perBranch = r.number(*v["branch"], "'peripheral.branch'");
    if (v["loop_iteration"]) c.perLoopIteration = r.number(*v["loop_iteration"], "'peripheral.loop_iteration'");
    if (v["caching_instruction"]) c.perCachingInst = r.number(*v["caching_instruction"], "'peripheral.caching_instruction'");
    if (v["uncoalesced_index"]) c.perUncoalescedAccess = r.number(*v["uncoalesced_index"], "'peripheral.uncoalesced_index'");
    if (v["thread_overhead"]) c.perThreadOverhead = r.number(*v["thread_overhead"], "'peripheral.thread_overhead'");
  }
  if (r.failed()) return error;
  return h;
}

Expected<LayoutHints> loadLayoutHints(const std::string& path, const PeripheralCosts& defaults) {
  Expected<std::string> text = readTextFile(path, "hints file");
  if (!text) return std::move(text).takeError();
  return parseLayoutHints(*text, path, defaults);
}

}  // namespace foresight::skeleton
