// SPDX-License-Identifier: Apache-2.0
/// \file
/// Experiment manifests of the validation corpus (format: docs/validation.md). One experiment is
/// a `.cu` file plus a TOML manifest: base `-D` macros and named variants that override them,
/// buffers (element type, count, init pattern, role), scalar arguments, an ordered sequence of
/// launches, and optionally a CPU reference check. Sizes and extents are integer expressions
/// over the macros (validation/expression.h), so `resolveVariant` turns a manifest and a variant
/// into concrete numbers for both the runner (via a plan, validation/plan.h) and `validate`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "foresight/ir/launch.h"
#include "foresight/support/error.h"
#include "foresight/support/patterns.h"

namespace foresight {

/// What a kernel does with a buffer.
enum class BufferRole { Input, Output, InOut };

/// One device buffer as written in the manifest.
struct BufferSpec {
  std::string name;
  ElemType type = ElemType::F32;
  std::string count;  ///< element count, an expression
  std::string init;   ///< "kind[:param[:param]]", params are expressions (see kInitPatterns)
  BufferRole role = BufferRole::Input;
};

/// One scalar kernel argument.
struct ScalarSpec {
  std::string name;
  ElemType type = ElemType::I32;
  std::string value;  ///< an expression for integer types, a decimal number for f32/f64
};

/// One kernel launch of the experiment's sequence.
struct LaunchSpec {
  std::string label;               ///< the [launch.<label>] table name
  std::string kernel;              ///< extern "C" kernel name in the .cu file
  std::vector<std::string> grid;   ///< 1 to 3 expressions
  std::vector<std::string> block;  ///< 1 to 3 expressions
  std::string sharedBytes = "0";   ///< dynamic shared memory, expression
  std::string repeat = "1";        ///< launches of this kernel in a row, expression
  /// cudaFuncAttributePreferredSharedMemoryCarveout in percent (0..100), expression; "" = unset
  /// (the driver's choice), as `--carveout`.
  std::string carveout;
  std::vector<std::string> args;   ///< buffer or scalar names, in parameter order
};

/// A CPU reference check of one output buffer.
struct CheckSpec {
  std::string reference;            ///< one of kCheckReferences
  std::string output;               ///< buffer compared
  std::vector<std::string> inputs;  ///< buffers the reference reads
  std::vector<std::string> params;  ///< expressions (sizes), see docs/validation.md
  double tolerance = 1e-4;          ///< bound on ||out - ref|| / ||ref||
};

/// A named set of macro overrides.
struct VariantSpec {
  std::string name;
  std::map<std::string, long long> defines;  ///< overrides of Manifest::defines
};

/// A frontend hint as written: "FILE:LINE=VALUE" (a trip count expression, or a probability).
struct HintSpec {
  std::string file;
  int line = 0;
  std::string value;
};

/// One experiment.
struct Manifest {
  std::string path;    ///< the manifest file
  std::string name;    ///< unique in the corpus
  std::string source;  ///< the .cu file, resolved against the manifest's directory
  std::string suite;   ///< polybench, rodinia, matmul, transpose, reduction, spmv, stencil, micro
  std::string group;   ///< variant group for rank correlation (default: name)
  /// The variants are alternative ways to solve one problem (block shapes, tiles, coarsening), so
  /// choosing among them is a tuning decision and validate reports the model's regret; false for
  /// sweeps of different problems (sizes, inputs, microbenchmark parameters).
  bool alternatives = true;
  std::string description;
  bool rotate = true;   ///< rotate buffer copies between samples so caches do not flatter
  bool reinit = false;  ///< re-upload every buffer before each sample (stateful kernels, e.g. bfs)
  bool flush = false;   ///< overwrite a scratch buffer of 2x the L2 size before each sample
  std::map<std::string, long long> defines;  ///< base -D macros
  std::vector<VariantSpec> variants;         ///< at least one ("default" when none is written)
  std::vector<BufferSpec> buffers;
  std::vector<ScalarSpec> scalars;
  std::vector<LaunchSpec> launches;  ///< in sequence order
  std::optional<CheckSpec> check;
  /// Hints for frontends that analyse the source (CUDA): trip counts of loops whose bounds come
  /// from memory (`trips`, integer expressions) and branch probabilities (`branches`).
  std::vector<HintSpec> trips;
  std::vector<HintSpec> branches;
};

/// Init patterns (support/patterns.h): zero, ones, iota, random (floats in [0,1), integers in
/// [0,100)), random_int:LO:HI, constant:V, mod:K (i % K), poison (NaN / all ones; for outputs),
/// csr_rowptr:K (i*K), csr_cols:K:NCOLS (column of the j-th entry of row i, distinct within a
/// row), torus_cols:W:N (4 neighbours of node i on a W-wide torus of N nodes), chase:S
/// ((i + S) % count, a pointer-chasing ring).
/// Reference checks the runner implements: gemm (M,N,K), transpose (ROWS,COLS), copy (N),
/// reduce_sum (N), spmv_csr (ROWS).
[[nodiscard]] const std::vector<std::string>& checkReferences();

/// Parses one manifest. Unknown keys, unknown names in args/check/variants and malformed
/// expressions (checked by resolving every variant) are Errors with file:line.
[[nodiscard]] Expected<Manifest> loadManifestFromString(const std::string& text,
                                                        const std::string& path);
[[nodiscard]] Expected<Manifest> loadManifest(const std::string& path);

/// Every `*.toml` manifest under `dir` (recursively, skipping `measurements/`), sorted by name;
/// duplicate names are an Error.
[[nodiscard]] Expected<std::vector<Manifest>> loadCorpus(const std::string& dir);

/// A buffer with concrete numbers.
struct ResolvedBuffer {
  std::string name;
  ElemType type = ElemType::F32;
  long long count = 0;
  std::string initKind;
  std::vector<long long> initParams;  ///< integers; constant:V keeps V in initValue
  double initValue = 0;
  BufferRole role = BufferRole::Input;
};

struct ResolvedScalar {
  std::string name;
  ElemType type = ElemType::I32;
  long long intValue = 0;  ///< integer types
  double floatValue = 0;   ///< f32 / f64
};

struct ResolvedLaunch {
  std::string kernel;
  Launch launch;  ///< grid, block, dynamic shared, scalar args, macros
  long long repeat = 1;
  std::vector<std::string> args;
};

/// A hint with its value evaluated.
struct ResolvedHint {
  std::string file;
  int line = 0;
  double value = 0;
};

struct ResolvedCheck {
  std::string reference;
  std::string output;
  std::vector<std::string> inputs;
  std::vector<long long> params;
  double tolerance = 0;
};

/// One experiment variant with every expression evaluated.
struct ResolvedExperiment {
  std::string experiment;
  std::string variant;
  std::string group;
  bool alternatives = true;  ///< Manifest::alternatives
  std::string source;
  std::string manifestPath;
  bool rotate = true;
  bool reinit = false;
  bool flush = false;
  std::map<std::string, long long> defines;
  std::vector<ResolvedBuffer> buffers;
  std::vector<ResolvedScalar> scalars;
  std::vector<ResolvedLaunch> launches;
  std::optional<ResolvedCheck> check;
  std::vector<ResolvedHint> trips;
  std::vector<ResolvedHint> branches;

  /// Total bytes of all buffers.
  [[nodiscard]] long long totalBytes() const;
};

/// Evaluates every expression of `manifest` for one of its variants. With `arrayContents`, each
/// launch also gets the contents of the integer buffers it reads (Launch::arrayData by position,
/// "@i": their init patterns, seeded as the runner seeds them), so the CUDA frontend reads the
/// indices the GPU reads (`validate --array-contents`).
[[nodiscard]] Expected<ResolvedExperiment> resolveVariant(const Manifest& manifest, const VariantSpec& variant,
                                                          bool arrayContents = false);

}  // namespace foresight
