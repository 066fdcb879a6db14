// SPDX-License-Identifier: Apache-2.0
// The default model per input kind and GPU (model/default_model.h).
#include "foresight/model/default_model.h"

#include <gtest/gtest.h>

#include "foresight/gpu/presets.h"

namespace foresight {
namespace {

TEST(DefaultModel, PerInputKindAndGpu) {
  // CUDA: mwp-cwp/modern where the GPU describes its L2 bandwidth (h100: read 9765 GB/s), else
  // GROPHECY's variant (k20c gives no L2 bandwidth); without a GPU, modern. C loops: cgpredict;
  // summaries and skeletons: grophecy, on any GPU.
  const Gpu h100 = *loadPreset("h100");
  const Gpu k20c = *loadPreset("k20c");
  EXPECT_EQ(defaultModel(InputKind::Cuda).mwpCwpVariant, MwpCwpVariant::Modern);
  EXPECT_EQ(defaultModel(InputKind::Cuda, &h100).mwpCwpVariant, MwpCwpVariant::Modern);
  EXPECT_EQ(defaultModel(InputKind::Cuda, &k20c).mwpCwpVariant, MwpCwpVariant::Grophecy);
  EXPECT_EQ(defaultModel(InputKind::CLoop, &h100).mwpCwpVariant, MwpCwpVariant::CGPredict);
  EXPECT_EQ(defaultModel(InputKind::Summary, &h100).mwpCwpVariant, MwpCwpVariant::Grophecy);
  EXPECT_EQ(defaultModel(InputKind::Skeleton, &h100).mwpCwpVariant, MwpCwpVariant::Grophecy);
  // resolveDefaultModel: only `auto` is resolved; an explicit model stays.
  ModelOptions o;
  EXPECT_EQ(modelName(resolveDefaultModel(o, InputKind::Cuda, &k20c)), "mwp-cwp/grophecy");
  EXPECT_EQ(modelName(resolveDefaultModel(o, InputKind::Cuda, &h100)), "mwp-cwp/modern");
  o.model = ModelKind::Emulate;
  EXPECT_EQ(modelName(resolveDefaultModel(o, InputKind::Cuda, &k20c)), "emulate/modern");
}

}  // namespace
}  // namespace foresight
