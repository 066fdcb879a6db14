// SPDX-License-Identifier: Apache-2.0
// `explain`'s analysis (emulate model + sensitivity) names the expected resource and mode of the
// H100 bottleneck examples (examples/cuda/bottlenecks/expected.toml; hand numbers in README.md),
// loaded through the CUDA frontend from the stored sm_90 fixtures (no nvcc needed).
#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <string>
#include <vector>

#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/cuda/fixture_toolchain.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/emulate/emu_listeners.h"
#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/emulate/sensitivity.h"

namespace foresight {
namespace {

const std::string kExamples = std::string(FORESIGHT_SOURCE_DIR) + "/examples/cuda/bottlenecks";
const std::string kFixtures = std::string(FORESIGHT_SOURCE_DIR) + "/tests/examples/fixtures/bottlenecks";

TEST(EmulateBottleneckExamples, ExplainNamesEachExpectedResourceAndMode) {
  const Gpu gpu = loadPreset("h100").value();
  const toml::table table = toml::parse_file(kExamples + "/expected.toml");
  int checked = 0;
  for (const auto& [key, node] : table) {
    const toml::table& c = *node.as_table();
    const std::string name(key.str());
    cuda::CudaOptions o;
    o.arch = "sm_90";
    o.kernel = c["kernel"].value_or(std::string());
    long long dims[2][3] = {{1, 1, 1}, {1, 1, 1}};
    const char* keys[2] = {"grid", "block"};
    for (int d = 0; d < 2; ++d) {
      const toml::array& a = *c[keys[d]].as_array();
      for (size_t i = 0; i < a.size(); ++i) dims[d][i] = a.get(i)->value<long long>().value_or(1);
    }
    o.launch.grid = {dims[0][0], dims[0][1], dims[0][2]};
    o.launch.block = {dims[1][0], dims[1][1], dims[1][2]};
    if (const toml::table* args = c["args"].as_table()) {
      for (const auto& [an, av] : *args) o.launch.args[std::string(an.str())] = av.value<long long>().value_or(0);
    }
    auto tc = cuda::createFixtureToolchain({kFixtures, true});
    Expected<cuda::CudaProgram> program = cuda::loadCuda(kExamples + "/" + c["file"].value_or(std::string()), o, *tc);
    ASSERT_TRUE(program.ok()) << name << ": " << program.error().message;
    KernelInput kernel;
    kernel.ir = program->kernels.front().ir;
    Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(kernel, o.launch, gpu, {});
    ASSERT_TRUE(e.ok()) << name << ": " << e.error().message;
    // Without listeners the engine's scans skip warps whose ready time is known to be ahead
    // (a lower bound): the same warps issue at the same times.
    emu::UtilizationListener util(static_cast<int>(e->units().size()));
    emu::EmuListener* listeners[] = {&util};
    EXPECT_DOUBLE_EQ(e->run({}, listeners).value().cycles, e->run().value().cycles) << name;
    Expected<SensitivityReport> s = analyzeSensitivity(*e);
    ASSERT_TRUE(s.ok()) << name;
    const std::string expected = std::string(c["resource"].value_or(std::string())) + " " + c["mode"].value_or(std::string());
    const std::string actual = std::string(resourceName(s->bound.resource)) + " " + boundModeName(s->bound.mode);
    EXPECT_EQ(actual, expected) << name << " (top parameter " << s->boundUnit << ", Σ = " << s->sum << ")";
    ++checked;
  }
  EXPECT_EQ(checked, 10);
}

}  // namespace
}  // namespace foresight
