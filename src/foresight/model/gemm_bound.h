// SPDX-License-Identifier: Apache-2.0
/// \file
/// The attainable peak of SGEMM on a GPU: Lai's upper-bound analysis (seed 004, thesis ch. 4;
/// digest lai-teg-and-bound.md §5.4–5.5, §8.5; docs/bound.md). How fast can an FP32 GEMM built
/// from FFMA and shared-memory loads possibly run, with which implementation parameters, and
/// what binds that limit.
///
/// Variant `lai` is Eqs. 4.1–4.11 as published (with the digest's errata 1–3: the square root
/// of T_B·B_R², the 4-byte element in Eq. 4.6, F_I as shared loads per element):
///   R_T = B_R² + 2·B_Sh·L/T_B + B_R + 1 + R_addr ≤ R_Max         (4.1, 4.5)
///   Blk·T_B·R_T ≤ R_SM,  (B_Sh·L) mod T_B = 0,  Blk·2·B_Sh·L·4 B ≤ Sh_SM   (4.2, 4.4, 4.6)
///   B_Sh = √(T_B·B_R²)                                             (4.7)
///   P_Mem = BW · B_Sh / 4   (flops per byte of the block's k-step)  (4.8)
///   P_SM  = B_R² / (B_R² + 2·B_R·F_I) · F_T · P_peak                (4.10)
///   P     = min(P_Mem, P_SM), maximised over feasible parameters    (4.11)
/// with F_T from the GPU's `[sgemm_mix]` (Eq. 4.9, measured per load width).
///
/// Variant `general` (not in the thesis; digest §8.5): rectangular per-thread tiles m×n,
/// double-buffered fragments, `stages` shared buffers, per-k-step overhead instructions,
/// registers and shared memory through the GPU's occupancy rules (allocation granularity), the
/// issue, FP32, LD/ST and shared-bandwidth rates of the GPU description, and the DRAM term per
/// block tile (through L2 where the description gives its bandwidth, DRAM then taking the
/// compulsory traffic of a given problem). F_T comes from `[sgemm_mix]` when measured, else
/// from those rates.
#pragma once

#include <string>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/support/error.h"

namespace foresight {

enum class GemmBoundVariant { Lai, General };

/// "lai" / "general".
[[nodiscard]] const char* gemmBoundVariantName(GemmBoundVariant v);
/// From a name; an Error lists the variants.
[[nodiscard]] Expected<GemmBoundVariant> parseGemmBoundVariant(const std::string& name);

/// The arithmetic of the GEMM: FP32 FFMA (the thesis' SGEMM, with tiles), or the peak of a
/// matrix pipe: FP64 DFMA, FP64 tensor MMA (DMMA; compute capability 8.0 and 9.0), or tensor
/// MMA with TF32, FP16, BF16, FP8 or INT8 inputs (the tensor pipe's gap is per 4096 FP16
/// multiply-adds; TF32 runs at half that rate, 8-bit types at twice).
enum class GemmPrecision { Fp32, Fp64, Dmma, Tf32, Fp16, Bf16, Fp8, Int8 };

/// "fp32", "fp64", "dmma", "tf32", "fp16", "bf16", "fp8", "int8".
[[nodiscard]] const char* gemmPrecisionName(GemmPrecision p);
/// From a name; an Error lists them.
[[nodiscard]] Expected<GemmPrecision> parseGemmPrecision(const std::string& name);

/// The implementation parameters of one SGEMM (Table 4.2, "impl." rows).
struct GemmTile {
  int threadsPerBlock = 0;  ///< T_B
  int tileM = 0;            ///< rows of C per thread (B_R in the thesis, which has m = n)
  int tileN = 0;            ///< columns of C per thread
  int depth = 0;            ///< L: k-depth of the A and B tiles staged in shared memory
  int ldsBits = 0;          ///< width of the shared loads: 32, 64 or 128 (F_I = 32 / ldsBits)
  int stages = 1;           ///< shared-memory buffers per block (the thesis has 1)
};

/// Options of gemmBound().
struct GemmBoundOptions {
  GemmBoundVariant variant = GemmBoundVariant::Lai;
  /// Not FP32: `general` only; the bound is the matrix pipe's peak and the compulsory DRAM
  /// traffic (no tile search: tensor-core kernels stage through asynchronous copies and
  /// multicast that the thesis' register and shared budgets do not describe).
  GemmPrecision precision = GemmPrecision::Fp32;
  /// R_addr: registers for addresses, indices and the loop end. 7 is the thesis' Fermi
  /// allocation (2 global, 2 + 2 shared pointers, 1 loop end).
  int addressRegisters = 7;
  /// Evaluate only this tile (an Error says which constraint it breaks); empty = search.
  std::optional<GemmTile> tile;
  /// `general`: instructions per k-step per thread besides FFMA and LDS (address arithmetic,
  /// loop, amortised global loads, shared stores and barriers); 0 = the thesis' bound.
  double overheadPerKStep = 0;
  /// `general`: copies of the fragment registers (the A column and the B elements of one
  /// shared load); 2 = double-buffered, loading the next k while computing this one.
  int fragmentBuffers = 2;
  /// Problem size for a time (2·M·N·K / bound); 0 = rates only.
  long long m = 0, n = 0, k = 0;
};

/// Registers per thread by use (Eq. 4.5's terms).
struct GemmRegisters {
  int accumulators = 0;  ///< B_R² (m·n): the C sub-tile
  int prefetch = 0;      ///< 2·B_Sh·L/T_B: global → shared staging of A and B
  int fragments = 0;     ///< B_R + 1 (thesis); (m + ldsBits/32)·buffers (general)
  int addresses = 0;     ///< R_addr
  [[nodiscard]] int total() const { return accumulators + prefetch + fragments + addresses; }
};

/// The bound and the parameters that reach it.
struct GemmBound {
  GemmBoundVariant variant = GemmBoundVariant::Lai;
  GemmPrecision precision = GemmPrecision::Fp32;
  bool tiled = true;              ///< false: a matrix-pipe bound without tile parameters
  GemmTile tile;
  GemmRegisters registers;
  int blocksPerSm = 0;            ///< Blk
  int blockTileM = 0;             ///< rows of C per block (B_Sh in the thesis)
  int blockTileN = 0;             ///< columns of C per block
  long long sharedBytesPerSm = 0;  ///< Blk · stages · (BM + BN) · L · 4
  double ffmaShare = 0;           ///< FFMA fraction of the inner loop's instructions
  double mixThroughput = 0;       ///< F_T (fraction of the FP32 peak)
  std::string mixSource;          ///< where F_T comes from (the GPU key's provenance, or "rates")
  double peakGflops = 0;          ///< P_theoretical: SMs × FP32 lanes × 2 × clock (other precisions: their pipe's peak)
  double smBoundGflops = 0;       ///< P_SMBound
  double memBoundGflops = 0;      ///< P_MemBound: the block tiles' panel traffic at `memLevel`'s bandwidth
  std::string memLevel = "dram";  ///< "dram" (lai; general without an L2 bandwidth) or "l2"
  /// `general` with a problem size: 2·M·N·K / ((M·K + K·N)·input bytes + M·N·output bytes) ×
  /// DRAM bandwidth: every operand read once and C written once; 0 = no problem size.
  double compulsoryBoundGflops = 0;
  double boundGflops = 0;         ///< min of the terms
  std::string binding;            ///< "instruction mix" or "dram" (general: also "issue", "fp32", "shared bandwidth", "ld/st", "tensor pipe", "fp64 pipe", "compulsory dram")
  int feasibleTiles = 0;          ///< parameter sets that met every constraint (1 for a given tile)
  double seconds = 0;             ///< 2·M·N·K / bound, when the options give a problem size
  [[nodiscard]] double fractionOfPeak() const { return peakGflops > 0 ? boundGflops / peakGflops : 0; }
};

/// The FFMA share of an inner loop with an m×n register tile and shared loads of `ldsBits`:
/// m·n / (m·n + (m + n)·F_I + overhead). For m = n = B_R and no overhead this is Eq. 4.10's
/// first factor (Fig. 4.3: B_R = 6 with LDS.64 → 85.7 %).
[[nodiscard]] double gemmFfmaShare(int tileM, int tileN, int ldsBits, double overheadPerKStep = 0);

/// The attainable SGEMM peak of `gpu` (searching the feasible parameters unless a tile is
/// given). Errors: no FP32 pipe or DRAM bandwidth in the description, no `[sgemm_mix]` for the
/// `lai` variant, a given tile that breaks a constraint (named with its equation), or no
/// feasible tile at all.
[[nodiscard]] Expected<GemmBound> gemmBound(const Gpu& gpu, const GemmBoundOptions& options = {});

}  // namespace foresight
