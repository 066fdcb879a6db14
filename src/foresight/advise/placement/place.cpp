// SPDX-License-Identifier: Apache-2.0
#include "foresight/advise/placement/place.h"

#include <algorithm>
#include <map>

#include "foresight/model/predict.h"

namespace foresight {

std::optional<KernelInput> applyPlacement(const KernelInput& kernel, const AccessProfile& profile, const Plan& plan,
                                          std::string& why) {
  for (size_t a = 0; a < plan.size(); ++a) {
    if (plan[a] == Placement::Shared || plan[a] == Placement::PersistingL2) {
      why = profile.arrays[a].name + " in " + placementName(plan[a]) + " memory is not expressed in the timing model yet";
      return std::nullopt;
    }
  }
  KernelInput out = kernel;
  out.summary.reset();  // derived again from the changed accesses
  int site = 0;  // profileAccesses numbers the global access sites in this order
  for (BasicBlock& b : out.ir.blocks) {
    for (Instruction& in : b.instructions) {
      if (!in.memory || in.memory->space != MemorySpace::Global) continue;
      const int a = profile.sites[static_cast<size_t>(site++)].array;
      if (a < 0 || in.memory->isStore) continue;
      const Placement p = plan[static_cast<size_t>(a)];
      if (p == Placement::ReadOnly || p == Placement::Texture) {
        in.memory->cacheOp = CacheOp::Nc;
      } else if (p == Placement::Constant) {
        in.memory->space = MemorySpace::Constant;
        in.memory->cacheOp = CacheOp::Default;
      }
    }
  }
  return out;
}

namespace {

/// Every plan that fits, by the placement model's cost (ascending); stops enumerating past
/// `limit` plans (returns empty then).
std::vector<std::pair<double, Plan>> enumeratePlans(const PlanEvaluator& e, long long limit) {
  std::vector<std::vector<Placement>> opts;
  long long space = 1;
  for (int i = 0; i < e.arrays(); ++i) {
    opts.push_back(e.options(i));
    space *= static_cast<long long>(opts.back().size());
    if (space > limit) return {};
  }
  std::vector<std::pair<double, Plan>> out;
  std::vector<size_t> digit(opts.size(), 0);
  for (long long k = 0; k < space; ++k) {
    Plan plan(opts.size());
    for (size_t i = 0; i < opts.size(); ++i) plan[i] = opts[i][digit[i]];
    const PartialPlan partial(plan.begin(), plan.end());
    if (e.fits(partial)) out.emplace_back(e.cost(partial), plan);
    for (size_t i = 0; i < digit.size(); ++i) {
      if (++digit[i] < opts[i].size()) break;
      digit[i] = 0;
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return out;
}

}  // namespace

Expected<PlaceResult> placeKernel(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                  const PlaceOptions& options) {
  PlaceResult r;
  Expected<AccessProfile> profile = profileAccesses(kernel.ir, launch, options.profile);
  if (!profile) return std::move(profile).takeError();
  r.profile = std::move(*profile);
  r.msl = options.msl ? *options.msl : mslFromGpu(gpu);
  Expected<std::unique_ptr<PorpleModel>> model = PorpleModel::create(r.profile, r.msl, gpu, kernel.ir, launch, options.model);
  if (!model) return std::move(model).takeError();
  const PorpleModel& m = **model;

  r.model = options.model;
  r.requested = options.search.method;
  r.search = searchPlacement(m, options.search);
  std::vector<ArrayTraits> traits;
  for (const ProfiledArray& a : r.profile.arrays) traits.push_back(a.traits);
  const Plan ruleBased = ruleBasedPlacement(m, traits);
  const Plan original(r.profile.arrays.size(), Placement::Global);

  r.whyNot.resize(r.profile.arrays.size());
  for (size_t a = 0; a < r.profile.arrays.size(); ++a) {
    for (int p = 0; p < kNumPlacements; ++p) r.whyNot[a].push_back(m.whyNot(static_cast<int>(a), static_cast<Placement>(p)));
  }

  Expected<Prediction> base = predict(kernel, launch, gpu, options.timing);
  if (!base) return std::move(base).takeError();
  r.original = std::move(*base);

  auto score = [&](const std::string& label, const Plan& plan) -> Expected<ScoredPlan> {
    ScoredPlan s;
    s.label = label;
    s.plan = plan;
    s.modelCost = m.cost(PartialPlan(plan.begin(), plan.end()));
    if (plan == original) {
      s.seconds = r.original.seconds;
      return s;
    }
    std::optional<KernelInput> placed = applyPlacement(kernel, r.profile, plan, s.timingNote);
    if (!placed) return s;
    Expected<Prediction> p = predict(*placed, launch, gpu, options.timing);
    if (!p) return std::move(p).takeError();
    s.seconds = p->seconds;
    return s;
  };
  std::vector<Plan> seen;
  auto add = [&](const std::string& label, const Plan& plan) -> Expected<void> {
    if (std::find(seen.begin(), seen.end(), plan) != seen.end()) return {};
    Expected<ScoredPlan> s = score(label, plan);
    if (!s) return std::move(s).takeError();
    seen.push_back(plan);
    r.plans.push_back(std::move(*s));
    return {};
  };
  const std::vector<std::pair<std::string, Plan>> first = {
      {"chosen", r.search.plan}, {"original", original}, {"rule-based", ruleBased}};
  for (const auto& [label, plan] : first) {
    if (Expected<void> e = add(label, plan); !e) return std::move(e).takeError();
  }
  for (const auto& [cost, plan] : enumeratePlans(m, 4096)) {
    if (static_cast<int>(r.plans.size()) >= 3 + options.ranked) break;
    if (Expected<void> e = add("alternative", plan); !e) return std::move(e).takeError();
  }
  for (const std::string& where : r.profile.unreached) {
    r.warnings.push_back("array " + where + " is not placed: the profiled warps never access it (profile more blocks with --profile-blocks)");
  }
  r.chosenCost = m.explain(r.search.plan);
  r.originalCost = m.explain(original);
  return r;
}

}  // namespace foresight
