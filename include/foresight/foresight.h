// SPDX-License-Identifier: Apache-2.0
/// \file
/// Foresight's library API in one include (docs/library.md). Installed with the CMake package:
///
///   find_package(Foresight REQUIRED)
///   target_link_libraries(my_tool PRIVATE Foresight::foresight)
///
/// The commands as calls: predictWorkload() and explainWorkload() run `foresight predict` and
/// `foresight explain` on any input and GPUs (a C program's every kernel, a skeleton's best
/// layout with its ranked layouts), and the report views print their results as the CLI does.
/// Step by step, the data flow is the CLI's: a GPU description (resolveGpu: a preset name or a
/// .toml file) and an input file (loadWorkload: .toml summary, .sk skeleton, .c loop nest,
/// .cu/.ptx/.cubin/.sass) give KernelInputs and launches; predict() times one launch with a model (resolveModelNames or
/// resolveDefaultModel pick it as `--model`/`--variant` do); explainKernel() adds the bottleneck
/// analysis; explore() searches a space of macros and launch expressions; validate() scores the
/// models against measurements; the *Request() functions take and return the CLI's JSON. Every
/// call returns Expected<T>: a value, or an Error naming the file and line.
#pragma once

#include "foresight/advise/explain.h"        // explainKernel, explainOptions, ExplainResult
#include "foresight/api/requests.h"          // predictRequest, explainRequest, exploreRequest (JSON)
#include "foresight/explore/explore.h"       // explore, ExploreOptions, ExploreResult
#include "foresight/frontend/input.h"        // loadInput, selectKernel, LoadedInput, frontends, inputKindOf
#include "foresight/frontend/input_options.h"  // InputOptions
#include "foresight/gpu/gpu.h"               // Gpu
#include "foresight/gpu/occupancy.h"         // computeOccupancy
#include "foresight/gpu/presets.h"           // presetNames, loadPreset, resolveGpu
#include "foresight/ir/kernel_input.h"       // KernelInput
#include "foresight/ir/launch.h"             // Launch
#include "foresight/model/default_model.h"   // resolveModelNames, resolveDefaultModel, modelName
#include "foresight/model/predict.h"         // predict
#include "foresight/model/prediction.h"      // Prediction
#include "foresight/model/registry.h"        // registeredModels, findModel (the models, listed once)
#include "foresight/model/resource.h"        // Bound, resourceName, boundModeName
#include "foresight/support/error.h"         // Error, Expected
#include "foresight/validation/validate.h"   // validate
#include "foresight/report/explain_view.h"   // ExplainView (explain's text and JSON)
#include "foresight/report/report.h"         // Report, ReportPart and the text/JSON printers
#include "foresight/report/workload_views.h"  // WorkloadPredictionView (predict's text and JSON)
#include "foresight/workload/run_workload.h"  // predictWorkload, explainWorkload (the commands)
#include "foresight/workload/workload.h"     // loadWorkload, workloadRuns, WorkloadOptions
