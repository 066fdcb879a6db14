// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Gpu`: an immutable description of one GPU, loaded from TOML (docs/gpu-format.md). Models read
/// it; nothing mutates it after loading. Canonical units: clocks in GHz, sizes in bytes,
/// latencies and gaps in SM cycles, bandwidths in GB/s (1e9 B/s, whole GPU).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "foresight/support/quantity.h"

namespace foresight {

/// Instruction classes: each maps to one pipeline of the SM. The order is the TOML order.
enum class InstrClass { Fp32, Fp64, Int, Sfu, Tensor, Ldst, Control };
inline constexpr int kNumInstrClasses = 7;
/// TOML / report name of an instruction class ("fp32", "fp64", "int", "sfu", "tensor", "ldst",
/// "control").
[[nodiscard]] const char* instrClassName(InstrClass c);
[[nodiscard]] std::optional<InstrClass> parseInstrClass(const std::string& name);

/// How a memory serialises the lanes of one warp request (PORPLE's serialCondition classes).
enum class Serialization {
  Line,     ///< one transaction per distinct line (`line` bytes) touched by the warp
  Sector,   ///< one transaction per distinct sector (`sector` bytes) touched by the warp
  Address,  ///< one transaction per distinct address (constant memory: broadcast or serialise)
  Bank,     ///< bank conflicts: distinct words in one bank serialise (shared memory)
  SegmentCc10,  ///< compute capability 1.0/1.1 half-warp coalescing ("segment-cc1.0")
  SegmentCc12,  ///< compute capability 1.2/1.3 segment algorithm ("segment-cc1.2")
};

/// Which unit shares one instance of a memory (PORPLE's shareScope).
enum class Scope { Sm, Device };

/// Register allocation granularity of the occupancy rules (CUDA occupancy calculator).
enum class RegisterGranularity { Warp, Block };

/// Per-SM and per-block resource limits and allocation rules.
struct GpuLimits {
  Param<int> threadsPerSm;
  Param<int> warpsPerSm;
  Param<int> blocksPerSm;
  Param<int> threadsPerBlock;
  Param<int> registersPerSm;        ///< 32-bit registers per SM.
  Param<int> registersPerThread;    ///< Largest register count one thread may use.
  Param<int> registersPerBlock;     ///< Largest register count one block may use.
  Param<int> registerAllocUnit;     ///< Registers are allocated in multiples of this.
  RegisterGranularity registerGranularity = RegisterGranularity::Warp;
  Param<int> warpAllocGranularity;  ///< Block granularity: warps rounded up to a multiple of this.
  Param<int> registerFilePartitions;  ///< Warp granularity: the register file is split this many ways.
  Param<long long> sharedPerSm;     ///< Shared memory per SM usable by blocks, bytes.
  Param<long long> sharedPerBlock;  ///< Largest shared memory per block (opt-in maximum), bytes.
  Param<long long> sharedAllocUnit;  ///< Shared memory allocated in multiples of this, bytes.
  Param<long long> sharedReservedPerBlock;  ///< Driver-reserved shared memory per block, bytes.
  /// Shared-memory capacities per SM a carveout may select (unified L1/shared arrays, Volta
  /// on), bytes, ascending; the largest is sharedPerSm. Absent: no carveout to choose.
  std::optional<Param<std::vector<long long>>> sharedCarveouts;
};

/// One pipeline: the latency of a dependent instruction and the gap (reciprocal throughput)
/// between two independent warp instructions of the class on one scheduler.
struct Pipeline {
  Param<double> latency;  ///< cycles from issue to a dependent issue
  Param<double> gap;      ///< cycles between two issues of this class on one scheduler
};

/// One level of the memory hierarchy (PORPLE's MSL concepts).
struct MemoryLevel {
  std::string name;          ///< Unique name, also the TOML table name ("l2", "shared", ...).
  std::string resource;      ///< Bound-vocabulary resource it is charged to ("l2", "dram", ...).
  bool softwareManaged = false;  ///< Data can be placed in it explicitly (PORPLE swmng = Y).
  bool writable = true;          ///< Kernels may write it (PORPLE rw).
  Scope scope = Scope::Device;
  Serialization serialization = Serialization::Sector;
  Param<long long> size;                  ///< bytes
  std::optional<Param<long long>> line;    ///< bytes; cache line / segment
  std::optional<Param<long long>> sector;  ///< bytes; smallest transfer
  /// Bytes one miss of this level reads from the level below (a multiple of `sector`, at most
  /// `line`): Hopper's L2 fetches 64-B sector pairs from DRAM. Absent = one sector.
  std::optional<Param<long long>> fetchGranularity;
  /// A launch that follows itself over the same data (a warm L2, Launch::l2Start) finds all of
  /// a footprint of at most `warmFull` bytes in this level, none of one of `warmNone` bytes or
  /// more, and a share falling linearly between. Absent: both are `size` (LRU: all of a
  /// footprint that fits, nothing of one that does not).
  std::optional<Param<long long>> warmFull;
  std::optional<Param<long long>> warmNone;
  std::optional<Param<int>> banks;
  std::optional<Param<int>> bankWidth;     ///< bytes per bank word (4, or 8 in Kepler 8-byte mode)
  /// The tag stage of an sm_80+ L1 (L1TagStage, memory/coalescing.h): a global load request
  /// takes `tagExtraWavefronts` + its distinct lines / `tagLinesPerWavefront` tag wavefronts
  /// (at least 1), and its bank wavefronts (`banks`, `bankWidth`) in the data stage; the L1
  /// serves it in the slower of the two. Absent: a wavefront per distinct line.
  std::optional<Param<double>> tagLinesPerWavefront;
  std::optional<Param<double>> tagExtraWavefronts;
  Param<double> latency;                   ///< cycles, unloaded hit latency of this level
  std::optional<Param<double>> bandwidth;  ///< GB/s, whole GPU (summed over SMs for SM scope): peak
  // Achievable (sustained, measured) bandwidth by direction, GB/s, whole GPU; absent = unknown
  // (models fall back to `bandwidth`). Mixed counts the bytes read plus the bytes written.
  std::optional<Param<double>> readBandwidth;   ///< read-only stream
  std::optional<Param<double>> writeBandwidth;  ///< write-only stream
  std::optional<Param<double>> mixedBandwidth;  ///< copy / triad-like read+write streams
  /// Partitioned caches (Ampere/Hopper L2): number of partitions, and the unloaded hit latency
  /// of a line homed in a far partition (`latency` is the near-partition hit).
  std::optional<Param<int>> partitions;
  std::optional<Param<double>> farLatency;  ///< cycles
  /// Time this level takes per atomic operation on one address, µs: atomics to one address are
  /// applied one after another (the L2's atomic units), so a launch takes at least its
  /// most-updated address's operations × this. Absent = unknown (no atomics floor).
  std::optional<Param<double>> sameAddressAtomicUs;
  /// The same for every other atomic (integer adds as measured; also the kinds not measured:
  /// f64, min/max, CAS, exchange), µs; absent = no floor for them. f32 adds and integer adds
  /// differ by 2.4x on Hopper, so one time for both would not be a floor.
  std::optional<Param<double>> sameAddressAtomicIntUs;
  /// Time this level takes, for the whole chip, per read-modify-write of one sector: a store
  /// that writes part of a sector (the L2 keeps whole sectors and their ECC), as an atomic onto
  /// a line of its own does, µs. A launch takes at least its partly written store sectors ×
  /// this. Absent = unknown (no partial-writes floor).
  std::optional<Param<double>> sectorRmwUs;
  /// Time one atomic unit of this level takes per lane operation of a sector request, counted
  /// at the sector's most-updated address, µs: a warp's atomic request is split into sector
  /// requests, a sector request with at most m lanes on one of its addresses keeps its unit
  /// m × this, and one unit serves all the sectors of `atomicInterleave` consecutive bytes.
  /// With `sector_rmw` (the chip-wide time per sector operation) it gives the L2 side of the
  /// atomics floor. Absent = unknown (only the same-address part of that floor).
  std::optional<Param<double>> atomicUnitOpUs;
  /// Consecutive bytes one atomic unit serves (the address interleave of the units), bytes.
  std::optional<Param<long long>> atomicInterleave;
  std::vector<std::string> lower;          ///< Next levels on a miss (PORPLE lowerLevels).
};

/// Parameters of the MWP-CWP model family (Hong & Kim 2009; CGPredict's variant).
struct MwpCwpParams {
  Param<double> memLatency;         ///< Mem_LD: end-to-end DRAM access latency, cycles
  Param<double> departureDelayCoal;    ///< Departure_del_coal, cycles
  Param<double> departureDelayUncoal;  ///< Departure_del_uncoal, cycles
  Param<double> issueCycles;        ///< Issue_cycles: cycles to issue one warp instruction
  Param<double> memBandwidth;       ///< Mem_Bandwidth, GB/s
  // CGPredict's variant (cgpredict.md §4.3, §7); optional, absent on GPUs without an L2.
  std::optional<Param<double>> l2Latency;          ///< mem_ld_L2, cycles
  std::optional<Param<double>> l2DepartureDelay;   ///< dd_L2, cycles
  std::optional<Param<double>> dramDepartureDelay;  ///< dd_dram, cycles
  std::optional<Param<double>> instCycles;         ///< inst_cycle, cycles per warp instruction
};

/// Lai's F_T (seed 004, Eq. 4.9): the thread-instruction throughput an SGEMM inner loop of
/// FFMA and shared loads of one width (LDS, LDS.64, LDS.128) reaches, as a fraction of the
/// FP32 peak, measured with a microbenchmark of that mix. A width without a value is not
/// considered by the attainable-peak analysis (model/gemm_bound.h).
struct SgemmMix {
  std::optional<Param<double>> lds32;
  std::optional<Param<double>> lds64;
  std::optional<Param<double>> lds128;
  /// The fraction for a load width of 32, 64 or 128 bits; nullptr when not measured.
  [[nodiscard]] const Param<double>* forWidth(int bits) const {
    const std::optional<Param<double>>& p = bits == 32 ? lds32 : bits == 64 ? lds64 : lds128;
    return (bits == 32 || bits == 64 || bits == 128) && p ? &*p : nullptr;
  }
};

/// Block barriers (`bar.sync`, `__syncthreads`) as the SM executes them (`[barrier]`): the SM's
/// barrier unit takes the arriving warps one at a time, and a block is released some cycles
/// after its last warp arrived. A barrier of a block of W warps therefore keeps the unit busy
/// `block + arrival x W` cycles (what many resident blocks' barriers cost the SM), and a lone
/// block's consecutive barriers take `latency + arrival x W` cycles each.
struct BarrierUnit {
  Param<double> arrival;  ///< SM cycles the unit spends per arriving warp
  Param<double> block;    ///< SM cycles per block barrier beyond its warps' arrivals
  Param<double> latency;  ///< cycles from a lone block's last arrival to its release
  /// Cycles the SM's barrier unit is busy with one barrier of a block of `warps` warps.
  [[nodiscard]] double busyCycles(double warps) const { return block.value + arrival.value * warps; }
  /// Cycles one barrier of a lone block of `warps` warps takes when nothing else delays it.
  [[nodiscard]] double aloneCycles(double warps) const { return latency.value + arrival.value * warps; }
};

/// How register indices map to register-file banks (`[register_banks]`).
enum class RegisterBankFunction {
  Modulo,  ///< bank = index % count
  Kepler,  ///< Lai's GK104 map: (index % 2)·2 + (index % 8 ≥ 4): even0, even1, odd0, odd1
};

/// The register file's banks: two distinct source registers of one instruction in a bank are
/// read one after another (Lai, thesis §4.3.1).
struct RegisterBanks {
  Param<int> count;
  RegisterBankFunction function = RegisterBankFunction::Modulo;
};

/// A whole GPU description.
struct Gpu {
  std::string name;          ///< Preset / file name, e.g. "h100".
  std::string fullName;      ///< Marketing name, e.g. "NVIDIA H100 SXM5 80GB".
  std::string architecture;  ///< Family: tesla, fermi, kepler, maxwell, pascal, volta, ampere, hopper.
  int ccMajor = 0;           ///< Compute capability, major.
  int ccMinor = 0;           ///< Compute capability, minor.
  std::string sourceFile;    ///< Where it was loaded from ("gpus/h100.toml" for presets).

  Param<int> smCount;
  Param<double> clockGhz;        ///< SM clock used for cycles -> seconds
  Param<int> warpSize;
  Param<int> schedulersPerSm;
  Param<double> issueWidth;      ///< warp instructions per cycle per scheduler
  /// Time from one kernel launch to the next when kernels run back to back (an empty kernel's
  /// launch-to-launch time), µs; absent = unknown (models use their own default).
  std::optional<Param<double>> launchOverheadUs;
  /// What a launch timed on its own (CUDA events just before and after it; the first launch of
  /// a timed sequence) takes beyond its back-to-back time: the host's submission, not overlapped
  /// with a kernel before it, µs (Launch::timing); absent = unknown (0).
  std::optional<Param<double>> launchLatencyUs;
  /// Cycles a resident-block slot stays busy beyond its warps' own work: dispatching the block
  /// and retiring it (a block of a few instructions and one store lives this long plus its
  /// instructions); absent = unknown (0).
  std::optional<Param<double>> blockOverheadCycles;
  /// Cycles between two blocks the SM's block dispatch can start: however short its blocks, an
  /// SM receives at most one every this many cycles; absent = unknown (no limit).
  std::optional<Param<double>> blockDispatchCycles;
  GpuLimits limits;
  /// Indexed by InstrClass; empty for a class the GPU has no unit for (fp64 on CC 1.0, tensor
  /// before Volta). fp32, int, sfu, ldst and control are always present.
  std::array<std::optional<Pipeline>, kNumInstrClasses> pipelines;
  std::vector<MemoryLevel> memory;
  MwpCwpParams mwpCwp;
  /// `[sgemm_mix]`: absent = not measured for this GPU.
  std::optional<SgemmMix> sgemmMix;
  /// `[register_banks]`: absent = unknown for this GPU.
  std::optional<RegisterBanks> registerBanks;
  /// `[barrier]`: absent = not measured for this GPU (no barrier terms).
  std::optional<BarrierUnit> barrier;

  /// The pipeline of a class, or nullptr when the GPU has none.
  [[nodiscard]] const Pipeline* pipeline(InstrClass c) const {
    const auto& p = pipelines[static_cast<int>(c)];
    return p ? &*p : nullptr;
  }
  /// The memory level with this name, or nullptr.
  [[nodiscard]] const MemoryLevel* memoryLevel(const std::string& levelName) const;
  /// The first memory level charged to this resource ("dram", "l2", "shared", ...), or nullptr.
  [[nodiscard]] const MemoryLevel* memoryForResource(const std::string& resource) const;
  /// "9.0"
  [[nodiscard]] std::string computeCapability() const;
};

/// The tensor pipe's `gap` is per this many FP16 multiply-adds: one 16×16×16 warp MMA.
inline constexpr double kTensorGapFmas = 4096;
/// FP64 tensor MMA (DMMA) runs at this multiple of the FP64 pipe's FMA rate (A100 19.5 vs 9.7
/// TFLOPS, H100 SXM 67 vs 34).
inline constexpr double kDmmaPerFp64Fma = 2;
/// Tensor-pipe work per multiply-add of an input type, relative to FP16, the same on every
/// tensor-core GPU so far: TF32 2 (half the rate), 8-bit ½, 4-bit ¼, 1-bit 1/32, FP16 and BF16
/// 1. Takes PTX/SASS type names in either case ("tf32", "S8", "e4m3") and the precision names of
/// `foresight bound` ("fp16", "fp8", "int8"); 0 for a name that is no tensor input type.
[[nodiscard]] double tensorInputWork(std::string_view type);

}  // namespace foresight
