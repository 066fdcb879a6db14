// SPDX-License-Identifier: Apache-2.0
/// \file
/// The CUDA frontend's entry point: a `.cu`, `.ptx`, `.cubin` or `.sass` file plus a launch
/// becomes, per kernel, a KernelIR with resources from the cubin (`.nv.info`), addresses,
/// sectors, bank wavefronts and hinted trip counts from executing representative warps of the
/// PTX (warp_interpreter.h), and — when nvdisasm decodes the architecture and the SASS control
/// flow can be executed (sass_interpreter.h) — the SASS instruction stream, with memory
/// behaviour mapped from the PTX by source line (sass_ptx_map.h). docs/input-cuda.md.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "foresight/frontend/cuda/cubin_reader.h"
#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/ptx_module.h"
#include "foresight/frontend/cuda/sass_listing.h"
#include "foresight/frontend/cuda/toolchain.h"
#include "foresight/frontend/cuda/warp_interpreter.h"
#include "foresight/frontend/kernel_name.h"
#include "foresight/gpu/gpu.h"
#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/launch.h"
#include "foresight/support/error.h"
#include "foresight/support/progress.h"

namespace foresight::cuda {

/// Options of loadCuda().
struct CudaOptions {
  std::string arch;       ///< "sm_90"; required (archForGpu() derives it)
  Launch launch;          ///< grid, block, dynamic shared memory, args by name, macros
  std::vector<std::pair<std::string, std::string>> macros;  ///< -D NAME[=VALUE], in order
  std::vector<std::string> includeDirs;  ///< -I DIR (.cu inputs)
  std::vector<std::string> nvccFlags;    ///< further nvcc flags (.cu inputs), e.g. -maxrregcount=32
  std::string kernel;     ///< kernel to analyse (chooseKernel(), kernel_name.h); empty = the only one
  std::vector<TripHint> trips;
  std::vector<BranchHint> branches;
  int maxSampledWarps = 64;  ///< warps of block 0 that are executed and averaged
  /// Stop sampling further warps once this many PTX instructions were executed (the first and
  /// the last warp always run): bounds the analysis time of long-running kernels.
  long long sampleInstructionBudget = 10'000'000;
  /// A warp that executes more instructions than this one by one (folded loop iterations do
  /// not count) is an Error naming the loop that may not terminate, in the PTX and SASS runs.
  long long maxInstructionsPerWarp = 200'000'000;
  /// Build the KernelIR from the SASS stream when SASS is available and its control flow could
  /// be executed; false keeps the PTX stream.
  bool sassStream = true;
  /// Fold loops whose iterations repeat in the PTX and SASS runs (LoopFold, warp_interpreter.h):
  /// the same counts and streams, in time that does not grow with their trip counts.
  bool foldLoops = true;
  /// The GPU's register banks (Gpu::registerBanks): SASS FFMAs get their
  /// Instruction::bankConflictDegree; empty = unknown, every degree stays 1.
  std::optional<RegisterBanks> registerBanks;
  /// Told as the sampled warps of each kernel are executed (PTX, then SASS); empty = nobody.
  ProgressCallback progress;
};

/// Static SASS statistics of one kernel.
struct SassSummary {
  std::string table;  ///< opcode table family ("hopper")
  int instructions = 0;  ///< excluding the trailing NOP/BRA padding after the last EXIT
  std::array<int, kNumInstrClasses> byClass{};
  std::vector<std::string> unknownOpcodes;  ///< mnemonics absent from the table
  int withControlBits = 0;  ///< instructions whose control bits were decoded
  // Memory instructions mapped onto the PTX by source line (sass_ptx_map.h).
  int memoryPaired = 0;   ///< SASS memory instructions with a PTX counterpart
  int spillStores = 0;    ///< STL that ptxas added (register spills)
  int spillLoads = 0;     ///< LDL that ptxas added
  long long spillStoreBytes = 0;  ///< per thread, as ptxas -v "bytes spill stores"
  long long spillLoadBytes = 0;   ///< per thread, as ptxas -v "bytes spill loads"
  int unmatchedSass = 0;  ///< other SASS memory instructions without a PTX counterpart
  int unmatchedPtx = 0;   ///< PTX memory instructions without a SASS counterpart
  /// Dynamic SASS instructions per warp (mean over the sampled warps), from executing the SASS
  /// control flow (sass_interpreter.h); empty when a branch depends on untracked values.
  std::optional<double> dynamicInstructionsPerWarp;
  std::string dynamicStatus;  ///< why dynamicInstructionsPerWarp is empty
};

/// The dynamic instruction stream of any warp of the launch, generated on demand by executing
/// that warp (the KernelIR holds the averages over block 0's warps). Owns the parsed PTX.
class WarpStreams {
 public:
  WarpStreams(PtxModule module, int kernelIndex, PtxCfg cfg, InterpreterOptions options, std::string fileName);
  /// Executes warp `warp` of block `block` (linear index) and returns its trace, with the
  /// ordered (PTX instruction, active mask) stream.
  [[nodiscard]] Expected<WarpTrace> trace(long long block, int warp) const;
  /// The same with loop folding (InterpreterOptions::foldLoops) switched on or off.
  [[nodiscard]] Expected<WarpTrace> trace(long long block, int warp, bool foldLoops) const;
  /// The kernel's PTX instructions (indices of WarpTrace::stream refer to them).
  [[nodiscard]] const std::vector<PtxInstruction>& instructions() const;

 private:
  PtxModule module_;
  int kernelIndex_;
  PtxCfg cfg_;
  InterpreterOptions options_;
  std::string fileName_;
};

/// One analysed kernel.
struct CudaKernel {
  std::string name;     ///< demangled name with template arguments ("block_sum<256>"), kernelNames()
  std::string mangled;  ///< symbol ("_Z12matmul_tiledPKfS0_Pfi")
  std::vector<std::string> paramNames;  ///< from the .cu source, else param_0, …
  std::optional<CubinKernel> resources;  ///< from the cubin
  std::optional<SassSummary> sass;       ///< when nvdisasm decoded it
  KernelIR ir;
  /// Source location (file name, line) of each loop's exit test, parallel to `ir.loops`.
  std::vector<std::pair<std::string, int>> loopLocations;
  double dynamicInstructionsPerWarp = 0;  ///< PTX instructions, averaged over sampled warps
  int sampledWarps = 0;
  std::vector<std::string> notes;  ///< what stayed unknown or was hinted, by source line
  std::shared_ptr<const WarpStreams> streams;  ///< per-warp dynamic streams, lazily
};

/// The result of loading a CUDA input.
struct CudaProgram {
  std::string path;
  std::string arch;
  /// The KernelIR's stream and what else was used: "sass (memory from ptx)" when the IR holds
  /// SASS instructions, "ptx, sass" when SASS was parsed but the stream is PTX, "ptx" alone.
  std::string isa;
  std::string sassStatus;  ///< why SASS was not used, when it was not
  ToolchainDescription tools;
  std::vector<std::string> kernelNames;  ///< all kernels of the file (kernelNames())
  std::vector<CudaKernel> kernels;        ///< the analysed kernel(s)
};

/// "sm_90" for a GPU of compute capability 9.0; an Error for GPUs the frontend cannot target.
[[nodiscard]] Expected<std::string> archForGpu(const Gpu& gpu);
/// The target compiled for GPUs older than the toolchain supports (CC 3.0 ... 6.2).
inline constexpr const char* kStandInArch = "sm_75";
/// Whether archForGpu() compiles for kStandInArch instead of the GPU's own architecture
/// (Kepler to Pascal; Volta compiles for its own sm_70/sm_72 through CUDA 12.5's ptxas).
[[nodiscard]] inline bool standInArch(const Gpu& gpu) {
  const int cc = gpu.ccMajor * 10 + gpu.ccMinor;
  return cc >= 30 && cc < 70;
}

/// The order in which the warps of a block are sampled: 0, the last, then every warps/2,
/// warps/4, … not yet taken; at most `count` of them.
[[nodiscard]] std::vector<int> sampleOrder(int warps, int count);

/// The base name of a mangled kernel symbol ("_Z6vecaddPKfS0_Pfi" → "vecadd"): no namespace,
/// no template arguments, as the kernel's definition spells it.
[[nodiscard]] std::string demangleBaseName(const std::string& mangled);
/// The kernel's name as the source writes it, with namespaces and template arguments but
/// without return type and parameters ("_Z9block_sumILi256EEvPfS0_" → "block_sum<256>");
/// `withParameters` keeps the parameter list ("k(float*)"). A symbol that is not mangled is
/// returned as it is.
[[nodiscard]] std::string demangleKernelName(const std::string& symbol, bool withParameters = false);
/// The names of the module's kernels, in order, as chooseKernel() (kernel_name.h) takes them:
/// demangleKernelName(), with the parameter list where overloads would otherwise share a name.
[[nodiscard]] std::vector<KernelName> kernelNames(const PtxModule& module);

/// The bits a kernel parameter holds for a `--arg` value: a real in an f32/f64 parameter as a
/// float/double, an integer truncated to the parameter's width, a pointer's base address as
/// given. An Error naming `what` for a real in an integer parameter, a negative or real pointer
/// base, an f16/bf16 parameter, or an aggregate passed by value.
[[nodiscard]] Expected<std::uint64_t> argumentBits(const PtxParam& param, bool pointer, const ArgValue& value,
                                                   const std::string& what);

/// Parameter names and pointer-ness of `__global__` function `name` in CUDA source text; empty
/// when the declaration is not found.
struct SourceParam {
  std::string name;
  bool pointer = false;
  size_t begin = 0;  ///< the parameter's declaration in the source: [begin, end) byte offsets
  size_t end = 0;
};
[[nodiscard]] std::vector<SourceParam> sourceParams(const std::string& source, const std::string& name);

/// Loads and analyses `path` (by extension) through `toolchain`.
[[nodiscard]] Expected<CudaProgram> loadCuda(const std::string& path, const CudaOptions& options,
                                             Toolchain& toolchain);

}  // namespace foresight::cuda
