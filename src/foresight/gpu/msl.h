// SPDX-License-Identifier: Apache-2.0
/// \file
/// PORPLE's memory specification language (MSL, seed 002 §2; grammar restated in
/// ../shared/design/porple.md §2.2): one entry per memory of a GPU — name, id, software
/// management, read/write, dimensionality, size, block size, banks, latency, upper and lower
/// levels, sharing scope, concurrency factor α and serialization condition. `foresight place`
/// reads an MSL file (`--msl FILE`) or the equivalent derived from a GPU description
/// (mslFromGpu), and the placement model walks it: which memories an array placed in each
/// memory passes through, their latencies, capacities, α and transaction rules.
///
/// Extensions (documented in docs/place.md#msl): an optional fifth processor item
/// `clk = <MHz> MHz;` (converts `ns`/`ms`/`sec` latencies to cycles), and optional trailing
/// attributes of an entry before its `;`: `placement=<global|readonly|texture|shared|constant|
/// l2persist>` (what placing an array in/through this memory means; inferred when absent) and
/// `path=<name>` (the data-transfer path of PORPLE's model; inferred when absent).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/support/error.h"

namespace foresight {

/// Where an array may live (PORPLE's placement options, plus Ampere/Hopper's persisting L2).
enum class Placement { Global, ReadOnly, Texture, Shared, Constant, PersistingL2 };
inline constexpr int kNumPlacements = 6;
/// "global", "readonly", "texture", "shared", "constant", "l2persist".
[[nodiscard]] const char* placementName(Placement p);
/// PORPLE's one-letter code: G, R, T, S, C, P.
[[nodiscard]] char placementLetter(Placement p);
[[nodiscard]] std::optional<Placement> parsePlacement(std::string_view name);

struct MslPredicate;  // msl.cpp

/// An MSL size: one extent per dimension, in bytes, or in data elements when `elements`.
struct MslSize {
  std::vector<long long> extents;  ///< 1 to 3 values
  bool elements = false;           ///< unit E (elements) instead of B (bytes)
  /// The product of the extents (bytes, or elements when `elements`).
  [[nodiscard]] long long total() const;
};

/// A two-access predicate of MSL (`serialCondition`): true ⇒ the two accesses are serialized.
/// Compiled from C-like integer expressions over address1/2, index1/2, word1/2, blockSize and
/// banks (`floor(x)` allowed; `/` is integer division, which is floor for the non-negative
/// addresses it sees).
struct MslCondition {
  std::string scope;  ///< "warp", "block" or "grid"
  std::string text;   ///< the predicate as written, inside the braces
  /// The closed form it was recognised as (line/sector: one transaction per distinct block of
  /// `blockSize` bytes; address: per distinct address; bank: shared-memory bank conflicts), or
  /// nullopt for a predicate that is none of them (the generic pairwise rule applies).
  std::optional<Serialization> form;
  /// Evaluates the predicate for one pair of accesses (byte addresses, element indices) under the
  /// entry's blockSize (bytes) and banks.
  [[nodiscard]] bool serialized(long long address1, long long address2, long long index1, long long index2,
                                long long blockSize, long long banks) const;
  /// Compiled form (opaque; shared so that copies are cheap).
  std::shared_ptr<const MslPredicate> predicate;
};

/// Which unit shares one instance of a memory.
enum class MslScope { Core, Sm, Tpc, Die };

/// One MSL entry.
struct MslMemory {
  std::string name;
  int id = 0;
  bool softwareManaged = false;      ///< swmng Y
  bool readable = true;              ///< rw contains R
  bool writable = true;              ///< rw contains W
  std::optional<int> dim;            ///< applies only to arrays of this dimensionality; nullopt = na / ?
  std::optional<MslSize> size;       ///< nullopt = ? / om / na
  std::optional<MslSize> blockSize;  ///< nullopt = ? / om / na
  std::optional<int> banks;          ///< nullopt = ? (32 is used)
  double readLatency = 0;            ///< cycles
  double writeLatency = 0;           ///< cycles (= readLatency when one value is given)
  std::vector<std::string> upper;    ///< names (ids resolved), `om` resolved by inverting `lower`
  std::vector<std::string> lower;    ///< names, `om` resolved by inverting `upper`
  MslScope scope = MslScope::Die;
  /// α for <memory-intensive, compute-intensive> kernels; nullopt = ? (the placement model's
  /// default: 1 for constant, 0.2 otherwise — PORPLE's experiments).
  std::optional<std::pair<double, double>> alpha;
  std::optional<MslCondition> serial;  ///< nullopt = ? / om / na
  /// What placing an array in (software-managed) or through (readonly cache) this memory
  /// means; nullopt for a cache that is not itself a placement.
  std::optional<Placement> placement;
  std::string path;  ///< data-transfer path ("global", "texture", "constant")
  int line = 0;      ///< 1-based source line of the entry (0 = derived from a GPU)
};

/// The processor line: `die = D tpc; tpc = T sm; sm = C core;` (+ optional `clk = F MHz;`).
struct MslProcessor {
  int tpcsPerDie = 1;
  int smsPerTpc = 1;
  int coresPerSm = 1;
  std::optional<double> clockMhz;
  [[nodiscard]] int sms() const { return tpcsPerDie * smsPerTpc; }
};

/// A parsed, resolved MSL specification.
struct MslSpec {
  MslProcessor processor;
  std::vector<MslMemory> memories;
  std::string file;  ///< where it was read from ("" = derived), for messages
  std::string gpu;   ///< the GPU it was derived from (mslFromGpu), else ""

  /// The entry with this name, or nullptr.
  [[nodiscard]] const MslMemory* find(std::string_view name) const;
  /// The entry an array placed as `p` is stored in or read through (software-managed with that
  /// placement, or the readonly cache), or nullptr when the GPU offers no such placement.
  [[nodiscard]] const MslMemory* placementMemory(Placement p) const;
  /// The memories an access to an array placed as `p` passes through, nearest to the cores
  /// first, ending at the memory that holds the data (PORPLE's memHier(i)): for global on an
  /// M2075 {L1, L2, globalMem}; shared {sharedMem}; constant {cL1, cL2, constantMem}. Empty when
  /// the placement is not offered.
  [[nodiscard]] std::vector<const MslMemory*> hierarchy(Placement p) const;
};

/// Parses MSL text. Errors name `file` and the line of the offending token: unknown keyword or
/// unit, a field missing, an id or name defined twice, a level reference that names no entry,
/// a malformed serialCondition, a missing processor line.
[[nodiscard]] Expected<MslSpec> parseMsl(std::string_view text, const std::string& file);
/// Reads and parses an MSL file.
[[nodiscard]] Expected<MslSpec> loadMsl(const std::string& path);

/// The MSL equivalent of a GPU description (docs/place.md#msl): its DRAM as `globalMem`, its
/// caches, shared, constant (and constant caches), texture and read-only paths, the persisting
/// L2 window on Ampere/Hopper, with α = 1 for constant and 0.2 otherwise.
[[nodiscard]] MslSpec mslFromGpu(const Gpu& gpu);

/// MSL text of a spec (parseMsl(writeMsl(s)) gives back `s`, except source lines, `file` and `gpu`).
[[nodiscard]] std::string writeMsl(const MslSpec& spec);

}  // namespace foresight
