#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The `launch_latency` of a GPU preset from the runner's raw data (docs/gpu-presets.md).

A runner sample times one launch sequence with CUDA events around it; Nsight Compute's
gpu__time_duration of the same launch (raw/<session>/counters.csv, same card, same day) is the
kernel alone. For one-launch sequences the difference is what the host's submission adds to a
launch timed on its own. Short kernels only (the measured median under 100 us, so that the two
runs' clock differences stay small) that read under 4 MB from DRAM under Nsight Compute (whose
cache control starts them cold, the runner's samples mostly warm). Prints each point and the
median per GPU.

    python3 validation/measurements/launch_latency.py [raw-session-dir ...]
"""
import csv
import glob
import json
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def medians(gpu):
    """(experiment, variant) -> the latest median_ms of validation/measurements/<gpu>.jsonl."""
    out = {}
    with open(os.path.join(HERE, gpu + ".jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                out[(d["experiment"], d["variant"])] = d["median_ms"]
    return out


def profiled(path):
    """[(experiment, variant, launches, [(duration_ns, dram_read_bytes) per launch])] of a counters file."""
    out, hdr, plan, cur = [], None, None, []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for line in lines:
        m = re.match(r"# plan (\S+)\.(\S+) launches (\d+)", line)
        if m:
            if plan:
                out.append((*plan, cur))
            plan, cur = (m.group(1), m.group(2), int(m.group(3))), []
        elif line.startswith('"ID"'):
            hdr = next(csv.reader([line]))
        elif hdr and plan and line.startswith('"') and not line.startswith('""'):
            row = next(csv.reader([line]))
            if len(row) != len(hdr):
                continue
            try:
                value = lambda name: float(row[hdr.index(name)].replace(",", ""))
                cur.append((value("gpu__time_duration.sum"), value("dram__bytes_read.sum")))
            except ValueError:
                continue
    if plan:
        out.append((*plan, cur))
    return out


def main(dirs):
    dirs = dirs or sorted(glob.glob(os.path.join(HERE, "raw", "*")))
    points = {}
    for d in dirs:
        gpu = "h200" if "h200" in os.path.basename(d) else "h100"
        times = medians(gpu)
        for path in sorted(glob.glob(os.path.join(d, "counters*.csv"))):
            for experiment, variant, launches, runs in profiled(path):
                event_ms = times.get((experiment, variant))
                if event_ms is None or launches != 1 or len(runs) != 1:
                    continue
                duration_ns, dram = runs[0]
                if event_ms * 1e3 >= 100 or dram >= 4e6:
                    continue
                diff_us = event_ms * 1e3 - duration_ns / 1e3
                points.setdefault(gpu, []).append(diff_us)
                print(f"{gpu} {os.path.basename(d)} {experiment}/{variant}: event {event_ms * 1e3:.2f} us, "
                      f"Nsight Compute {duration_ns / 1e3:.2f} us, difference {diff_us:.2f} us")
    for gpu, values in sorted(points.items()):
        print(f"{gpu}: launch_latency = median of {len(values)} = {statistics.median(values):.2f} us")


if __name__ == "__main__":
    main(sys.argv[1:])
