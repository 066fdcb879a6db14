// SPDX-License-Identifier: Apache-2.0
#include "foresight/advise/placement/search.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <numeric>

namespace foresight {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// The evaluator seen through a counter of cost() calls, with each array's options fetched once.
class Counted {
 public:
  explicit Counted(const PlanEvaluator& e) : evaluator_(e) {
    const int n = std::max(0, e.arrays());
    options_.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      options_.push_back(e.options(i));
      if (options_.back().empty()) options_.back().push_back(Placement::Global);  // the contract's minimum
    }
  }
  [[nodiscard]] int arrays() const { return static_cast<int>(options_.size()); }
  [[nodiscard]] const std::vector<Placement>& options(int i) const { return options_[static_cast<size_t>(i)]; }
  [[nodiscard]] bool offers(int i, Placement p) const {
    const std::vector<Placement>& o = options(i);
    return std::find(o.begin(), o.end(), p) != o.end();
  }
  [[nodiscard]] double cost(const PartialPlan& plan) {
    ++evaluations_;
    return evaluator_.cost(plan);
  }
  [[nodiscard]] bool fits(const PartialPlan& plan) const { return evaluator_.fits(plan); }
  [[nodiscard]] long long evaluations() const { return evaluations_; }

 private:
  const PlanEvaluator& evaluator_;
  std::vector<std::vector<Placement>> options_;
  long long evaluations_ = 0;
};

PartialPlan partialOf(const Plan& plan) { return PartialPlan(plan.begin(), plan.end()); }

/// A complete plan from one whose every entry is set (unset entries read as Global).
Plan completed(const PartialPlan& plan) {
  Plan out;
  out.reserve(plan.size());
  for (const std::optional<Placement>& p : plan) out.push_back(p.value_or(Placement::Global));
  return out;
}

/// The number of complete plans (product of the options' counts), saturated just above `limit`.
long long planSpace(const Counted& e, long long limit) {
  const long long cap = std::max<long long>(limit, 0) + 1;
  long long space = 1;
  for (int i = 0; i < e.arrays(); ++i) {
    const auto m = static_cast<long long>(std::max<size_t>(e.options(i).size(), 1));
    if (space > cap / m) return cap;
    space *= m;
  }
  return std::min(space, cap);
}

/// Procedure 1 (porple.md §4.2 with the choices of §10.2).
SearchResult greedy(Counted& e) {
  const int n = e.arrays();
  const auto un = static_cast<size_t>(n);
  // δ_x(A): the cost of A alone on global minus A alone on x; −∞ when A does not fit alone on x.
  std::vector<std::vector<double>> delta(un, std::vector<double>(kNumPlacements, -kInfinity));
  PartialPlan alone(un);
  for (int i = 0; i < n; ++i) {
    const auto ui = static_cast<size_t>(i);
    alone[ui] = Placement::Global;
    const double global = e.cost(alone);
    for (Placement x : e.options(i)) {
      if (x == Placement::Global) {
        delta[ui][static_cast<size_t>(x)] = 0;
        continue;
      }
      alone[ui] = x;
      if (e.fits(alone)) delta[ui][static_cast<size_t>(x)] = global - e.cost(alone);
      alone[ui] = Placement::Global;
    }
    alone[ui] = std::nullopt;
  }
  auto deltaOf = [&](int i, Placement x) { return delta[static_cast<size_t>(i)][static_cast<size_t>(x)]; };

  // Steps 1–4: constant memory first, by δ_c descending; skip (don't stop at) arrays that don't fit.
  PartialPlan assigned(un);
  std::vector<int> order(un);
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> constantCandidates;
  for (int i : order) {
    if (e.offers(i, Placement::Constant) && deltaOf(i, Placement::Constant) > 0) constantCandidates.push_back(i);
  }
  std::stable_sort(constantCandidates.begin(), constantCandidates.end(), [&](int a, int b) {
    return deltaOf(a, Placement::Constant) > deltaOf(b, Placement::Constant);
  });
  for (int i : constantCandidates) {
    const auto ui = static_cast<size_t>(i);
    assigned[ui] = Placement::Constant;
    if (!e.fits(assigned)) assigned[ui] = std::nullopt;
  }

  // Steps 5–7: the potential of each remaining array, its best δ over the other non-global options.
  std::vector<int> remaining;
  std::vector<double> potential(un, -kInfinity);
  for (int i : order) {
    const auto ui = static_cast<size_t>(i);
    if (assigned[ui]) continue;
    remaining.push_back(i);
    for (Placement x : e.options(i)) {
      if (x != Placement::Global && x != Placement::Constant) potential[ui] = std::max(potential[ui], deltaOf(i, x));
    }
  }
  std::stable_sort(remaining.begin(), remaining.end(),
                   [&](int a, int b) { return potential[static_cast<size_t>(a)] > potential[static_cast<size_t>(b)]; });

  // Steps 8–10: each remaining array takes its best option on the full plan, in which the arrays
  // not assigned yet are global.
  PartialPlan full(un);
  for (size_t i = 0; i < un; ++i) full[i] = assigned[i].value_or(Placement::Global);
  double current = kInfinity;
  bool haveCurrent = false;
  for (int i : remaining) {
    const auto ui = static_cast<size_t>(i);
    Placement best = Placement::Global;
    double bestCost = kInfinity;
    bool found = false;
    for (Placement x : e.options(i)) {
      full[ui] = x;
      if (!e.fits(full)) continue;
      const double c = e.cost(full);
      if (!found || c < bestCost) {
        best = x;
        bestCost = c;
        found = true;
      }
    }
    full[ui] = best;
    current = bestCost;
    haveCurrent = found;
  }

  SearchResult r;
  r.plan = completed(full);
  r.cost = haveCurrent ? current : e.cost(full);
  r.method = SearchMethod::Greedy;
  r.optimal = false;
  return r;
}

/// Depth-first branch-and-bound over one level per array, pruned by `bound` (the best complete
/// cost so far); `plan`/`cost` change only when a strictly cheaper complete plan is found.
struct BranchAndBound {
  Counted& e;
  long long nodeLimit;
  double best;
  std::optional<Plan> bestPlan;
  PartialPlan partial;
  long long nodes = 0;
  bool stopped = false;

  void visit(int depth) {
    const auto ud = static_cast<size_t>(depth);
    const bool leaf = depth + 1 == e.arrays();
    for (Placement x : e.options(depth)) {
      if (nodes >= nodeLimit) {
        stopped = true;
        break;
      }
      ++nodes;
      partial[ud] = x;
      if (!e.fits(partial)) continue;
      const double c = e.cost(partial);
      if (c >= best) continue;
      if (leaf) {
        best = c;
        bestPlan = completed(partial);
      } else {
        visit(depth + 1);
        if (stopped) break;
      }
    }
    partial[ud] = std::nullopt;
  }
};

/// Runs branch-and-bound with the initial bound `bound`; `plan` is set when it found a complete
/// plan cheaper than the bound. Returns whether the search completed.
bool branchAndBound(Counted& e, long long nodeLimit, double& bound, std::optional<Plan>& plan) {
  const int n = e.arrays();
  if (n == 0) {
    const double c = e.cost({});
    if (c < bound) {
      bound = c;
      plan = Plan{};
    }
    return true;
  }
  BranchAndBound bb{e, nodeLimit, bound, std::nullopt, PartialPlan(static_cast<size_t>(n)), 0, false};
  bb.visit(0);
  bound = bb.best;
  plan = std::move(bb.bestPlan);
  return !bb.stopped;
}

/// Every plan that fits, in lexicographic option order (the first array most significant).
SearchResult exhaustive(Counted& e) {
  const int n = e.arrays();
  const auto un = static_cast<size_t>(n);
  std::vector<size_t> digit(un, 0);
  PartialPlan plan(un);
  SearchResult r;
  r.method = SearchMethod::Exhaustive;
  r.optimal = true;
  double best = kInfinity;
  bool found = false;
  while (true) {
    for (size_t i = 0; i < un; ++i) plan[i] = e.options(static_cast<int>(i))[digit[i]];
    if (e.fits(plan)) {
      const double c = e.cost(plan);
      if (!found || c < best) {
        best = c;
        r.plan = completed(plan);
        found = true;
      }
    }
    bool more = false;
    for (size_t i = un; i > 0 && !more; --i) {
      more = ++digit[i - 1] < e.options(static_cast<int>(i - 1)).size();
      if (!more) digit[i - 1] = 0;
    }
    if (!more) break;
  }
  if (!found) r.plan = Plan(un, Placement::Global);
  r.cost = found ? best : e.cost(partialOf(r.plan));
  return r;
}

}  // namespace

const char* searchMethodName(SearchMethod m) {
  switch (m) {
    case SearchMethod::Greedy: return "greedy";
    case SearchMethod::BranchAndBound: return "bnb";
    case SearchMethod::Hybrid: return "hybrid";
    case SearchMethod::Exhaustive: return "exhaustive";
  }
  return "?";
}

std::optional<SearchMethod> parseSearchMethod(std::string_view name) {
  for (SearchMethod m :
       {SearchMethod::Greedy, SearchMethod::BranchAndBound, SearchMethod::Hybrid, SearchMethod::Exhaustive}) {
    if (name == searchMethodName(m)) return m;
  }
  return std::nullopt;
}

SearchResult searchPlacement(const PlanEvaluator& evaluator, const SearchOptions& options) {
  Counted e(evaluator);
  SearchResult r;
  switch (options.method) {
    case SearchMethod::Greedy: r = greedy(e); break;
    case SearchMethod::Exhaustive: r = exhaustive(e); break;
    case SearchMethod::BranchAndBound: {
      double bound = kInfinity;
      std::optional<Plan> plan;
      r.optimal = branchAndBound(e, options.nodeLimit, bound, plan);
      r.method = SearchMethod::BranchAndBound;
      if (plan) {
        r.plan = std::move(*plan);
        r.cost = bound;
      } else {  // stopped before the first complete plan: the all-global plan, which always fits
        r.plan = Plan(static_cast<size_t>(e.arrays()), Placement::Global);
        r.cost = e.cost(partialOf(r.plan));
      }
      break;
    }
    case SearchMethod::Hybrid: {
      r = greedy(e);
      if (planSpace(e, options.nodeLimit) <= options.nodeLimit) {
        double bound = r.cost;
        std::optional<Plan> plan;
        r.optimal = branchAndBound(e, options.nodeLimit, bound, plan);
        if (plan) {
          r.plan = std::move(*plan);
          r.cost = bound;
          r.method = SearchMethod::BranchAndBound;
        }
      }
      break;
    }
  }
  r.evaluations = e.evaluations();
  return r;
}

Plan ruleBasedPlacement(const PlanEvaluator& evaluator, std::span<const ArrayTraits> traits) {
  const int n = std::max(0, evaluator.arrays());
  const auto un = static_cast<size_t>(n);
  PartialPlan plan(un);
  for (size_t i = 0; i < un; ++i) {
    Placement want = Placement::Global;
    if (i < traits.size()) {  // an array without traits is not analysable: global
      const ArrayTraits& t = traits[i];
      if (!t.analyzable) {
        want = Placement::Global;
      } else if (t.written) {
        want = t.sharedReuse ? Placement::Shared : Placement::Global;
      } else if (t.warpUniform) {
        want = Placement::Constant;
      } else if (t.sharedReuse) {
        want = Placement::Shared;
      } else if (t.temporalReuse || !t.coalesced) {
        want = Placement::Texture;
      }
    }
    if (want != Placement::Global) {
      const std::vector<Placement> offered = evaluator.options(static_cast<int>(i));
      if (std::find(offered.begin(), offered.end(), want) == offered.end()) want = Placement::Global;
    }
    plan[i] = want;
    if (want != Placement::Global && !evaluator.fits(plan)) plan[i] = Placement::Global;
  }
  return completed(plan);
}

}  // namespace foresight
