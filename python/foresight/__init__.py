# SPDX-License-Identifier: Apache-2.0
"""Foresight: predict, explain and explore GPU kernels without running them on a GPU.

Every function returns a dict: exactly the object the command line prints with ``--json``
(``foresight predict``, ``explain``, ``explore``; keys in docs/usage.md and docs/python.md).
Errors of the input, the GPU or the options raise :class:`Error`.

    import foresight
    r = foresight.predict("vecadd.cu", gpu="h100", grid=4096, block=256, args={"n": 1 << 20})
    r["time_s"], r["bound"]["resource"]

A kernel can also be given as source text (``source=``); it is written to a temporary ``.cu``
file for nvcc, which the compile cache makes cheap to repeat.
"""
import json
import os
import tempfile

from . import _foresight
from ._foresight import Error

__all__ = ["Error", "gpus", "predict", "explain", "explore", "__version__"]
__version__ = _foresight.__version__


def gpus():
    """The GPU presets: a dict with one entry per GPU (``foresight gpus --json``)."""
    return json.loads(_foresight.gpus())


def _request(path, source, kernel, gpu, defines, model, variant, options):
    if (path is None) == (source is None):
        raise Error("give a file path or source=, not both or neither")
    request = {"kernel": kernel or "", "gpu": gpu, "model": model, "variant": variant}
    if defines:
        request["defines"] = {str(k): v for k, v in defines.items()}
    for key, value in options.items():
        if value is not None:
            request[key] = value
    if path is not None:
        request["path"] = os.fspath(path)
    return request


def _call(function, request, source):
    if source is None:
        return json.loads(function(json.dumps(request)))
    with tempfile.TemporaryDirectory(prefix="foresight-") as folder:
        request["path"] = os.path.join(folder, "kernel.cu")
        with open(request["path"], "w", encoding="utf-8") as f:
            f.write(source)
        return json.loads(function(json.dumps(request)))


def _kernel(function, path, source, kernel, gpu, grid, block, args, defines, dynamic_shared, carveout,
            model, variant, include_dirs, nvcc_flags, trips, branches, tool_timeout, policy,
            l1_hit_rate, l2_hit_rate, arrays, data, l2, extra=None):
    """One launch through `function` (predict or explain); `extra`: more request fields."""
    request = _request(path, source, kernel, gpu, defines, model, variant, dict({
        "grid": grid, "block": block, "args": args, "arrays": arrays, "data": data,
        "dynamic_shared": dynamic_shared,
        "carveout": carveout, "include_dirs": include_dirs, "nvcc_flags": nvcc_flags,
        "trips": trips, "branches": branches, "tool_timeout": tool_timeout, "policy": policy,
        "l1_hit_rate": l1_hit_rate, "l2_hit_rate": l2_hit_rate, "l2": l2}, **(extra or {})))
    return _call(function, request, source)


def predict(path=None, *, source=None, kernel=None, gpu="h100", grid=None, block=None, args=None,
            defines=None, dynamic_shared=0, carveout=None, model="auto", variant="auto",
            include_dirs=None, nvcc_flags=None, trips=None, branches=None, tool_timeout=None,
            policy=None, l1_hit_rate=None, l2_hit_rate=None, arrays=None, data=None, l2=None,
            timing=None):
    """Predicts one kernel launch: time, occupancy, bound, model values (``predict --json``).

    ``path``: a ``.cu``, ``.ptx``, ``.cubin``, ``.sass`` or workload-summary ``.toml`` file;
    or ``source``: CUDA source text. ``grid`` and ``block``: an int or up to three ints
    (omitted: the input's own launch). ``args``: scalar kernel arguments by name (ints, floats,
    bools). ``arrays``: bytes of the arrays pointer arguments point to, by name (``--array``).
    ``data``: their contents, by name (``--data``: ``"i32:torus_cols:2048:4194304"``,
    ``"f32:file:x.bin"``); ``args``, ``arrays`` and ``data`` reach the frontend with ``grid``
    and ``block``.
    ``defines``: ``-D`` macros. ``trips`` / ``branches``: hints by ``"file.cu:LINE"``.
    ``l2``: ``"cold"`` (the default) or ``"warm"`` (``--l2``: the same launch ran just before).
    ``timing``: ``"stream"`` (the default: per launch of back-to-back launches) or ``"alone"``
    (``--timing``: the launch timed on its own with events, adding the GPU's launch latency).
    """
    return _kernel(_foresight.predict, path, source, kernel, gpu, grid, block, args, defines,
                   dynamic_shared, carveout, model, variant, include_dirs, nvcc_flags, trips,
                   branches, tool_timeout, policy, l1_hit_rate, l2_hit_rate, arrays, data, l2,
                   {"timing": timing})


def explain(path=None, *, source=None, kernel=None, gpu="h100", grid=None, block=None, args=None,
            defines=None, dynamic_shared=0, carveout=None, model="auto", variant="auto",
            include_dirs=None, nvcc_flags=None, trips=None, branches=None, tool_timeout=None,
            policy=None, l1_hit_rate=None, l2_hit_rate=None, arrays=None, data=None, l2=None, lines=False,
            placement=False, try_defines=False):
    """Predict's time with the emulate model's bottleneck (sensitivity analysis), the time each
    resource alone would need, the what-if penalties and the ranked fixes (``explain --json``).
    Arguments as :func:`predict`; ``lines``: also per source line (``--lines``); ``placement``:
    also search data placements for a fix (``--placement``); ``try_defines``: also try the -D
    values doubled and halved for a fix (``--try-defines``)."""
    return _kernel(_foresight.explain, path, source, kernel, gpu, grid, block, args, defines,
                   dynamic_shared, carveout, model, variant, include_dirs, nvcc_flags, trips,
                   branches, tool_timeout, policy, l1_hit_rate, l2_hit_rate, arrays, data, l2,
                   {"lines": lines, "placement": placement, "try_defines": try_defines})


def explore(path=None, *, space, source=None, kernel=None, gpu="h100", grid=None, block=None,
            args=None, defines=None, dynamic_shared=None, model="auto", variant="auto",
            include_dirs=None, nvcc_flags=None, trips=None, branches=None, tool_timeout=None,
            max_variants=10000, jobs=0, l2=None, arrays=None, data=None):
    """Predicts every variant of a space of macros and launch expressions and ranks them
    (``explore --json``).

    ``space``: a ``--space`` string (``"TX=32..1024:pow2,UNROLL=1,2,4"``) or a dict of value
    lists (``{"TX": [128, 256]}``). ``grid`` / ``block``: expressions over the macros and the
    space (``"cdiv(N, TX)"``, ``["TX", 4]``). ``args``: numbers or expressions (``{"n": "N"}``).
    ``arrays``: byte sizes as expressions (``{"x": "4*N"}``); ``data``: contents as
    :func:`predict` takes them, pattern parameters as expressions (``{"cols": "i32:chase:TX"}``).
    """
    request = _request(path, source, kernel, gpu, defines, model, variant, {
        "space": space, "grid": grid, "block": block, "args": args, "arrays": arrays, "data": data,
        "include_dirs": include_dirs, "nvcc_flags": nvcc_flags, "trips": trips,
        "branches": branches, "tool_timeout": tool_timeout, "max_variants": max_variants,
        "jobs": jobs, "l2": l2})
    if dynamic_shared is not None:
        request["dynamic_shared"] = dynamic_shared
    return _call(_foresight.explore, request, source)
