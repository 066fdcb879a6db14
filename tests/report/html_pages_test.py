#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The --html pages in headless Chromium (issue 17): for a report of each command the page loads
with no script error, every chart is drawn, and every drawn chart has marks. With --screenshots
DIR it also takes one picture per chart (the page's "#only=NAME" view) into DIR.

Skipped (exit 77) when Chromium is not installed or the build has no chart library."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

CASES = [
    ("predict", ["predict", "examples/summary/matmul-fx5600.toml", "--gpu", "fx5600"]),
    ("predict-gpus", ["predict", "examples/summary/matmul-fx5600.toml", "--gpu", "fx5600,h100,a100"]),
    ("explain", ["explain", "tests/frontend/cuda/fixtures/transpose.sm_90.sass", "--kernel", "transpose_naive",
                 "--gpu", "h100", "--grid", "32,32", "--block", "32,8", "--arg", "n=1024", "--lines"]),
    ("explain-matmul", ["explain", "tests/frontend/cuda/fixtures/matmul.sm_90.sass", "--kernel", "matmul_tiled",
                        "--gpu", "h100", "--grid", "64,64", "--block", "16,16", "--arg", "n=1024"]),
    ("explore", ["explore", "tests/frontend/cuda/fixtures/vecadd.sm_90.sass", "--gpu", "h100", "--space",
                 "TX=32..1024:pow2", "--grid", "1048576 / TX", "--block", "TX", "--arg", "n=1048576"]),
    ("validate", ["validate", "--corpus", "validation/public", "--experiment", "laplace_copy", "--experiment",
                  "laplace_stencil"]),
    ("place", ["place", "tests/examples/fixtures/place/particle_filter.sm_75.sass", "--gpu", "k20c", "--grid", "16",
               "--block", "128", "--arg", "n=2048"]),
    ("bound", ["bound", "tests/examples/fixtures/bound/conv2d.sm_90.sass", "--kernel", "conv2d", "--gpu", "h100",
               "--grid", "128,256", "--block", "32,8", "--arg", "w=4096", "--arg", "h=2048"]),
]


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium(binary, args, timeout=120):
    return subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--virtual-time-budget=15000"] + args,
                          capture_output=True, text=True, timeout=timeout)


def check_page(browser, page, name, failures):
    """The checks of one page; returns the drawn charts' names."""
    dom = chromium(browser, ["--dump-dom", "file://" + page]).stdout
    # The page's <body> is the one the script marked (the inlined library also holds "<body>").
    body = re.search(r"<body( data-[^>]*)>", dom)
    attrs = dict(re.findall(r'data-(\w+)="([^"]*)"', body.group(1) if body else ""))
    errors = re.search(r'<div id="errors"([^>]*)>([^<]*)</div>', dom)
    if attrs.get("done") != "1":
        failures.append(f"{name}: the page's script did not finish")
        return []
    if errors and "hidden" not in errors.group(1):
        failures.append(f"{name}: errors on the page: {errors.group(2)}")
    charts, drawn = int(attrs.get("charts", 0)), int(attrs.get("drawn", 0))
    if charts == 0 or drawn != charts:
        failures.append(f"{name}: {drawn} of {charts} charts drawn")
    sections = re.findall(r'<section class="chart drawn" data-chart="([^"]+)">(.*?)</section>', dom, re.S)
    for chart, html in sections:
        if chart.endswith("summary"):
            continue
        if "<svg" not in html or not re.search(r'role="graphics-symbol"', html):
            failures.append(f"{name}: chart '{chart}' has no marks")
    return [c for c, _ in sections]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--foresight", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--screenshots", help="write one PNG per chart into this directory")
    a = ap.parse_args()
    browser = chromium_binary()
    if not browser:
        print("SKIP: Chromium is not installed (scripts/setup.sh installs Debian's chromium)")
        return 77
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in CASES:
            page = os.path.join(tmp, name + ".html")
            run = subprocess.run([a.foresight] + args + ["--html", page], cwd=a.source, capture_output=True,
                                 text=True, timeout=600, env=dict(os.environ, FORESIGHT_PROGRESS="0"))
            if "needs the chart library" in run.stderr:
                print("SKIP: " + run.stderr.strip())
                return 77
            if run.returncode != 0 or not os.path.isfile(page):
                failures.append(f"{name}: foresight exited {run.returncode}: {run.stderr.strip()}")
                continue
            drawn = check_page(browser, page, name, failures)
            print(f"{name}: charts drawn: {', '.join(drawn)}")
            if a.screenshots:
                os.makedirs(a.screenshots, exist_ok=True)
                for chart in drawn:
                    shot = os.path.join(a.screenshots, f"html-{name}-{chart}.png")
                    chromium(browser, ["--window-size=960,480", "--screenshot=" + shot,
                                       "file://" + page + "#only=" + chart])
        # The checks themselves: a page whose charts cannot draw must fail them.
        explain = os.path.join(tmp, "explain.html")
        if os.path.isfile(explain):
            broken = os.path.join(tmp, "broken.html")
            with open(explain, encoding="utf-8") as f:
                text = f.read()
            with open(broken, "w", encoding="utf-8") as f:
                f.write(text.replace('"sensitivity":[', '"sensitivity":"not a list",', 1)
                        .replace("vegaEmbed(div", "vegaEmbedMissing(div", 1))
            caught = []
            check_page(browser, broken, "broken", caught)
            if not caught:
                failures.append("a page with a broken chart passed the checks")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
