#!/usr/bin/env python3
"""Compare Nsight Compute counters measured on an H200 with Foresight's emulate model.

For every profiled kernel launch of the 2026-11-26 H200 counter runs
(validation/measurements/raw/2026-11-26-h200{,-b}/counters*.csv) this rebuilds the launch from the
run plan (source, defines, grid, block, dynamic shared memory, scalar arguments; trip and branch
hints from the experiment's manifest, validation/<suite>/<experiment>.toml, which the plan lacks),
runs `foresight predict ... --gpu h200 --model emulate --json` on it, and prints a Markdown table of
measured vs predicted kernel time, DRAM read/write bytes and L1/L2 sector hit rates, then a summary
(median miss, largest misses, failed predictions). Progress goes to stderr.

The ncu launch IDs 0..N-1 of a block `# plan EXP.VARIANT launches N` are the plan's launch lines
expanded by their repeat counts, in order. Blocks without CSV rows (failed runs) are skipped.

Run from the repository root (stdlib only):
    python3 scripts/counters_compare.py > /tmp/counters_h200.md
    python3 scripts/counters_compare.py --limit 3            # the first 3 counter blocks only
    python3 scripts/counters_compare.py --jobs 4 --json      # rows as JSON, 4 predictions at once
"""
import argparse, concurrent.futures, csv, json, math, os, re, statistics, subprocess, sys, threading

RAW = "validation/measurements/raw"
COUNTER_FILES = [f"{RAW}/2026-11-26-h200/counters-1.csv", f"{RAW}/2026-11-26-h200/counters-2.csv",
                 f"{RAW}/2026-11-26-h200-b/counters.csv"]
PLAN_FILES = [f"{RAW}/2026-11-26-h200/plan.txt", f"{RAW}/2026-11-26-h200-b/plan.txt"]  # later wins
TIMEOUT_S = 300
BYTES_FLOOR = 65536  # DRAM totals under 64 KiB count as 64 KiB in the log2 ratio (noise, not misses)
METRICS = {"time_us": "gpu__time_duration.sum", "dram_read": "dram__bytes_read.sum",
           "dram_write": "dram__bytes_write.sum", "l1_pct": "l1tex__t_sector_hit_rate.pct",
           "l2_pct": "lts__t_sector_hit_rate.pct"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def parse_plans(paths):
    """{'exp.variant': {name, source, defines, scalars, launches}}; a later file replaces an experiment."""
    plans, cur = {}, None
    for path in paths:
        for w in (line.split() for line in open(path)):
            if not w or (cur is None and w[0] != "experiment"):
                continue
            if w[0] == "experiment":
                cur = plans[f"{w[1]}.{w[2]}"] = {"name": w[1], "defines": [], "scalars": {}, "launches": []}
            elif w[0] == "source":
                cur["source"] = w[1]
            elif w[0] == "define":
                cur["defines"].append((w[1], w[2] if len(w) > 2 else None))
            elif w[0] == "scalar":
                cur["scalars"][w[1]] = w[3]
            elif w[0] == "launch":
                cur["launches"].append({"kernel": w[1], "grid": ",".join(w[2:5]), "block": ",".join(w[5:8]),
                                        "shared": int(w[8]), "repeat": int(w[9]), "args": w[10:]})
            elif w[0] == "end":
                cur = None
    return plans


def parse_counters(paths):
    """{'exp.variant': {launch id: {'kernel': name, metric: value}}} for blocks with CSV rows."""
    blocks = {}
    for path in paths:
        key, rows = None, {}
        for line in list(open(path)) + ["# plan <eof> launches 0"]:
            if line.startswith("# plan "):
                if rows:
                    blocks[key] = rows  # a later file replaces an earlier block of the same key
                elif key:
                    log(f"note: {key} in {path}: no counter rows (failed run), skipped")
                key, rows = line.split()[2], {}
            elif line.startswith('"') and key:
                f = next(csv.reader([line]))
                if f[0] != "ID" and len(f) >= 15:
                    try:
                        rows.setdefault(int(f[0]), {"kernel": f[4]})[f[12]] = float(f[14].replace(",", ""))
                    except ValueError:
                        pass
    return blocks


def manifest_hints(plan):
    """--trip/--branch flags from the manifest's `trips`/`branches`, expressions over the defines."""
    path = os.path.join(os.path.dirname(plan["source"]), plan["name"] + ".toml")
    if not os.path.exists(path):
        return []
    env = {k: int(v) for k, v in plan["defines"] if v and re.fullmatch(r"-?\d+", v)}
    env.update(cdiv=lambda a, b: -(-a // b), min=min, max=max)
    flags = []
    for line in open(path):
        m = re.match(r"\s*(trips|branches)\s*=\s*\[(.*?)\]", line)
        for hint in re.findall(r'"([^"]+)"', m.group(2)) if m else []:
            where, expr = hint.split("=", 1)
            try:
                value = eval(expr, {"__builtins__": {}}, env)  # the manifest's own small expression language
            except Exception:
                value = expr
            flags += ["--trip" if m.group(1) == "trips" else "--branch", f"{where}={value}"]
    return flags


def command(exe, plan, launch):
    cmd = ["timeout", str(TIMEOUT_S), exe, "predict", plan["source"], "--kernel", launch["kernel"],
           "--grid", launch["grid"], "--block", launch["block"], "--gpu", "h200", "--model", "emulate", "--json"]
    if launch["shared"] > 0:
        cmd += ["--dynamic-shared", str(launch["shared"])]
    for k, v in plan["defines"]:
        cmd += ["-D", k if v is None else f"{k}={v}"]
    cmd += [f"--arg={a}={plan['scalars'][a]}" for a in launch["args"] if a in plan["scalars"]]
    return tuple(cmd + manifest_hints(plan))


_missing_keys_shown = threading.Event()


def predict(cmd):
    """(prediction dict, None) or (None, error text)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S + 30,
                           env=dict(os.environ, FORESIGHT_PROGRESS="0"))
    except subprocess.TimeoutExpired:
        p = subprocess.CompletedProcess(cmd, 124)
    if p.returncode in (124, 137):
        return None, f"timeout after {TIMEOUT_S} s"
    if p.returncode != 0:
        lines = [l.strip() for l in (p.stderr + p.stdout).splitlines() if l.strip()]
        return None, lines[0] if lines else f"exit code {p.returncode}"
    try:
        d = json.loads(p.stdout)
    except ValueError:
        return None, "output is not JSON"
    v = d.get("values", {})
    if "time_s" not in d or not {"l1_hit_rate", "l2_hit_rate", "dram_read_bytes", "dram_write_bytes"} <= set(v):
        if not _missing_keys_shown.is_set():
            _missing_keys_shown.set()
            log(f"note: a key is missing ({cmd[6]}); JSON keys {sorted(d)}, values keys {sorted(v)}")
    pct = lambda x: None if x is None else 100 * x
    return {"time_us": d["time_s"] * 1e6 if "time_s" in d else None,
            "dram_read": v.get("dram_read_bytes"), "dram_write": v.get("dram_write_bytes"),
            "l1_pct": pct(v.get("l1_hit_rate")), "l2_pct": pct(v.get("l2_hit_rate"))}, None


def build_rows(plans, blocks, exe, limit):
    rows = []
    for key in list(blocks)[:limit or None]:
        if key not in plans:
            log(f"note: {key}: not in any plan, skipped")
            continue
        expanded = [l for l in plans[key]["launches"] for _ in range(l["repeat"])]
        for i, m in sorted(blocks[key].items()):
            if i >= len(expanded):
                log(f"note: {key}: ncu launch {i} beyond the plan's {len(expanded)} launches, skipped")
                continue
            if not m["kernel"].startswith(expanded[i]["kernel"]):
                log(f"note: {key} #{i}: ncu kernel {m['kernel']} vs plan {expanded[i]['kernel']}")
            meas = {k: m.get(metric) for k, metric in METRICS.items()}
            meas["time_us"] = None if meas["time_us"] is None else meas["time_us"] / 1e3
            rows.append({"experiment": key, "kernel": expanded[i]["kernel"], "launch": i, "meas": meas,
                         "cmd": command(exe, plans[key], expanded[i])})
    return sorted(rows, key=lambda r: (r["experiment"], r["launch"]))


def run_predictions(rows, jobs):
    """Fills pred/error, running each distinct command once."""
    unique, done, lock = list(dict.fromkeys(r["cmd"] for r in rows)), [0], threading.Lock()
    log(f"{len(rows)} launches, {len(unique)} distinct predictions")

    def one(cmd):
        res = predict(cmd)
        with lock:
            done[0] += 1
            log(f"[{done[0]}/{len(unique)}] {cmd[4]} {cmd[6]} grid {cmd[8]}: {res[1] or 'ok'}")
        return res

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        cache = dict(zip(unique, pool.map(one, unique)))
    for r in rows:
        r["pred"], r["error"] = cache[r["cmd"]]
        r["cmd"] = " ".join(r["cmd"][2:])  # without the `timeout N` prefix


def fmt(x, scale=1, digits=1):
    return "—" if x is None else f"{x / scale:.{digits}f}"


def print_table(rows):
    print("| experiment/variant | kernel (launch #) | meas µs | pred µs | meas DRAM rd MB | pred | "
          "meas DRAM wr MB | pred | meas L1 hit % | pred | meas L2 hit % | pred |")
    print("|---|---|" + "---:|" * 10)
    cols = (("dram_read", 1e6, 2), ("dram_write", 1e6, 2), ("l1_pct", 1, 1), ("l2_pct", 1, 1))
    for r in rows:
        m, p = r["meas"], r["pred"] or {}
        cells = [r["experiment"], f"{r['kernel']} ({r['launch']})", fmt(m["time_us"])]
        cells.append("**failed:** " + r["error"].replace("|", "\\|") if r["error"] else fmt(p["time_us"]))
        for k, scale, digits in cols:
            cells += [fmt(m[k], scale, digits), "" if r["error"] else fmt(p[k], scale, digits)]
        print("| " + " | ".join(cells) + " |")


def distinct(rows):
    """One row per distinct prediction (a plan's repeated launch): measured values averaged."""
    groups = {}
    for r in rows:
        groups.setdefault(r["cmd"], []).append(r)
    out = []
    for g in groups.values():
        mean = lambda k: None if any(r["meas"][k] is None for r in g) else statistics.mean(r["meas"][k] for r in g)
        launch = g[0]["launch"] if len(g) == 1 else f"{g[0]['launch']}-{g[-1]['launch']}, mean of {len(g)}"
        out.append(dict(g[0], launch=launch, n=len(g), meas={k: mean(k) for k in g[0]["meas"]}))
    return out


def print_misses(label, unit, show, pts, note=""):
    """pts: (miss, launches, row, text) per distinct kernel."""
    pts.sort(key=lambda t: -t[0])
    med = lambda xs: show(statistics.median(xs)) if xs else "—"
    print(f"### {label}\n\n{sum(t[1] for t in pts)} launches ({len(pts)} distinct kernels); median {unit} "
          f"{med([t[0] for t in pts for _ in range(t[1])])} over launches, {med([t[0] for t in pts])} over "
          f"distinct kernels.{note}\n\nLargest misses:\n")
    for t in pts[:5]:
        print(f"- {t[2]['experiment']} {t[2]['kernel']} ({t[2]['launch']}): {t[3]}")
    print()


def print_summary(rows):
    ok = distinct([r for r in rows if not r["error"]])
    print(f"\n## Summary\n\n{len(rows)} launches, {len(rows) - sum(1 for r in rows if r['error'])} predicted. "
          "A plan's repeated launch (pathfinder 99×, hotspot 10×) is one distinct kernel with its measured "
          "values averaged: medians are given over launches and over distinct kernels.\n")
    for key, label in (("l1_pct", "L1 hit %"), ("l2_pct", "L2 hit %")):
        have = [r for r in ok if r["pred"][key] is not None and r["meas"][key] is not None]
        odd = [r for r in have if not 0 <= r["meas"][key] <= 100]
        note = " Left out, measured outside 0..100 % (too little traffic): " + ", ".join(
            f"{r['experiment']} {r['kernel']} {r['meas'][key]:.1f}" for r in odd) + "." if odd else ""
        if key == "l2_pct":
            note += (" Not the same quantity on both sides: ncu's lts__t_sector_hit_rate counts every"
                     " sector the L2 sees, and a store sector (allocated without a DRAM read) counts as"
                     " a hit, so a copy kernel measures 50 %; the engine's l2_hit_rate is over its"
                     " lookups. DRAM read bytes (below) compare like with like.")
        print_misses(label, "|pred − meas| (percentage points)", lambda x: f"{x:.1f}",
                     [(abs(r["pred"][key] - r["meas"][key]), r["n"], r,
                       f"measured {r['meas'][key]:.1f}, predicted {r['pred'][key]:.1f} "
                       f"({abs(r['pred'][key] - r['meas'][key]):.1f} pp)") for r in have if r not in odd],
                     note)
    reads = []
    for r in ok:
        if None not in (r["meas"]["dram_read"], r["pred"]["dram_read"]):
            mt, pt = r["meas"]["dram_read"], r["pred"]["dram_read"]
            miss = abs(math.log2(max(pt, BYTES_FLOOR) / max(mt, BYTES_FLOOR)))
            reads.append((miss, r["n"], r, f"measured {mt / 1e6:.2f} MB, predicted {pt / 1e6:.2f} MB (×{2 ** miss:.1f})"))
    note = (f" Off by more than 2×: {sum(t[1] for t in reads if t[0] > 1)} launches "
            f"({sum(1 for t in reads if t[0] > 1)} distinct kernels); predicted above measured in "
            f"{sum(1 for t in reads if t[0] > 1 and t[2]['pred']['dram_read'] > t[2]['meas']['dram_read'])} of them."
            " Totals under 64 KiB count as 64 KiB.")
    print_misses("DRAM read bytes", "|log2(pred/meas)|", lambda x: f"{x:.2f} (×{2 ** x:.2f})", reads, note)
    pts = []
    for r in ok:
        if None not in (r["meas"]["dram_read"], r["meas"]["dram_write"], r["pred"]["dram_read"], r["pred"]["dram_write"]):
            mt, pt = r["meas"]["dram_read"] + r["meas"]["dram_write"], r["pred"]["dram_read"] + r["pred"]["dram_write"]
            miss = abs(math.log2(max(pt, BYTES_FLOOR) / max(mt, BYTES_FLOOR)))
            pts.append((miss, r["n"], r, f"measured {mt / 1e6:.2f} MB, predicted {pt / 1e6:.2f} MB (×{2 ** miss:.1f})"))
    note = (f" Off by more than 2×: {sum(t[1] for t in pts if t[0] > 1)} launches "
            f"({sum(1 for t in pts if t[0] > 1)} distinct kernels). Totals under 64 KiB count as 64 KiB.")
    print_misses("DRAM bytes (read + write)", "|log2(pred/meas)|", lambda x: f"{x:.2f} (×{2 ** x:.2f})", pts, note)
    failed = [r for r in rows if r["error"]]
    if failed:
        print("### Failed predictions\n")
        for r in failed:
            print(f"- {r['experiment']} {r['kernel']} ({r['launch']}): {r['error']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--foresight", default="build/bin/foresight", help="foresight binary")
    ap.add_argument("--limit", type=int, default=0, help="only the first N counter blocks")
    ap.add_argument("--jobs", type=int, default=1, help="predictions run at once")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON instead of Markdown")
    a = ap.parse_args()
    rows = build_rows(parse_plans(PLAN_FILES), parse_counters(COUNTER_FILES), a.foresight, a.limit)
    run_predictions(rows, a.jobs)
    if a.json:
        print(json.dumps(rows, indent=1))
    else:
        print("# Measured (ncu, H200) vs predicted (foresight emulate)\n")
        print_table(rows)
        print_summary(rows)


if __name__ == "__main__":
    main()
