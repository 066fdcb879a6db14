// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Prediction`: what every model returns — cycles, seconds, occupancy, the bound (resource +
/// mode), per-resource use, warnings, and the model's intermediate values for explanation.
#pragma once

#include <string>
#include <vector>

#include "foresight/gpu/occupancy.h"
#include "foresight/model/resource.h"

namespace foresight {

/// A named intermediate value of a model (e.g. "MWP" = 11.67), kept in computation order.
struct NamedValue {
  std::string name;
  double value = 0;
  std::string note;  ///< short meaning, shown in text output
};

/// How busy one resource is over the predicted time.
struct ResourceUse {
  Resource resource = Resource::Issue;
  double busyCycles = 0;   ///< cycles the resource alone would need
  double utilization = 0;  ///< busyCycles / predicted cycles, in [0, 1] for sound models
};

/// A model's prediction for one kernel launch on one GPU.
struct Prediction {
  std::string model;    ///< "mwp-cwp"
  std::string variant;  ///< "hong-kim", "grophecy", "cgpredict"
  double cycles = 0;    ///< SM cycles for the whole launch
  double seconds = 0;
  Occupancy occupancy;
  Bound bound;
  std::string boundExplanation;  ///< one sentence: why this bound
  std::vector<ResourceUse> resources;
  std::vector<NamedValue> values;  ///< intermediates, in the order the model computes them
  std::vector<std::string> warnings;

  /// The intermediate value with this name, or nullptr.
  [[nodiscard]] const NamedValue* value(const std::string& name) const {
    for (const NamedValue& v : values) {
      if (v.name == name) return &v;
    }
    return nullptr;
  }
};

}  // namespace foresight
