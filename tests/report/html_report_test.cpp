// SPDX-License-Identifier: Apache-2.0
/// \file
/// The HTML printer: the page carries the report's JSON exactly (parsed back from the page), its
/// text with HTML escaped, and no sequence that would end a <script> early; without the chart
/// library the page is an Error that says how to get it. (The pages in a browser:
/// tests/report/html_pages_test.py.)
#include "foresight/report/html_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "foresight/report/report.h"

namespace foresight {
namespace {

/// A report whose text and JSON hold what HTML and <script> must not see raw.
Report hostileReport() {
  return Report("hostile", {makeReportPart(
                               "part", [](std::ostream& os) { os << "a < b && c > d\n"; },
                               [] {
                                 return nlohmann::json{{"note", "</script><script>alert(1)</script>"},
                                                       {"comment", "<!-- x -->"}};
                               })});
}

TEST(HtmlReport, CarriesTheJsonAndTheEscapedText) {
  const Report report = hostileReport();
  Expected<std::string> page = htmlReport(report, "in<put>.cu");
  if (!htmlAvailable()) {
    ASSERT_FALSE(page.ok());
    EXPECT_NE(page.error().message.find("scripts/setup.sh"), std::string::npos) << page.error().message;
    GTEST_SKIP() << "built without the chart library";
  }
  ASSERT_TRUE(page.ok()) << page.error().format();
  const std::string& html = *page;
  // The data element holds the JSON with every '<' as \u003c: parsing it gives the report's JSON.
  const std::string open = "<script id=\"foresight-report\" type=\"application/json\">";
  const size_t begin = html.find(open);
  ASSERT_NE(begin, std::string::npos);
  const size_t end = html.find("</script>", begin + open.size());
  ASSERT_NE(end, std::string::npos);
  const std::string data = html.substr(begin + open.size(), end - begin - open.size());
  EXPECT_EQ(data.find('<'), std::string::npos) << data;
  EXPECT_EQ(nlohmann::json::parse(data), report.toJson());
  // The text, escaped; the title, escaped.
  EXPECT_NE(html.find("<pre id=\"text\">a &lt; b &amp;&amp; c &gt; d\n</pre>"), std::string::npos);
  EXPECT_NE(html.find("<title>Foresight hostile: in&lt;put&gt;.cu</title>"), std::string::npos);
  // No inlined text ends its <script> early: "</script" occurs exactly at the ends of the four
  // elements (the error collector, the chart library, the data, the page's script).
  size_t closed = 0;
  for (size_t at = html.find("</script"); at != std::string::npos; at = html.find("</script", at + 1)) ++closed;
  EXPECT_EQ(closed, 4u);
}

TEST(HtmlReport, WritingToAnUnwritablePathNamesIt) {
  if (!htmlAvailable()) GTEST_SKIP() << "built without the chart library";
  Expected<void> ok = writeHtmlReport(hostileReport(), "t", "/nonexistent-dir/page.html");
  ASSERT_FALSE(ok.ok());
  EXPECT_EQ(ok.error().message, "--html '/nonexistent-dir/page.html': cannot write the file");
}

}  // namespace
}  // namespace foresight
