// SPDX-License-Identifier: Apache-2.0
/// \file
/// What an `--html` page inlines, compiled into the library (cmake/embed_web_assets.py): the
/// chart library (Vega, Vega-Lite and vega-embed from the npm registry, pinned and fetched by
/// scripts/setup.sh into .tools/web/) and the page's own script (report/html/report.js) and
/// style (report/html/report.css).
#pragma once

#include <string>

namespace foresight {

/// The three minified bundles, one after the other; empty when the build found no .tools/web.
[[nodiscard]] std::string chartLibrary();
/// "vega 5.30.0, vega-lite 5.21.0, vega-embed 6.26.0"; empty without the library.
[[nodiscard]] std::string chartLibraryVersions();
/// The script that draws a report's charts from its JSON.
[[nodiscard]] std::string htmlPageScript();
/// The page's style sheet.
[[nodiscard]] std::string htmlPageStyle();

}  // namespace foresight
