#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One GPU session, run on the machine with the GPU: the card's state, the calibration
# microbenchmarks, the whole corpus, and hardware counters of one variant per experiment.
# Everything is built ahead on a machine without a GPU (a lent GPU's minutes go to measuring):
#
#   foresight validate --emit-plan PRE/plan.txt
#   validation/runner/build.sh PRE/validation-runner
#   validation/runner/precompile.sh PRE/plan.txt PRE/cubins sm_90
#   nvcc -O3 -arch=sm_90 -o PRE/microbench calibrate/microbench.cu
#
# (.devrun*/ is git-ignored: a tool that copies the working tree to the GPU machine must be told
# to take it along), then, on the GPU machine, from the repository root:
#
#   validation/runner/device_session.sh OUTDIR [PRE] [COUNTER_SECONDS]
#
# OUTDIR receives: state.txt (nvidia-smi before and after), calibrate.txt (microbench output for
# `foresight calibrate --from-output`), <gpu>.jsonl (runner lines for validation/measurements/),
# runner.log, counters.csv (Nsight Compute metrics; clocks left as found) and session.log.
# The GPU's settings are never changed. Each step runs under a time limit; a step that fails
# leaves the others' results in place.
#
# Environment: CORPUS=0 skips the corpus run; EXPERIMENTS="a b" profiles only those experiments
# (in that order) and, with ALL_VARIANTS=1, every variant of them; NCU_ARGS="--section
# WarpStateStats --page raw" adds Nsight Compute options (here: the stall reasons) to the metrics.
set -uo pipefail
out=${1:?usage: device_session.sh OUTDIR [PRE] [COUNTER_SECONDS]}
pre=${2:-.devrun}
counterSeconds=${3:-100}
mkdir -p "$out"
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$out/session.log" >&2; }

smiState() {
  echo "== $1 $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  timeout 30 nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu,persistence_mode,compute_mode,mig.mode.current,ecc.mode.current --format=csv
  timeout 30 nvidia-smi -q -d CLOCK,PERFORMANCE,POWER | sed -n 1,80p
}

name=$(timeout 30 nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in
  *H200*) gpu=h200 ;;
  *H100*PCIe*) gpu=h100-pcie ;;
  *H100*) gpu=h100 ;;
  *A100*80GB*) gpu=a100-80 ;;
  *A100*) gpu=a100 ;;
  *V100*) gpu=v100 ;;
  *) gpu=unknown ;;
esac
log "device '$name' -> measurement file $gpu.jsonl"
smiState before > "$out/state.txt" 2>&1
timeout 60 nvcc --version >> "$out/state.txt" 2>&1

log "calibration microbenchmarks"
timeout 180 "$pre/microbench" > "$out/calibrate.txt" 2>> "$out/session.log"
log "microbench exit $?"

if [ "${CORPUS:-1}" != 0 ]; then
  log "corpus: $(grep -c '^experiment' "$pre/plan.txt") variants"
  timeout 360 "$pre/validation-runner" --plan "$pre/plan.txt" --gpu "$gpu" --cubin-dir "$pre/cubins" \
    --out "$out/$gpu.jsonl" > "$out/runner.log" 2>&1
  log "runner exit $?: $(wc -l < "$out/$gpu.jsonl") lines"
fi

# Counters: the first variant of each experiment, one plan per variant; only its first launch
# sequence (the correctness run) is profiled. Caches are flushed before each kernel (ncu's
# default), clocks are not locked (--clock-control none).
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second
if command -v ncu > /dev/null; then
  split="$out/.plans"
  mkdir -p "$split"
  awk -v dir="$split" -v only="${EXPERIMENTS:-}" -v all="${ALL_VARIANTS:-0}" '
    BEGIN { n = split(only, list, " "); for (i = 1; i <= n; ++i) { wanted[list[i]] = i } }
    /^foresight-plan/ { header = $0; next }
    $1 == "experiment" {
      keep = (n == 0 || ($2 in wanted)) && (all == 1 || !seen[$2]++)
      if (keep) { f = dir "/" sprintf("%03d", n ? wanted[$2] : 0) "." $2 "." $3 ".txt"; print header > f }
    }
    keep { print >> f }
    $1 == "end" && keep { close(f) }
  ' "$pre/plan.txt"
  deadline=$(( $(date +%s) + counterSeconds ))
  for plan in "$split"/*.txt; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      log "counters: time box of ${counterSeconds}s reached"
      break
    fi
    launches=$(awk '$1 == "launch" { n += $10 } END { print n }' "$plan")
    echo "# plan $(basename "$plan" .txt | cut -d. -f2-) launches $launches" >> "$out/counters.csv"
    # shellcheck disable=SC2086 # NCU_ARGS: one word per option
    timeout 60 ncu --csv --print-units base --clock-control none --launch-count "$launches" \
      --metrics "$metrics" ${NCU_ARGS:-} "$pre/validation-runner" --plan "$plan" --gpu "$gpu" \
      --cubin-dir "$pre/cubins" --out /dev/null --samples 10 --warmup 0 \
      >> "$out/counters.csv" 2>> "$out/session.log"
  done
  rm -rf "$split"
  log "counters: $(grep -c '^# plan' "$out/counters.csv") plans"
else
  log "counters: ncu not found"
fi
smiState after >> "$out/state.txt" 2>&1
log "done"
