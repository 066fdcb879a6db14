// SPDX-License-Identifier: Apache-2.0
/// \file
/// Hints files.
#include "foresight/frontend/skeleton/layout_hints.h"

#include <toml++/toml.h>
#include <fstream>
#include <sstream>

#include "foresight/support/edit_distance.h"
#include "foresight/support/text_file.h"
#include "foresight/support/toml_reader.h"

namespace foresight::skeleton {

namespace {

class HintReader {
 public:
  HintReader(std::string source) : source_(std::move(source)) {}
  bool failed() const { return !error_.message.empty(); }
  Error error() const { return error_; }

  void fail(const toml::node& n, const std::string& message) {
    if (failed()) return;
    error_ = makeError(message, source_, static_cast<int>(n.source().begin.line),
                       static_cast<int>(n.source().begin.column));
  }
  void checkKeys(const toml::table& t, const std::string& where,
                 const std::vector<std::string>& allowed) {
    for (const auto& [k, v] : t) {
      const std::string key(k.str());
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(v, "unknown key '" + key + "' in " + where + " (known: " + list + ")" +
                    didYouMean(key, allowed));
        return;
      }
    }
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
  Error error_;
};

}  // namespace

Expected<LayoutHints> parseLayoutHints(std::string_view text, const std::string& sourceName,
                                       const PeripheralCosts& defaults) {
  Expected<toml::table> parsed = parseToml(text, sourceName);
  if (!parsed) return std::move(parsed).takeError();
  const toml::table& root = *parsed;
  HintReader r(sourceName);
  LayoutHints h;
  h.costs = defaults;
  r.checkKeys(root, "the hints file", {"domain", "layout", "peripheral"});
  if (root.contains("domain") && root.contains("layout")) {
    r.fail(*root.get("layout"), "a hints file has either [domain] or [layout], not both");
  }
  if (const toml::node* n = root.get("domain"); n && !r.failed()) {
    const toml::table* t = n->as_table();
    if (!t)
      return makeError("'domain' must be a table", sourceName,
                       static_cast<int>(n->source().begin.line));
    r.checkKeys(*t, "[domain]",
                {"block", "fold", "stage", "order", "cache", "unroll", "stage_multipliers",
                 "min_threads", "max_fold"});
    LayoutDomain& d = h.domain;
    if (const toml::node* v = t->get("block")) d.blocks = r.shapeList(*v, "'domain.block'");
    if (const toml::node* v = t->get("fold")) d.folds = r.shapeList(*v, "'domain.fold'");
    if (const toml::node* v = t->get("stage")) d.stages = r.stages(*v, false);
    if (const toml::node* v = t->get("order")) {
      if (const toml::array* a = v->as_array(); a && !a->empty()) {
        for (const toml::node& e : *a) d.orders.push_back(r.nameList(e, "'domain.order' entries"));
      } else {
        r.fail(*v,
               "'domain.order' must be an array of orders, e.g. [[\"r\", \"c\"], [\"c\", \"r\"]]");
      }
    }
    if (const toml::node* v = t->get("cache")) {
      std::vector<std::vector<std::string>> sets;
      if (const toml::array* a = v->as_array()) {
        for (const toml::node& e : *a) sets.push_back(r.nameList(e, "'domain.cache' entries"));
      } else {
        r.fail(*v, "'domain.cache' must be an array of arrays of names, e.g. [[\"A\", \"B\"], []]");
      }
      d.cacheSets = sets;
    }
    if (const toml::node* v = t->get("unroll")) {
      d.unroll.clear();
      if (const toml::array* a = v->as_array()) {
        for (const toml::node& e : *a) {
          if (!e.is_boolean())
            r.fail(e, "'domain.unroll' must hold true and/or false");
          else
            d.unroll.push_back(e.as_boolean()->get());
        }
      } else {
        r.fail(*v, "'domain.unroll' must be an array such as [true, false]");
      }
    }
    if (const toml::node* v = t->get("stage_multipliers"))
      d.stageMultipliers = r.intList(*v, "'domain.stage_multipliers'");
    if (const toml::node* v = t->get("min_threads"))
      d.minThreads = static_cast<int>(r.number(*v, "'domain.min_threads'"));
    if (const toml::node* v = t->get("max_fold"))
      d.maxFold = static_cast<int>(r.number(*v, "'domain.max_fold'"));
  }
  if (const toml::node* n = root.get("layout"); n && !r.failed()) {
    const toml::table* t = n->as_table();
    if (!t)
      return makeError("'layout' must be a table", sourceName,
                       static_cast<int>(n->source().begin.line));
    r.checkKeys(*t, "[layout]", {"block", "fold", "stage", "order", "cache", "unroll"});
    h.pinned = true;
    h.domain.stagesExhaustive = true;
    LayoutDomain& d = h.domain;
    if (const toml::node* v = t->get("block")) {
      d.blocks = {r.intList(*v, "'layout.block'")};
    } else {
      r.fail(*n, "[layout] needs 'block', e.g. block = [16, 16]");
    }
    if (const toml::node* v = t->get("fold")) d.folds = {r.intList(*v, "'layout.fold'")};
    if (d.folds.empty() && !d.blocks.empty()) d.folds = {std::vector<int>(d.blocks[0].size(), 1)};
    d.stages = {};
    if (const toml::node* v = t->get("stage")) d.stages = r.stages(*v, true);
    if (const toml::node* v = t->get("order")) d.orders = {r.nameList(*v, "'layout.order'")};
    d.cacheSets = std::vector<std::vector<std::string>>{{}};
    if (const toml::node* v = t->get("cache"))
      d.cacheSets = std::vector<std::vector<std::string>>{r.nameList(*v, "'layout.cache'")};
    d.unroll = {true};
    if (const toml::node* v = t->get("unroll")) {
      if (!v->is_boolean())
        r.fail(*v, "'layout.unroll' must be true or false");
      else
        d.unroll = {v->as_boolean()->get()};
    }
  }
  if (const toml::node* n = root.get("peripheral"); n && !r.failed()) {
    const toml::table* t = n->as_table();
    if (!t)
      return makeError("'peripheral' must be a table", sourceName,
                       static_cast<int>(n->source().begin.line));
    r.checkKeys(*t, "[peripheral]",
                {"unroll_group", "branch", "loop_iteration", "caching_instruction",
                 "uncoalesced_index", "thread_overhead"});
    PeripheralCosts& c = h.costs;
    if (const toml::node* v = t->get("unroll_group")) {
      c.unrollGroup = static_cast<int>(r.number(*v, "'peripheral.unroll_group'"));
      if (c.unrollGroup < 1) r.fail(*v, "'peripheral.unroll_group' must be at least 1");
    }
    if (const toml::node* v = t->get("branch")) c.perBranch = r.number(*v, "'peripheral.branch'");
    if (const toml::node* v = t->get("loop_iteration"))
      c.perLoopIteration = r.number(*v, "'peripheral.loop_iteration'");
    if (const toml::node* v = t->get("caching_instruction"))
      c.perCachingInst = r.number(*v, "'peripheral.caching_instruction'");
    if (const toml::node* v = t->get("uncoalesced_index"))
      c.perUncoalescedAccess = r.number(*v, "'peripheral.uncoalesced_index'");
    if (const toml::node* v = t->get("thread_overhead"))
      c.perThreadOverhead = r.number(*v, "'peripheral.thread_overhead'");
  }
  if (r.failed()) return r.error();
  return h;
}

Expected<LayoutHints> loadLayoutHints(const std::string& path, const PeripheralCosts& defaults) {
  Expected<std::string> text = readTextFile(path, "hints file");
  if (!text) return std::move(text).takeError();
  return parseLayoutHints(*text, path, defaults);
}

}  // namespace foresight::skeleton
