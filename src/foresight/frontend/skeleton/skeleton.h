// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Skeleton`: the parsed form of a GROPHECY code skeleton (`.sk`, docs/skeleton-language.md):
/// macros, typed arrays with hints, the parallel loop space and a statement tree whose array
/// indices are affine forms over loop variables plus at most one indirect (data-dependent) term.
/// Everything is macro-evaluated at parse time, so a Skeleton describes one problem size.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace foresight::skeleton {

/// A 1-based position in the skeleton file.
struct SourceLoc {
  int line = 0;
  int column = 0;
};

/// Bit set of variable ids (at most 64 variables per skeleton).
using VarMask = std::uint64_t;

/// `constant + Σ coef·var`: the direct part of an index or loop bound.
struct Affine {
  long long constant = 0;
  std::vector<std::pair<int, long long>>
      terms;  ///< (variable id, coefficient), no zero coefficients
  [[nodiscard]] bool isConstant() const { return terms.empty(); }
  [[nodiscard]] VarMask vars() const;
};

struct Ref;

/// One array subscript: an affine part plus an optional indirect term `indirectCoef × value`,
/// where value is loaded data (a nested reference, or a scalar bound to one).
struct Index {
  Affine affine;
  std::shared_ptr<const Ref> indirect;  ///< the reference whose loaded value is used; null = affine
  long long indirectCoef = 1;
  VarMask vars = 0;  ///< variables the subscript names directly (affine + the indirect ref's own)
  VarMask deps = 0;  ///< all variables the value depends on (transitively, through data bounds)
};

/// An array reference `A[i][k]`.
struct Ref {
  int array = -1;
  std::vector<Index> dims;
  SourceLoc loc;
};

/// What kind of variable.
enum class VarKind { Parallel, For, Stream };

/// A loop variable: a parallel dimension or an inner `for` / `stream` loop.
struct Var {
  std::string name;
  VarKind kind = VarKind::Parallel;
  long long lo = 0;  ///< static bounds (data-dependent loops: 0)
  long long hi = 0;  ///< exclusive
  long long step = 1;
  bool dataBounds = false;  ///< bounds depend on loaded data; trip count is the hint
  double trip = 0;          ///< iterations per execution of the loop (hint for data bounds)
  VarMask boundDeps = 0;    ///< variables the data-dependent bounds depend on
  int parent = -1;          ///< enclosing loop variable (-1 = the task body)
};

/// Element type of an array.
struct Array {
  std::string name;
  std::string type;  ///< "float", "int", "double", ...
  int elemBytes = 4;
  std::vector<long long> dims;
  SourceLoc loc;
  std::optional<std::pair<long long, long long>>
      indexRange;                 ///< hints<range=lo:hi>: values of this index array
  std::string sampleFile;         ///< hints<sample="file">, as written
  std::vector<long long> sample;  ///< the sample's values, row-major (filled by the loader)
};

/// Statement kinds of a task body.
enum class StmtKind { Comp, Load, Store, Bind, Loop, Branch };

/// One statement.
struct Stmt {
  StmtKind kind = StmtKind::Comp;
  SourceLoc loc;
  double count = 0;        ///< comp: functional instructions; branch: conditional branches
  double prob = 1;         ///< branch: probability that its block runs
  Ref ref;                 ///< load, store, bind
  std::string scalar;      ///< bind: the scalar's name
  int var = -1;            ///< loop: its variable
  std::vector<Stmt> body;  ///< loop and branch bodies
};

/// A whole skeleton.
struct Skeleton {
  std::string path;  ///< source name used in messages
  std::string name;  ///< file stem, the kernel name
  std::map<std::string, long long> macros;
  std::vector<Array> arrays;
  std::vector<Var> vars;  ///< parallel dimensions first (outermost first), then inner loops
  int parallelDims = 0;
  std::vector<Stmt> body;

  [[nodiscard]] long long extent(int dim) const { return vars[dim].hi - vars[dim].lo; }
  /// Number of tasks: the product of the parallel extents.
  [[nodiscard]] long long loopSpaceSize() const;
  /// The array called `name`, or -1.
  [[nodiscard]] int findArray(const std::string& name) const;
};

}  // namespace foresight::skeleton
