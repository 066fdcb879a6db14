// SPDX-License-Identifier: Apache-2.0
/// \file
/// The HTML printer (html_report.h).
#include "foresight/report/html_report.h"

#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "foresight/report/html_assets.h"

namespace foresight {

namespace {

std::string escapeHtml(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

/// JSON inside <script>: every '<' (only ever inside a JSON string) as \u003c, so that no
/// "</script" or "<!--" can end or change the element; JSON.parse reads the same string.
std::string jsonInScript(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  for (char c : json) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

/// Script text inside <script>: "</script" (any case) would end the element; "<\/script" is the
/// same text in a JavaScript string or regular expression, where it can only occur.
std::string scriptInScript(const std::string& js) {
  std::string out;
  out.reserve(js.size());
  for (size_t i = 0; i < js.size(); ++i) {
    out += js[i];
    if (js[i] == '<' && i + 7 < js.size() && js[i + 1] == '/') {
      std::string tag = js.substr(i + 2, 6);
      for (char& c : tag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (tag == "script") out += '\\';
    }
  }
  return out;
}

}  // namespace

bool htmlAvailable() { return !chartLibrary().empty(); }

Expected<std::string> htmlReport(const View& view, const std::string& title) {
  std::string library = chartLibrary();
  if (library.empty()) {
    return makeError("--html needs the chart library, which this build does not have: run scripts/setup.sh (it "
                     "fetches Vega-Lite from the npm registry into .tools/web/) and build again");
  }
  std::ostringstream text;
  view.printText(text);
  const std::string summary = view.summary();
  std::string page;
  page += "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta name=\"generator\" content=\"Foresight; charts: " + escapeHtml(chartLibraryVersions()) + "\">\n";
  page += "<title>Foresight " + escapeHtml(view.name()) + ": " + escapeHtml(title) + "</title>\n";
  page += "<style>\n" + htmlPageStyle() + "</style>\n";
  // Before anything else runs: every script error and console.error of the page is kept, and
  // report.js shows them (the browser test requires none).
  page += "<script>window.foresightErrors=[];window.addEventListener('error',function(e){"
          "window.foresightErrors.push('script error: '+e.message);});(function(){var f=console.error;"
          "console.error=function(){window.foresightErrors.push(Array.prototype.join.call(arguments,' '));"
          "return f.apply(console,arguments);};})();</script>\n";
  page += "<script>\n" + scriptInScript(library) + "\n</script>\n</head>\n<body>\n";
  page += "<header><h1>" + escapeHtml(title) + " <span class=\"kind\">" + escapeHtml(view.name()) + "</span></h1>\n";
  if (!summary.empty()) page += "<p class=\"summary\">" + escapeHtml(summary) + "</p>\n";
  page += "</header>\n<div id=\"errors\" hidden></div>\n<main id=\"charts\"></main>\n";
  page += "<details open><summary>The report as text</summary><pre id=\"text\">" + escapeHtml(text.str()) +
          "</pre></details>\n";
  page += "<footer>Charts drawn from the report's JSON with " + escapeHtml(chartLibraryVersions()) + ".</footer>\n";
  page += "<script id=\"foresight-report\" type=\"application/json\">" + jsonInScript(view.toJson().dump()) +
          "</script>\n";
  page += "<script>\n" + scriptInScript(htmlPageScript()) + "\n</script>\n</body>\n</html>\n";
  return page;
}

Expected<void> writeHtmlReport(const View& view, const std::string& title, const std::string& path) {
  Expected<std::string> page = htmlReport(view, title);
  if (!page) return std::move(page).takeError();
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << *page) || !out.flush()) return makeError("--html '" + path + "': cannot write the file");
  return {};
}

}  // namespace foresight
