// SPDX-License-Identifier: Apache-2.0
/// \file
/// The HTML printer (`--html FILE`, issue 17): one self-contained page per report — the report's
/// JSON (what `--json` prints), its text (what the terminal shows) and charts drawn from that
/// JSON by the inlined chart library, so the page never disagrees with the other two and works
/// offline from a file:// URL. Which charts a page has follows from the JSON's shape
/// (report/html/report.js): a prediction's summary, resources, sensitivity, what-if waterfall and
/// ranked fixes; a GPU comparison; a program's kernels; explore's ranked variants; validate's
/// predicted-vs-measured scatter; place's plans; bound's floors.
#pragma once

#include <string>

#include "foresight/report/view.h"
#include "foresight/support/error.h"

namespace foresight {

/// True when the build inlined the chart library (scripts/setup.sh fetched it).
[[nodiscard]] bool htmlAvailable();

/// The page of `view`, titled `title` (the input file, say). Error without the chart library.
[[nodiscard]] Expected<std::string> htmlReport(const View& view, const std::string& title);

/// Writes htmlReport() to `path`; errors name the file.
[[nodiscard]] Expected<void> writeHtmlReport(const View& view, const std::string& title, const std::string& path);

}  // namespace foresight
