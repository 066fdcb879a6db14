// SPDX-License-Identifier: Apache-2.0
// Draws the charts of a Foresight --html page from the report's JSON (the same object --json
// prints, in <script id="foresight-report">), with Vega-Lite through vega-embed. Each chart is a
// <section class="chart" data-chart="NAME">; a chart that fails to draw says so in #errors.
(function () {
  "use strict";
  // window.foresightErrors: every script error and console.error since the page began (the
  // page's first script collects them; console.error below adds to it too).
  const errors = window.foresightErrors || [];
  function show() {
    if (!errors.length) return;
    const box = document.getElementById("errors");
    box.hidden = false;
    box.textContent = errors.join("\n");
  }
  function fail(message) {
    console.error(message);
    if (!window.foresightErrors) errors.push(message);
    show();
  }

  const source = document.getElementById("foresight-report");
  const data = JSON.parse(source.textContent);
  const charts = document.getElementById("charts");
  const pending = [];

  function section(name, title, note) {
    const s = document.createElement("section");
    s.className = "chart";
    s.dataset.chart = name;
    const h = document.createElement("h2");
    h.textContent = title;
    s.appendChild(h);
    if (note) {
      const p = document.createElement("p");
      p.className = "note";
      p.textContent = note;
      s.appendChild(p);
    }
    charts.appendChild(s);
    return s;
  }

  function chart(name, title, note, spec) {
    const s = section(name, title, note);
    const div = document.createElement("div");
    div.className = "vis";
    s.appendChild(div);
    spec.$schema = "https://vega.github.io/schema/vega-lite/v5.json";
    spec.width = spec.width || 560;
    spec.config = Object.assign({ font: "system-ui, sans-serif", view: { stroke: null } }, spec.config || {});
    pending.push(
      vegaEmbed(div, spec, { actions: false, renderer: "svg" })
        .then(() => s.classList.add("drawn"))
        .catch((e) => fail(name + ": " + e)));
  }

  function bars(name, title, note, values, x, y, xTitle, extra) {
    const spec = {
      data: { values: values },
      height: Math.max(60, 22 * values.length),
      layer: [{
        mark: { type: "bar", tooltip: { content: "data" } },
        encoding: {
          y: { field: y, type: "nominal", sort: null, title: null },
          x: { field: x, type: "quantitative", title: xTitle },
          color: extra && extra.color ? extra.color : { value: "#4c78a8" },
        },
      }],
    };
    if (extra && extra.rule !== undefined) {
      spec.layer.push({
        data: { values: [{ v: extra.rule }] },
        mark: { type: "rule", color: "#e45756", strokeWidth: 2 },
        encoding: { x: { field: "v", type: "quantitative" } },
      });
    }
    chart(name, title, note, spec);
  }

  function seconds(s) {
    if (s >= 1) return s.toFixed(3) + " s";
    if (s >= 1e-3) return (s * 1e3).toFixed(3) + " ms";
    return (s * 1e6).toFixed(3) + " us";
  }

  // One prediction (predict, explain): summary card, resources, sensitivity, what-if, fixes.
  function prediction(p, prefix) {
    if (typeof p.time_s === "number" && p.bound) {
      const s = section(prefix + "summary", "Summary and bound");
      const dl = document.createElement("dl");
      const rows = [
        ["kernel", p.kernel + " on " + p.gpu],
        ["time", seconds(p.time_s) + " (" + Math.round(p.cycles) + " cycles)"],
        ["bound", p.bound.resource + " (" + p.bound.mode + "): " + p.bound.explanation],
        ["model", p.model + "/" + p.variant],
      ];
      if (p.occupancy) {
        rows.push(["occupancy", (100 * p.occupancy.fraction).toFixed(1) + "% (" + p.occupancy.blocks_per_sm +
          " blocks/SM, limited by " + p.occupancy.limiter + ")"]);
      }
      for (const [k, v] of rows) {
        const dt = document.createElement("dt");
        dt.textContent = k;
        const dd = document.createElement("dd");
        dd.textContent = v;
        dl.appendChild(dt);
        dl.appendChild(dd);
      }
      s.appendChild(dl);
      s.classList.add("drawn");
    }
    if (p.roofline && p.roofline.flops > 0 && p.roofline.peaks.length) {
      // Roofline: each level's roof min(peak, intensity x bandwidth) and the kernel's point there.
      const rf = p.roofline;
      const peak = rf.peaks[0].gflops;
      const levels = rf.levels.filter((l) => l.bytes > 0 && l.bandwidth_gbs > 0);
      const xs = levels.map((l) => l.intensity).concat(levels.map((l) => peak / l.bandwidth_gbs));
      const lo = Math.min(...xs) / 10, hi = Math.max(...xs) * 10;
      const roofs = [];
      for (const l of levels) {
        for (let i = 0; i <= 48; ++i) {
          const x = lo * Math.pow(hi / lo, i / 48);
          roofs.push({ level: l.name, intensity: x, gflops: Math.min(peak, x * l.bandwidth_gbs) });
        }
      }
      const points = levels.map((l) => ({ level: l.name, intensity: l.intensity, gflops: rf.gflops }));
      chart(prefix + "roofline", "Roofline", "the kernel at " + rf.gflops.toFixed(1) + " GFLOPS against each level's " +
        "roof (" + rf.peaks[0].name + " peak " + (peak / 1e3).toFixed(1) + " TFLOPS); a point under its roof's " +
        "slope is on that level's memory side", {
        height: 360,
        layer: [
          { data: { values: roofs }, mark: { type: "line" },
            encoding: {
              x: { field: "intensity", type: "quantitative", scale: { type: "log" }, title: "flops per byte" },
              y: { field: "gflops", type: "quantitative", scale: { type: "log" }, title: "GFLOPS" },
              color: { field: "level", type: "nominal" } } },
          { data: { values: points }, mark: { type: "point", filled: true, size: 90, tooltip: true },
            encoding: {
              x: { field: "intensity", type: "quantitative" }, y: { field: "gflops", type: "quantitative" },
              color: { field: "level", type: "nominal" } } },
        ],
      });
    }
    if (Array.isArray(p.resources) && p.resources.length) {
      bars(prefix + "resources", "Resources", "cycles each resource would need alone; the red rule is the predicted time",
        p.resources.map((r) => ({ resource: r.name, cycles: r.busy_cycles })), "cycles", "resource", "cycles",
        { rule: p.cycles });
    }
    if (Array.isArray(p.sensitivity) && p.sensitivity.length) {
      bars(prefix + "sensitivity", "Sensitivity", "elasticity of the emulated time to each latency and gap (" +
        (p.sensitivity_method || "") + ")",
        p.sensitivity.filter((e) => Math.abs(e.elasticity) >= 0.005)
          .map((e) => ({ parameter: e.resource + " " + e.parameter, elasticity: e.elasticity })),
        "elasticity", "parameter", "elasticity");
    }
    if (Array.isArray(p.whatif) && p.whatif.length) {
      // Waterfall of the penalties: each switch's saved cycles from the emulated time.
      const base = p.whatif.length ? p.whatif[0].cycles + p.whatif[0].penalty : 0;
      const steps = p.whatif.filter((w) => w.penalty > 0).sort((a, b) => b.penalty - a.penalty)
        .map((w) => ({ switch: w.name, start: base - w.penalty, end: base, speedup: w.speedup.toFixed(2) + "x" }));
      if (steps.length) {
        chart(prefix + "whatif", "What-if penalties", "cycles each penalty costs: the bar runs from the time " +
          "without it to the emulated time (" + Math.round(base) + " cycles)", {
          data: { values: steps },
          height: Math.max(60, 22 * steps.length),
          mark: { type: "bar", tooltip: true, color: "#f58518" },
          encoding: {
            y: { field: "switch", type: "nominal", sort: null, title: null },
            x: { field: "start", type: "quantitative", title: "cycles", scale: { zero: true } },
            x2: { field: "end" },
          },
        });
      }
    }
    if (Array.isArray(p.fixes) && p.fixes.length) {
      bars(prefix + "fixes", "Ranked fixes", "predicted speedup of each change (emulate model), measured against the kernel as it is; the grey bar is the bound of moving fewer bytes; the tooltip gives the reported model's own speedup where it has one",
        p.fixes.map((f) => ({
          fix: f.kind + (f.lines.length ? " (" + f.lines[0].file + ":" + f.lines[0].line + ")" : ""),
          speedup: f.speedup,
          kind: f.upper_bound ? "bound" : "fix",
          "reported model": f.model_speedup === null || f.model_speedup === undefined ? "-" : f.model_speedup,
          change: f.change,
        })), "speedup", "fix", "speedup (x)",
        { rule: 1, color: { field: "kind", type: "nominal", scale: { domain: ["fix", "bound"], range: ["#54a24b", "#bab0ac"] } } });
    }
    if (Array.isArray(p.lines) && p.lines.length) {
      // Source view: each line's wait cycles by what they waited on (explain --lines).
      const top = p.lines.filter((l) => l.stall_cycles > 0).slice(0, 20);
      const values = [];
      for (const l of top) {
        const where = l.line > 0 ? l.file + ":" + l.line : "(no line)";
        for (const w of l.waits) {
          const what = !w.unit ? w.reason : w.reason === "operand" ? w.unit + " result"
            : w.reason === "queue" ? w.unit + " throughput" : w.reason;
          values.push({ line: where, waits: what, cycles: w.cycles });
        }
      }
      chart(prefix + "lines", "Source lines", "warp-cycles the emulated SM's warps waited before issuing each line's " +
        "instructions, by what they waited on", {
        data: { values: values },
        height: Math.max(60, 22 * top.length),
        mark: { type: "bar", tooltip: true },
        encoding: {
          y: { field: "line", type: "nominal", sort: null, title: null },
          x: { field: "cycles", type: "quantitative", aggregate: "sum", title: "warp-cycles waited" },
          color: { field: "waits", type: "nominal", title: "waits on" },
        },
      });
    }
    if (Array.isArray(p.occupancy_by_block) && p.occupancy_by_block.length && p.launch) {
      const threads = p.launch.block[0] * p.launch.block[1] * p.launch.block[2];
      const now = p.occupancy_by_block.filter((o) => o.threads === threads)
        .map((o) => ({ threads: o.threads, occupancy: 100 * o.fraction }));
      chart(prefix + "occupancy", "Occupancy against block size", "share of the SM's warp slots the kernel's " +
        "registers and shared memory allow at each block size; the point is this launch (" + threads + " threads)", {
        height: 220,
        layer: [
          { data: { values: p.occupancy_by_block.map((o) => ({ threads: o.threads, occupancy: 100 * o.fraction,
              limiter: o.limiter })) },
            mark: { type: "line", point: true, tooltip: true },
            encoding: { x: { field: "threads", type: "quantitative", title: "threads per block" },
              y: { field: "occupancy", type: "quantitative", title: "occupancy (%)", scale: { domain: [0, 100] } } } },
          { data: { values: now }, mark: { type: "point", filled: true, size: 160, color: "#e45756" },
            encoding: { x: { field: "threads", type: "quantitative" }, y: { field: "occupancy", type: "quantitative" } } },
        ],
      });
    }
    if (Array.isArray(p.timeline) && p.timeline.length) {
      chart(prefix + "timeline", "Emulation timeline", "the emulated SM's first " + p.timeline.length +
        " issues: each op from its issue to when its result is ready, by warp, coloured by the unit it waits on", {
        data: { values: p.timeline.map((e) => ({ warp: e.warp, start: e.cycle, end: Math.max(e.finish, e.cycle + 1),
          op: e.op, unit: e.unit || "issue" })) },
        height: 320,
        mark: { type: "bar", tooltip: true },
        encoding: {
          y: { field: "warp", type: "ordinal", title: "warp", axis: { labelOverlap: true } },
          x: { field: "start", type: "quantitative", title: "cycle" },
          x2: { field: "end" },
          color: { field: "unit", type: "nominal", title: "unit" },
        },
      });
    }
    if (p.floors_seconds) {
      const floors = Object.entries(p.floors_seconds).map(([k, v]) => ({ floor: k, us: v * 1e6 }));
      bars(prefix + "floors", "Floors", "time each resource needs at its peak; the red rule is the emulated time",
        floors, "us", "floor", "microseconds", { rule: (p.emulate_seconds || 0) * 1e6 });
    }
  }

  function draw() {
    if (Array.isArray(data)) {
      // Several GPUs side by side.
      const rows = data.filter((p) => typeof p.time_s === "number");
      bars("gpus", "GPU comparison", "predicted time per kernel and GPU",
        rows.map((p) => ({ run: p.kernel + " on " + p.gpu, us: p.time_s * 1e6 })), "us", "run", "microseconds");
      return;
    }
    if (Array.isArray(data.kernels) && typeof data.program_time_s === "number") {
      bars("program", "Program", "time per run of each kernel (its time x its launches per run)",
        data.kernels.map((k) => ({ kernel: k.kernel, ms: k.time_s * k.launches_per_run * 1e3 })), "ms", "kernel",
        "milliseconds");
      data.kernels.forEach((k, i) => prediction(k, "k" + i + "-"));
      return;
    }
    if (Array.isArray(data.variants) && data.variants.length && "time_s" in data.variants[0]) {
      const ranked = data.variants.filter((v) => typeof v.time_s === "number" && v.time_s !== null)
        .sort((a, b) => a.time_s - b.time_s).slice(0, 40);
      bars("variants", "Ranked variants", "the fastest " + ranked.length + " variants by predicted time",
        ranked.map((v) => ({ variant: "#" + v.rank + " " + Object.entries(v.values || {}).map(([k, x]) => k + "=" + x).join(" "),
          us: v.time_s * 1e6 })), "us", "variant", "microseconds");
      return;
    }
    if (Array.isArray(data.rows) && data.rows.length && "measured_s" in data.rows[0]) {
      const points = data.rows.filter((r) => r.predicted_s > 0 && r.measured_s > 0)
        .map((r) => ({ measured: r.measured_s, predicted: r.predicted_s, model: r.model, gpu: r.gpu,
          experiment: r.experiment + "/" + r.variant }));
      const lo = Math.min(...points.map((p) => Math.min(p.measured, p.predicted)));
      const hi = Math.max(...points.map((p) => Math.max(p.measured, p.predicted)));
      chart("validation", "Predicted vs measured", points.length + " points; on the diagonal the prediction is exact", {
        height: 480, width: 480,
        layer: [
          { data: { values: [{ x: lo, y: lo }, { x: hi, y: hi }] }, mark: { type: "line", color: "#999" },
            encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } } },
          { data: { values: points }, mark: { type: "point", tooltip: true, filled: true },
            encoding: {
              x: { field: "measured", type: "quantitative", scale: { type: "log" }, title: "measured (s)" },
              y: { field: "predicted", type: "quantitative", scale: { type: "log" }, title: "predicted (s)" },
              color: { field: "model", type: "nominal" }, shape: { field: "gpu", type: "nominal" },
            } },
        ],
      });
      return;
    }
    if (Array.isArray(data.plans) && data.plans.length) {
      const plans = data.plans.filter((p) => typeof p.time_s === "number");
      bars("plans", "Placement plans", "predicted time of each ranked plan (timing model)",
        plans.map((p) => ({ plan: p.label, us: p.time_s * 1e6 })), "us", "plan", "microseconds");
    }
    prediction(data, "");
  }

  try {
    draw();
  } catch (e) {
    fail("drawing the charts: " + e);
  }
  // "#only=NAME" shows that chart alone (scripts/html_screenshots.sh takes one picture per chart).
  const only = /^#only=(.+)$/.exec(window.location.hash);
  if (only) {
    document.body.classList.add("only");
    for (const s of document.querySelectorAll("section.chart")) s.hidden = s.dataset.chart !== only[1];
  }
  Promise.all(pending).then(() => {
    show();
    document.body.dataset.charts = String(document.querySelectorAll("section.chart").length);
    document.body.dataset.drawn = String(document.querySelectorAll("section.chart.drawn").length);
    document.body.dataset.done = "1";
  });
})();
