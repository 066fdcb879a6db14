// SPDX-License-Identifier: Apache-2.0
/// \file
/// The model registry: every registered model is selectable by its names and predicts through
/// predict(); names are unique; validate scores exactly the registry (after "default"); the CLI's
/// messages for wrong names list the registry's families and variants.
#include "foresight/model/registry.h"

#include <gtest/gtest.h>

#include <set>

#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/default_model.h"
#include "foresight/model/predict.h"
#include "foresight/validation/validate.h"

namespace foresight {
namespace {

TEST(ModelRegistry, EveryModelIsSelectableByItsNamesAndPredicts) {
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100.ok());
  Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/vecadd-h100.toml");
  ASSERT_TRUE(in.ok()) << in.error().format();
  std::set<std::string> names;
  for (const RegisteredModel& m : registeredModels()) {
    EXPECT_TRUE(names.insert(m.name()).second) << m.name() << " twice";
    ASSERT_NE(findModelFamily(m.family), nullptr) << m.name();
    EXPECT_EQ(findModel(m.family, m.variant), &m);
    EXPECT_EQ(registeredModelOf(m.options), &m);
    // `--model FAMILY --variant VARIANT` selects it.
    ModelNames n;
    n.model = m.family;
    n.variant = m.variant;
    Expected<ModelOptions> o = resolveModelNames(n, InputKind::Summary, &*h100);
    ASSERT_TRUE(o.ok()) << m.name() << ": " << o.error().format();
    EXPECT_EQ(registeredModelOf(*o), &m);
    EXPECT_EQ(modelName(*o), m.name());
    Expected<Prediction> p = predict(in->kernels[0], *in->launch, *h100, *o);
    ASSERT_TRUE(p.ok()) << m.name() << ": " << p.error().format();
    EXPECT_EQ(p->model, m.family);
    EXPECT_EQ(p->variant, m.variant);
    EXPECT_GT(p->seconds, 0);
  }
  EXPECT_EQ(names.size(), 6u);
}

TEST(ModelRegistry, ValidateScoresTheDefaultThenEveryRegisteredModel) {
  const std::vector<ModelChoice> all = applicableModels();
  ASSERT_EQ(all.size(), registeredModels().size() + 1);
  EXPECT_EQ(all[0].name, "default");
  for (size_t i = 0; i < registeredModels().size(); ++i) EXPECT_EQ(all[i + 1].name, registeredModels()[i].name());
}

TEST(ModelRegistry, WrongNamesListTheRegistry) {
  ModelNames n;
  n.model = "roofline";
  EXPECT_EQ(resolveModelNames(n, InputKind::Cuda).error().message,
            "unknown model 'roofline' (available: auto, mwp-cwp, emulate)");
  n.model = "mwp-cwp";
  n.variant = "fast";
  EXPECT_EQ(resolveModelNames(n, InputKind::Cuda).error().message,
            "unknown variant 'fast' (available: auto, hong-kim, grophecy, cgpredict, modern)");
  n.variant = "saake";
  EXPECT_EQ(resolveModelNames(n, InputKind::Cuda).error().message,
            "variant 'saake' belongs to the emulate model; add --model emulate");
  n.model = "emulate";
  n.variant = "grophecy";
  EXPECT_EQ(resolveModelNames(n, InputKind::Cuda).error().message,
            "variant 'grophecy' belongs to the mwp-cwp model; the emulate variants are modern and saake");
}

TEST(ModelRegistry, SummaryPredictionsForSearchesComeFromTheFamily) {
  // The layout search ranks thousands of candidates from their summaries through the registry.
  Expected<Gpu> fx = loadPreset("fx5600");
  ASSERT_TRUE(fx.ok());
  Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/matmul-fx5600.toml");
  ASSERT_TRUE(in.ok()) << in.error().format();
  const KernelInput& k = in->kernels[0];
  ModelOptions grophecy;
  grophecy.model = ModelKind::MwpCwp;
  Expected<Prediction> p = predictFromSummary(*k.summary, k.ir.resources, *in->launch, *fx, grophecy);
  ASSERT_TRUE(p.ok()) << p.error().format();
  // GROPHECY's matmul on the FX 5600 (the README's first command): 8.900 ms, 12015208 cycles.
  EXPECT_NEAR(p->cycles, 12015208, 1);
  ModelOptions emulate;
  emulate.model = ModelKind::Emulate;
  Expected<Prediction> e = predictFromSummary(*k.summary, k.ir.resources, *in->launch, *fx, emulate);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "the emulate model needs a kernel's instructions, not a workload summary alone");
}

TEST(ModelRegistry, AVariantNamesItsFamilyWhenOnlyOneHasIt) {
  EXPECT_STREQ(familyOfVariant("saake"), "emulate");
  EXPECT_STREQ(familyOfVariant("grophecy"), "mwp-cwp");
  EXPECT_EQ(familyOfVariant("modern"), nullptr);  // both families have a modern variant
  EXPECT_EQ(familyOfVariant("auto"), nullptr);
  EXPECT_EQ(familyOfVariant("nope"), nullptr);
}

}  // namespace
}  // namespace foresight
