# SPDX-License-Identifier: Apache-2.0
"""The Python module against the CLI: the same request gives the same JSON object.

Run by ctest (`python.module`) with PYTHONPATH=build/python and FORESIGHT_CLI=build/bin/foresight.
"""
import concurrent.futures
import json
import os
import shutil
import subprocess

import pytest

import foresight

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VECADD = os.path.join(ROOT, "tests/frontend/cuda/fixtures/vecadd.sm_90.sass")
CLI = os.environ.get("FORESIGHT_CLI", os.path.join(ROOT, "build/bin/foresight"))


def cli_json(*args):
    out = subprocess.run([CLI, *args, "--json"], check=True, capture_output=True, text=True,
                         env={**os.environ, "FORESIGHT_PROGRESS": "0"}, cwd=ROOT)
    return json.loads(out.stdout)


def test_gpus_lists_the_presets():
    names = [g["name"] for g in foresight.gpus()["gpus"]]
    assert "h100" in names and "fx5600" in names
    assert foresight.__version__ == "0.1.0"


def test_predict_is_the_cli_prediction():
    got = foresight.predict(VECADD, gpu="h100", grid=4096, block=256, args={"n": 1048576})
    want = cli_json("predict", VECADD, "--gpu", "h100", "--grid", "4096", "--block", "256",
                    "--arg", "n=1048576")
    assert got == want
    assert got["kernel"] == "vecadd"
    assert got["bound"]["resource"] == "dram"
    # A model and variant by name, as on the command line.
    emu = foresight.predict(VECADD, gpu="a100", grid=[4096], block=[256, 1, 1], args={"n": 1048576},
                            model="emulate")
    assert emu["model"] == "emulate" and emu["variant"] == "modern"


def test_a_warm_l2_is_the_cli_one():
    # vecadd's 12 MiB fit in the H200's L2: warm, its loads hit there and DRAM moves nothing.
    got = foresight.predict(VECADD, gpu="h200", grid=4096, block=256, args={"n": 1048576}, l2="warm")
    want = cli_json("predict", VECADD, "--gpu", "h200", "--grid", "4096", "--block", "256",
                    "--arg", "n=1048576", "--l2", "warm")
    assert got == want
    assert got["launch"]["l2"] == "warm"
    assert got["values"]["f_DRAM"] == 0 and got["values"]["floor_dram_us"] == 0
    cold = foresight.predict(VECADD, gpu="h200", grid=4096, block=256, args={"n": 1048576})
    assert "l2" not in cold["launch"] and cold["values"]["f_DRAM"] == 1
    with pytest.raises(foresight.Error, match="expected cold"):
        foresight.predict(VECADD, gpu="h200", grid=4096, block=256, args={"n": 1048576}, l2="tepid")


def test_a_launch_timed_alone_is_the_cli_one():
    # The H100's launch_latency (3.91 us) on top of the back-to-back time.
    got = foresight.predict(VECADD, gpu="h100", grid=4096, block=256, args={"n": 1048576},
                            timing="alone")
    want = cli_json("predict", VECADD, "--gpu", "h100", "--grid", "4096", "--block", "256",
                    "--arg", "n=1048576", "--timing", "alone")
    assert got == want
    assert got["launch"]["timing"] == "alone"
    assert got["values"]["launch_latency_us"] == 3.91
    stream = foresight.predict(VECADD, gpu="h100", grid=4096, block=256, args={"n": 1048576})
    assert "timing" not in stream["launch"]
    assert got["time_s"] == pytest.approx(stream["time_s"] + 3.91e-6, rel=1e-12)
    with pytest.raises(foresight.Error, match="expected stream"):
        foresight.predict(VECADD, gpu="h100", grid=4096, block=256, args={"n": 1048576}, timing="once")


def test_array_contents_are_the_cli_ones():
    # spmv's row_ptr and col given (--data): no trip hint, and x[col[j]] has exact addresses.
    spmv = os.path.join(ROOT, "tests/frontend/cuda/fixtures/spmv_csr.sm_90.sass")
    data = {"row_ptr": "i32:csr_rowptr:16", "col": "i32:csr_cols:16:32768"}
    got = foresight.predict(spmv, gpu="h100", grid=256, block=128, args={"rows": 32768},
                            arrays={"col": 2097152, "x": 131072}, data=data)
    want = cli_json("predict", spmv, "--gpu", "h100", "--grid", "256", "--block", "128",
                    "--arg", "rows=32768", "--array", "col=2097152", "--array", "x=131072",
                    "--data", "row_ptr=i32:csr_rowptr:16", "--data", "col=i32:csr_cols:16:32768")
    assert got == want
    with pytest.raises(foresight.Error, match="unknown init pattern 'gauss'"):
        foresight.predict(spmv, gpu="h100", grid=256, block=128, args={"rows": 32768},
                          data={"col": "i32:gauss"})
    with pytest.raises(foresight.Error, match="data needs grid and block"):
        foresight.predict(spmv, gpu="h100", args={"rows": 32768}, data=data)


def test_explain_is_the_cli_explanation():
    got = foresight.explain(VECADD, gpu="h100", grid=4096, block=256, args={"n": 1048576})
    want = cli_json("explain", VECADD, "--gpu", "h100", "--grid", "4096", "--block", "256",
                    "--arg", "n=1048576")
    assert got == want
    assert got["sensitivity"] and got["bottleneck"]


def test_explain_lines_and_fixes_are_the_cli_ones():
    got = foresight.explain(VECADD, gpu="h100", grid=4096, block=256, args={"n": 1048576}, lines=True)
    want = cli_json("explain", VECADD, "--gpu", "h100", "--grid", "4096", "--block", "256",
                    "--arg", "n=1048576", "--lines")
    assert got == want
    assert got["lines"] and "fixes" in got and got["timeline"]


def test_explore_ranks_launch_variants():
    got = foresight.explore(VECADD, gpu="h100", space={"TX": [64, 256, 2048]},
                            defines={"N": 1048576}, grid="cdiv(N, TX)", block="TX", args={"n": "N"})
    want = cli_json("explore", VECADD, "--gpu", "h100", "--space", "TX=64,256,2048", "-D", "N=1048576",
                    "--grid", "cdiv(N, TX)", "--block", "TX", "--arg", "n=N")
    assert got["variants"] == want["variants"]
    assert got["space_size"] == 3 and got["predicted"] == 2
    assert got["variants"][-1]["values"] == {"TX": 2048}
    assert "1024" in got["variants"][-1]["error"]
    assert got["best"]["rank"] == 1


def test_errors_raise_foresight_error():
    with pytest.raises(foresight.Error, match="unknown GPU 'h999'"):
        foresight.predict(VECADD, gpu="h999", grid=1, block=32, args={"n": 32})
    with pytest.raises(foresight.Error, match="variant 'saake' belongs to the emulate model"):
        foresight.predict(VECADD, grid=1, block=32, args={"n": 32}, variant="saake", model="mwp-cwp")
    with pytest.raises(foresight.Error, match="need a launch"):
        foresight.predict(VECADD, grid=1)
    with pytest.raises(foresight.Error, match="not both or neither"):
        foresight.predict()


def test_threads_predict_in_parallel_with_the_same_results():
    def one(block):
        return foresight.predict(VECADD, grid=1048576 // block, block=block, args={"n": 1048576})["time_s"]
    blocks = [64, 128, 256, 512] * 2
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(one, blocks))
    assert parallel == [one(b) for b in blocks]


@pytest.mark.skipif(not (shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")),
                    reason="nvcc not installed")
def test_source_text_is_compiled():
    source = """
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""
    r = foresight.predict(source=source, gpu="h100", grid=4096, block=256, args={"n": 1 << 20, "a": 2.0})
    assert r["kernel"] == "axpy" and r["frontend"] == "cuda"
    # 12 bytes per element over 1 Mi elements cannot move faster than the DRAM allows.
    assert r["time_s"] > 12 * (1 << 20) / 3.35e12
