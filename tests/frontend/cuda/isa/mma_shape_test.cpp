// SPDX-License-Identifier: Apache-2.0
/// \file
/// Matrix-instruction shapes: multiply-adds per warp and pipe work, computed by hand from the
/// shapes in the PTX ISA (mma m16n8k16 = 2048 FMAs per warp) and the tensor pipe's unit of
/// 4096 FP16 multiply-adds per gap (gpu-format.md).
#include "foresight/frontend/cuda/isa/mma_shape.h"

#include <gtest/gtest.h>

namespace foresight::cuda {
namespace {

TEST(MmaShape, AmpereHmmaShapesAndTypes) {
  // HMMA.16816: 16·8·16 = 2048 FMAs per warp = 4096 flops / 32 lanes = 128 per lane; half a unit.
  auto h = sassMmaShape("HMMA.16816.F32");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fmasPerWarp, 2048);
  EXPECT_EQ(h->cls, InstrClass::Tensor);
  EXPECT_DOUBLE_EQ(h->flopsPerLane(), 128);
  EXPECT_DOUBLE_EQ(h->pipeWork, 0.5);
  // BF16 runs at the FP16 rate.
  EXPECT_DOUBLE_EQ(sassMmaShape("HMMA.16816.F32.BF16")->pipeWork, 0.5);
  // TF32 m16n8k8: 1024 FMAs at half the FP16 rate: 1024·2/4096 = 0.5.
  auto t = sassMmaShape("HMMA.1688.F32.TF32");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->fmasPerWarp, 1024);
  EXPECT_DOUBLE_EQ(t->pipeWork, 0.5);
  // INT8 m16n8k32: 4096 multiply-adds at twice the FP16 rate: 0.5 units, no flops.
  auto i = sassMmaShape("IMMA.16832.S8.S8");
  ASSERT_TRUE(i);
  EXPECT_DOUBLE_EQ(i->pipeWork, 0.5);
  EXPECT_DOUBLE_EQ(i->flopsPerLane(), 0);
}

TEST(MmaShape, DmmaCountsOnTheFp64Pipe) {
  // DMMA.884: 8·8·4 = 256 FMAs per warp at twice the FP64 FMA rate: 256 / 32 / 2 = 4 DFMA slots.
  auto d = sassMmaShape("DMMA.884");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->cls, InstrClass::Fp64);
  EXPECT_DOUBLE_EQ(d->pipeWork, 4);
  EXPECT_DOUBLE_EQ(d->flopsPerLane(), 16);
}

TEST(MmaShape, HopperWarpgroupMmaIsAQuarterPerWarp) {
  // HGMMA 64x128x16: 131072 FMAs per warpgroup, 32768 per warp = 8 units.
  auto g = sassMmaShape("HGMMA.64x128x16.F32.BF16");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->fmasPerWarp, 32768);
  EXPECT_DOUBLE_EQ(g->pipeWork, 8);
  // FP8 64x128x32: 65536 FMAs per warp at twice the rate: 8 units.
  EXPECT_DOUBLE_EQ(sassMmaShape("QGMMA.64x128x32.F32.E4M3.E4M3")->pipeWork, 8);
}

TEST(MmaShape, PtxForms) {
  auto m = ptxMmaShape("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->fmasPerWarp, 2048);
  EXPECT_DOUBLE_EQ(m->pipeWork, 0.5);
  // The wmma form names only the accumulators: counted at the FP16 rate (16·16·16 = 1 unit).
  auto w = ptxMmaShape("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->fmasPerWarp, 4096);
  EXPECT_DOUBLE_EQ(w->pipeWork, 1);
  auto tf = ptxMmaShape("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
  ASSERT_TRUE(tf);
  EXPECT_DOUBLE_EQ(tf->pipeWork, 0.5);
  auto d = ptxMmaShape("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->cls, InstrClass::Fp64);
  EXPECT_DOUBLE_EQ(d->pipeWork, 4);
  auto wg = ptxMmaShape("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16");
  ASSERT_TRUE(wg);
  EXPECT_EQ(wg->fmasPerWarp, 32768);
}

TEST(MmaShape, OtherOpcodesAndUnverifiedShapesAreNotMatrixInstructions) {
  EXPECT_FALSE(sassMmaShape("FFMA"));
  EXPECT_FALSE(sassMmaShape("HMMA"));
  EXPECT_FALSE(sassMmaShape("HMMA.884.F32.F32.STEP0"));  // Volta's steps: not verified
  EXPECT_FALSE(sassMmaShape("HGMMA.64xx16.F32"));
  EXPECT_FALSE(ptxMmaShape("fma.rn.f32"));
  EXPECT_FALSE(ptxMmaShape("mma.sync.aligned.row.col"));
}

}  // namespace
}  // namespace foresight::cuda
