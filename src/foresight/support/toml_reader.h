// SPDX-License-Identifier: Apache-2.0
/// \file
/// `TableReader`: strict reading of one TOML table. It hands out keys one at a time and remembers
/// which were read; `finish()` turns every key left over into an "unknown key" error with a
/// "did you mean" suggestion, so a misspelt key fails instead of being ignored. The first error is
/// kept and later reads become no-ops, so loaders are written straight-line. Include only from
/// .cpp files (it pulls in toml++).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <toml++/toml.h>
#include <vector>

#include "foresight/support/edit_distance.h"
#include "foresight/support/error.h"
#include "foresight/support/quantity.h"

namespace foresight {

/// Parses TOML text; a syntax error becomes an Error at its file:line:column.
inline Expected<toml::table> parseToml(std::string_view text, const std::string& sourceName) {
  try {
    return toml::parse(text, sourceName);
  } catch (const toml::parse_error& e) {
    return makeError(std::string(e.description()), sourceName,
                     static_cast<int>(e.source().begin.line),
                     static_cast<int>(e.source().begin.column));
  }
}

/// The physical dimension of a key, which fixes the units it accepts.
enum class Dim { Count, Frequency, Bytes, Cycles, Bandwidth, IssueRate, Duration };

/// Reads one TOML table strictly. The first error is kept; later reads become no-ops so the
/// loader can be written straight-line and check `failed()` at the end of each section.
/// A parameter whose value is a list (`value = [0, 8, 16]`): its element type.
template <class T>
struct IsList : std::false_type {
  using Element = T;
};
template <class E>
struct IsList<std::vector<E>> : std::true_type {
  using Element = E;
};

class TableReader {
 public:
  TableReader(const toml::table& table, std::string path, const std::string& file, Error* error)
      : table_(table), path_(std::move(path)), file_(file), error_(error) {}

  /// A required sub-table.
  const toml::table* table(const std::string& key) {
    const toml::node* node = take(key, /*required=*/true);
    if (!node) return nullptr;
    if (!node->is_table()) return fail(*node, "'" + qualified(key) + "' must be a table"), nullptr;
    return node->as_table();
  }

  /// An optional sub-table.
  const toml::table* optionalTable(const std::string& key) {
    const toml::node* node = take(key, /*required=*/false);
    if (!node) return nullptr;
    if (!node->is_table()) return fail(*node, "'" + qualified(key) + "' must be a table"), nullptr;
    return node->as_table();
  }

  std::string string(const std::string& key) {
    const toml::node* node = take(key, true);
    if (!node) return {};
    if (!node->is_string()) return fail(*node, "'" + qualified(key) + "' must be a string"), "";
    return node->as_string()->get();
  }

  /// A string that must be one of `choices`.
  std::string choice(const std::string& key, const std::vector<std::string>& choices) {
    const toml::node* node = take(key, true);
    if (!node) return {};
    if (!node->is_string()) return fail(*node, "'" + qualified(key) + "' must be a string"), "";
    const std::string value = node->as_string()->get();
    for (const std::string& c : choices) {
      if (c == value) return value;
    }
    std::string all;
    for (const std::string& c : choices) all += (all.empty() ? "" : ", ") + ("'" + c + "'");
    fail(*node, "'" + qualified(key) + "' is '" + value + "', expected one of " + all +
                    didYouMean(value, choices));
    return {};
  }

  std::vector<std::string> stringArray(const std::string& key) {
    std::vector<std::string> out;
    const toml::node* node = take(key, false);
    if (!node) return out;
    const toml::array* array = node->as_array();
    if (!array) return fail(*node, "'" + qualified(key) + "' must be an array of strings"), out;
    for (const toml::node& element : *array) {
      if (!element.is_string()) {
        fail(element, "'" + qualified(key) + "' must be an array of strings");
        return out;
      }
      out.push_back(element.as_string()->get());
    }
    return out;
  }

  /// A required `{ value, unit?, source }` number, converted to the canonical unit of `dim`.
  template <class T>
  Param<T> param(const std::string& key, Dim dim) {
    const toml::node* node = take(key, true);
    return node ? readParam<T>(*node, key, dim) : Param<T>{};
  }

  template <class T>
  std::optional<Param<T>> optionalParam(const std::string& key, Dim dim) {
    const toml::node* node = take(key, false);
    if (!node) return std::nullopt;
    return readParam<T>(*node, key, dim);
  }

  /// An optional key of any type, for values with their own structure (marks the key read);
  /// null when absent.
  const toml::node* optionalNode(const std::string& key) { return take(key, false); }

  /// A required plain number.
  double number(const std::string& key) {
    const toml::node* node = take(key, true);
    return node ? readNumber(*node, key) : 0.0;
  }

  /// An optional plain number.
  std::optional<double> optionalNumber(const std::string& key) {
    const toml::node* node = take(key, false);
    if (!node) return std::nullopt;
    return readNumber(*node, key);
  }

  /// An optional non-negative whole number (a count or a size in bytes) below `max`.
  std::optional<long long> optionalWhole(const std::string& key,
                                         long long max = std::numeric_limits<int>::max()) {
    const toml::node* node = take(key, false);
    if (!node) return std::nullopt;
    const double v = readNumber(*node, key);
    if (failed()) return std::nullopt;
    if (v != std::floor(v)) {
      fail(*node, "'" + qualified(key) + "' must be a whole number");
      return std::nullopt;
    }
    if (v > static_cast<double>(max)) {
      fail(*node, "'" + qualified(key) + "' is too large");
      return std::nullopt;
    }
    return static_cast<long long>(v);
  }

  /// An error located at a key of this table (the key, not its value).
  void failAtKey(const std::string& key, const std::string& message) {
    for (auto&& [k, node] : table_) {
      if (k.str() == key) return failAtSource(k.source(), message);
    }
    fail(table_, message);
  }

  /// An optional array of 1 to 3 positive integers (grid / block extents).
  std::vector<long long> extents(const std::string& key, bool required) {
    std::vector<long long> out;
    const toml::node* node = take(key, required);
    if (!node) return out;
    const toml::array* array = node->as_array();
    if (!array || array->empty() || array->size() > 3) {
      fail(*node, "'" + qualified(key) + "' must be an array of 1 to 3 positive integers");
      return out;
    }
    for (const toml::node& element : *array) {
      // is_integer() first: value<long long>() of a float such as 5E036 converts out of range.
      const std::optional<long long> v = element.is_integer() ? element.value<long long>() : std::nullopt;
      if (!v || *v <= 0) {
        fail(element, "'" + qualified(key) + "' must be an array of 1 to 3 positive integers");
        return out;
      }
      out.push_back(*v);
    }
    return out;
  }

  /// Reports every key that was never read, then every required key that was absent. Unknown
  /// keys come first: a missing required key is most often a misspelt one, and the misspelling
  /// (with its line and a suggestion among all the section's keys) is the useful message.
  void finish() {
    if (failed()) return;
    std::vector<std::string> known(read_.begin(), read_.end());
    known.insert(known.end(), expected_.begin(), expected_.end());
    for (const std::string& name : keys()) {
      if (read_.count(name)) continue;
      const toml::key* key = nullptr;
      for (auto&& [k, node] : table_) {
        if (k.str() == name) key = &k;
      }
      failAtSource(key->source(), "unknown key '" + qualified(name) + "'" + didYouMean(name, known));
      return;
    }
    if (!missing_.empty()) fail(table_, "missing required key '" + qualified(missing_.front()) + "'");
  }

  /// Every sub-table's key (for sections whose keys are names, such as [memory.*]).
  /// In file order (toml++ keeps tables sorted by name; the order of levels carries meaning).
  std::vector<std::string> keys() const {
    std::vector<std::pair<std::pair<long, long>, std::string>> located;
    for (auto&& [key, node] : table_) {
      located.push_back({{static_cast<long>(node.source().begin.line),
                          static_cast<long>(node.source().begin.column)},
                         std::string(key.str())});
    }
    std::sort(located.begin(), located.end());
    std::vector<std::string> out;
    for (auto& [position, name] : located) out.push_back(std::move(name));
    return out;
  }

  bool failed() const { return error_->message.size() > 0; }
  const std::string& path() const { return path_; }

  void failAt(const toml::node& node, const std::string& message) { fail(node, message); }
  /// An error about the table itself (e.g. a missing key), located at the table.
  void failHere(const std::string& message) { fail(table_, message); }

 private:
  std::string qualified(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
  }

  const toml::node* take(const std::string& key, bool required) {
    expected_.insert(key);
    if (failed()) return nullptr;
    const toml::node* node = table_.get(key);
    if (!node) {
      if (required) missing_.push_back(key);
      return nullptr;
    }
    read_.insert(key);
    return node;
  }

  void fail(const toml::node& node, const std::string& message) { failAtSource(node.source(), message); }

  void failAtSource(const toml::source_region& where, const std::string& message) {
    if (failed()) return;
    *error_ = makeError(message, file_, static_cast<int>(where.begin.line),
                        static_cast<int>(where.begin.column));
  }

  double readNumber(const toml::node& node, const std::string& key) {
    const std::optional<double> v = node.value<double>();
    if (!(node.is_integer() || node.is_floating_point()) || !v || !std::isfinite(*v)) {
      fail(node, "'" + qualified(key) + "' must be a number");
      return 0.0;
    }
    if (*v < 0) {
      fail(node, "'" + qualified(key) + "' must not be negative");
      return 0.0;
    }
    return *v;
  }

  template <class T>
  Param<T> readParam(const toml::node& node, const std::string& key, Dim dim) {
    Param<T> out;
    const toml::table* t = node.as_table();
    if (!t) {
      fail(node, "'" + qualified(key) + "' must be an inline table { value = ..., " +
                     (dim == Dim::Count ? std::string() : std::string("unit = \"...\", ")) +
                     "source = \"...\" }");
      return out;
    }
    TableReader inner(*t, qualified(key), file_, error_);
    const toml::node* valueNode = inner.take("value", true);
    std::string unit;
    if (dim != Dim::Count) unit = inner.string("unit");
    const toml::node* sourceNode = inner.take("source", true);
    inner.finish();
    if (failed()) return out;

    // The value: one number, or (a list parameter) a non-empty array of numbers.
    std::vector<const toml::node*> elements;
    if constexpr (IsList<T>::value) {
      const toml::array* array = valueNode->as_array();
      if (!array || array->empty()) {
        fail(*valueNode, "'" + qualified(key) + ".value' must be a non-empty array of numbers");
        return out;
      }
      for (const toml::node& e : *array) elements.push_back(&e);
    } else {
      elements.push_back(valueNode);
    }
    std::vector<double> raws;
    for (const toml::node* e : elements) {
      std::optional<double> raw = e->value<double>();
      if (!raw || !std::isfinite(*raw)) {
        fail(*e, "'" + qualified(key) + ".value' must be " + (IsList<T>::value ? "an array of numbers" : "a number"));
        return out;
      }
      if (*raw < 0) {
        fail(*e, "'" + qualified(key) + ".value' must not be negative");
        return out;
      }
      raws.push_back(*raw);
    }
    std::optional<double> scale = unitScale(dim, unit);
    if (!scale) {
      fail(*t, "'" + qualified(key) + "' has unit '" + unit + "', expected " + unitList(dim));
      return out;
    }
    for (size_t i = 0; i < raws.size(); ++i) {
      using E = typename IsList<T>::Element;
      const double canonical = raws[i] * *scale;
      // 1e308 GHz is finite as written but not in Hz; nothing a GPU has comes near 1e30.
      if (!std::isfinite(canonical) || canonical > 1e30) {
        fail(*elements[i], "'" + qualified(key) + ".value' is too large");
        return out;
      }
      E v{};
      if constexpr (std::is_integral_v<E>) {
        if (canonical != std::floor(canonical)) {
          fail(*elements[i], "'" + qualified(key) + ".value' must be a whole number");
          return out;
        }
        if (canonical >= static_cast<double>(std::numeric_limits<E>::max())) {
          fail(*elements[i], "'" + qualified(key) + ".value' is too large");
          return out;
        }
      }
      v = static_cast<E>(canonical);
      if constexpr (IsList<T>::value) {
        out.value.push_back(v);
      } else {
        out.value = v;
      }
    }
    if (!sourceNode->is_string()) {
      fail(*sourceNode, "'" + qualified(key) + ".source' must be a string");
      return out;
    }
    Expected<Provenance> provenance = parseProvenance(sourceNode->as_string()->get());
    if (!provenance) {
      fail(*sourceNode, "'" + qualified(key) + ".source': " + provenance.error().message);
      return out;
    }
    out.source = *provenance;
    out.unit = unit;
    return out;
  }

  static std::optional<double> unitScale(Dim dim, const std::string& unit) {
    switch (dim) {
      case Dim::Count: return 1.0;
      case Dim::Frequency:
        if (unit == "GHz") return 1.0;
        if (unit == "MHz") return 1e-3;
        return std::nullopt;
      case Dim::Bytes:
        if (unit == "B") return 1.0;
        if (unit == "KiB") return 1024.0;
        if (unit == "MiB") return 1024.0 * 1024.0;
        if (unit == "GiB") return 1024.0 * 1024.0 * 1024.0;
        return std::nullopt;
      case Dim::Cycles:
        if (unit == "cycles") return 1.0;
        return std::nullopt;
      case Dim::Bandwidth:
        if (unit == "GB/s") return 1.0;
        if (unit == "TB/s") return 1000.0;
        // Converted to GB/s by the caller once the SM count and clock are known.
        if (unit == "B/cycle/SM") return 1.0;
        return std::nullopt;
      case Dim::IssueRate:
        if (unit == "warp_inst/cycle") return 1.0;
        break;
      case Dim::Duration:  // canonical unit: µs
        if (unit == "us") return 1.0;
        if (unit == "ns") return 1e-3;
        if (unit == "ms") return 1e3;
        return std::nullopt;
    }
    return std::nullopt;
  }

  static std::string unitList(Dim dim) {
    switch (dim) {
      case Dim::Count: return "none";
      case Dim::Frequency: return "'MHz' or 'GHz'";
      case Dim::Bytes: return "'B', 'KiB', 'MiB' or 'GiB'";
      case Dim::Cycles: return "'cycles'";
      case Dim::Bandwidth: return "'GB/s', 'TB/s' or 'B/cycle/SM'";
      case Dim::IssueRate: return "'warp_inst/cycle'";
      case Dim::Duration: return "'ns', 'us' or 'ms'";
    }
    return "";
  }

  const toml::table& table_;
  std::string path_;
  const std::string& file_;
  Error* error_;
  std::set<std::string> read_;
  std::set<std::string> expected_;
  std::vector<std::string> missing_;  ///< required keys that were absent, in request order
};

}  // namespace foresight
