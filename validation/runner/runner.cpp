// SPDX-License-Identifier: Apache-2.0
// The validation runner: reads a run plan, and for each experiment variant compiles its .cu with
// nvcc to a cubin for this GPU, allocates and fills the buffers, checks the result against the
// CPU reference when the plan gives one, times the launch sequence (warm-up, CUDA events, median
// of >= 10 samples, rotating buffer copies or an L2 flush where caches would flatter), and
// appends one JSON line with provenance to validation/measurements/<gpu>.jsonl.
// Uses the CUDA driver API so kernels are loaded by name from cubins; build: runner/build.sh.
// Host logic lives in host/ and is unit-tested without a GPU
// (tests/validation/runner_host_test.cpp).
#include <cuda.h>

#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/measure.h"
#include "host/options.h"
#include "host/patterns.h"
#include "host/plan_reader.h"
#include "host/references.h"

namespace {

using namespace runner;

struct CudaError {
  std::string message;
};

void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    const char* text = nullptr;
    cuGetErrorName(r, &name);
    cuGetErrorString(r, &text);
    throw CudaError{std::string(what) + ": " + (name ? name : "?") + " (" + (text ? text : "") +
                    ")"};
  }
}

std::string runShell(const std::string& command, int& status) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) {
    status = -1;
    return out;
  }
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  status = pclose(p);
  return out;
}

struct Device {
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  long long l2Bytes = 0;
};

/// One experiment's device state: `copies` sets of buffers.
struct Buffers {
  std::vector<std::vector<CUdeviceptr>> copies;  // [copy][buffer]
  ~Buffers() {
    for (auto& set : copies)
      for (CUdeviceptr p : set) cuMemFree(p);
  }
};

void readSmi(int device, double& clockMhz, std::string& driver) {
  int status = 0;
  const std::string out =
      runShell("nvidia-smi --query-gpu=clocks.sm,driver_version --format=csv,noheader,nounits -i " +
                   std::to_string(device) + " 2>/dev/null",
               status);
  if (status != 0 || !parseSmiLine(out, clockMhz, driver)) {
    clockMhz = 0;
    driver = "unknown";
  }
}

/// Runs one experiment variant; returns its record or throws CudaError / std::runtime_error.
MeasurementRecord runExperiment(const Options& o, const Device& d, const PlanExperiment& e,
                                const std::string& workDir) {
  MeasurementRecord rec;
  rec.experiment = e.name;
  rec.variant = e.variant;
  rec.gpu = d.name;
  rec.cc = std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor);
  rec.plan = o.plan;
  rec.warmup = o.warmup;
  rec.flush = e.flush;
  rec.reinit = e.reinit;

  // 1. Compile the source for this GPU with the variant's macros (or take the cubin built ahead).
  const std::string arch = "sm_" + std::to_string(d.ccMajor) + std::to_string(d.ccMinor);
  const std::string cubinName = e.name + "." + e.variant + "." + arch + ".cubin";
  const bool builtAhead =
      !o.cubinDir.empty() && access((o.cubinDir + "/" + cubinName).c_str(), R_OK) == 0;
  const std::string cubin = (builtAhead ? o.cubinDir : workDir) + "/" + cubinName;
  if (!builtAhead) {
    std::string command = o.nvcc + " -cubin -O3 -arch=" + arch;
    for (const auto& [k, v] : e.defines) command += " -D" + k + "=" + std::to_string(v);
    command += " -o " + cubin + " " + e.source + " 2>&1";
    int status = 0;
    const std::string log = runShell(command, status);
    if (status != 0) throw std::runtime_error("nvcc failed: " + command + "\n" + log);
  }
  CUmodule module = nullptr;
  check(cuModuleLoad(&module, cubin.c_str()), "cuModuleLoad");
  std::unique_ptr<CUmod_st, void (*)(CUmodule)> moduleGuard(module,
                                                            [](CUmodule m) { cuModuleUnload(m); });
  std::vector<CUfunction> functions;
  for (const PlanLaunch& l : e.launches) {
    CUfunction f = nullptr;
    check(cuModuleGetFunction(&f, module, l.kernel.c_str()),
          ("cuModuleGetFunction " + l.kernel).c_str());
    if (l.sharedBytes > 48 * 1024) {
      check(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               static_cast<int>(l.sharedBytes)),
            "cuFuncSetAttribute");
    }
    if (l.carveout >= 0) {
      check(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, l.carveout),
            "cuFuncSetAttribute (carveout)");
    }
    functions.push_back(f);
  }

  // 2. Host data and device copies.
  HostBuffers host;
  for (const PlanBuffer& b : e.buffers) {
    std::string error;
    if (!fillBuffer(b, foresight::patternSeed(e.name, e.variant, b.name), host[b.name], error))
      throw std::runtime_error(error);
  }
  size_t freeBytes = 0, totalBytes = 0;
  check(cuMemGetInfo(&freeBytes, &totalBytes), "cuMemGetInfo");
  rec.rotateCopies =
      e.rotate ? rotationCopies(e.totalBytes(), d.l2Bytes, static_cast<long long>(freeBytes)) : 1;
  Buffers dev;
  dev.copies.resize(rec.rotateCopies);
  auto upload = [&](long long copy) {
    for (size_t i = 0; i < e.buffers.size(); ++i) {
      const auto& bytes = host[e.buffers[i].name];
      check(cuMemcpyHtoD(dev.copies[copy][i], bytes.data(), bytes.size()), "cuMemcpyHtoD");
    }
  };
  for (long long c = 0; c < rec.rotateCopies; ++c) {
    for (const PlanBuffer& b : e.buffers) {
      CUdeviceptr p = 0;
      check(cuMemAlloc(&p, host[b.name].size()), "cuMemAlloc");
      dev.copies[c].push_back(p);
    }
    upload(c);
  }
  CUdeviceptr scratch = 0;
  const size_t scratchBytes = static_cast<size_t>(2 * d.l2Bytes);
  if (e.flush) check(cuMemAlloc(&scratch, scratchBytes), "cuMemAlloc (flush)");
  std::unique_ptr<void, void (*)(void*)> scratchGuard(
      reinterpret_cast<void*>(scratch), [](void* p) {
        if (p) cuMemFree(reinterpret_cast<CUdeviceptr>(p));
      });

  // 3. Argument storage per copy and launch.
  auto launchAll = [&](long long copy) {
    for (size_t li = 0; li < e.launches.size(); ++li) {
      const PlanLaunch& l = e.launches[li];
      std::vector<unsigned char> storage(l.args.size() * 8);
      std::vector<void*> params(l.args.size());
      for (size_t a = 0; a < l.args.size(); ++a) {
        unsigned char* slot = &storage[a * 8];
        params[a] = slot;
        for (size_t b = 0; b < e.buffers.size(); ++b) {
          if (e.buffers[b].name == l.args[a])
            std::memcpy(slot, &dev.copies[copy][b], sizeof(CUdeviceptr));
        }
        if (const PlanScalar* s = e.scalar(l.args[a])) {
          if (s->type == "f32") {
            const float v = static_cast<float>(s->floatValue);
            std::memcpy(slot, &v, 4);
          } else if (s->type == "f64") {
            std::memcpy(slot, &s->floatValue, 8);
          } else if (s->type == "i64") {
            const long long v = s->intValue;
            std::memcpy(slot, &v, 8);
          } else {
            const int32_t v = static_cast<int32_t>(s->intValue);
            std::memcpy(slot, &v, 4);
          }
        }
      }
      for (long long r = 0; r < l.repeat; ++r) {
        check(cuLaunchKernel(functions[li], static_cast<unsigned>(l.grid[0]),
                             static_cast<unsigned>(l.grid[1]), static_cast<unsigned>(l.grid[2]),
                             static_cast<unsigned>(l.block[0]), static_cast<unsigned>(l.block[1]),
                             static_cast<unsigned>(l.block[2]),
                             static_cast<unsigned>(l.sharedBytes), nullptr, params.data(), nullptr),
              ("cuLaunchKernel " + l.kernel).c_str());
      }
    }
  };

  // 4. Correctness first: one run on copy 0 with poisoned outputs, compared with the CPU.
  rec.check = "none";
  launchAll(0);
  check(cuCtxSynchronize(), "first run");
  if (e.hasCheck) {
    const PlanBuffer* out = e.buffer(e.check.output);
    size_t index = 0;
    while (e.buffers[index].name != out->name) ++index;
    std::vector<unsigned char> result(host[out->name].size());
    check(cuMemcpyDtoH(result.data(), dev.copies[0][index], result.size()), "cuMemcpyDtoH");
    std::string error;
    if (!runCheck(e, host, result, rec.checkError, error))
      throw std::runtime_error("check: " + error);
    rec.check = rec.checkError <= e.check.tolerance ? "passed" : "failed";
  }
  upload(0);

  // 5. Warm-up, then timed samples.
  for (int w = 0; w < o.warmup; ++w) launchAll(w % rec.rotateCopies);
  check(cuCtxSynchronize(), "warm-up");
  CUevent start = nullptr, stop = nullptr;
  check(cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  check(cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  for (int s = 0; s < o.samples; ++s) {
    const long long copy = s % rec.rotateCopies;
    if (e.reinit) upload(copy);
    if (e.flush) check(cuMemsetD8(scratch, static_cast<unsigned char>(s), scratchBytes), "flush");
    check(cuEventRecord(start, nullptr), "cuEventRecord");
    launchAll(copy);
    check(cuEventRecord(stop, nullptr), "cuEventRecord");
    check(cuEventSynchronize(stop), "sample");
    float ms = 0;
    check(cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    rec.samplesMs.push_back(ms);
  }
  cuEventDestroy(start);
  cuEventDestroy(stop);
  readSmi(o.device, rec.smClockMhz, rec.driver);
  rec.date = utcNow();
  return rec;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::string error;
  if (!parseOptions(argc, argv, o, error)) {
    std::cerr << "runner: " << error << "\n" << usage();
    return 2;
  }
  if (o.help) {
    std::cout << usage();
    return 0;
  }
  std::ifstream in(o.plan);
  if (!in) {
    std::cerr << "runner: cannot read plan '" << o.plan << "'\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::vector<PlanExperiment> plan;
  if (!parsePlan(text.str(), plan, error)) {
    std::cerr << "runner: " << o.plan << ": " << error << "\n";
    return 1;
  }
  std::vector<PlanExperiment> selected;
  for (const PlanExperiment& e : plan) {
    bool want = o.experiments.empty();
    for (const std::string& n : o.experiments) want = want || n == e.name;
    if (want) selected.push_back(e);
  }
  if (o.dryRun) {
    for (const PlanExperiment& e : selected) {
      for (const PlanBuffer& b : e.buffers) {
        std::vector<unsigned char> bytes;
        if (!fillBuffer(b, foresight::patternSeed(e.name, e.variant, b.name), bytes, error)) {
          std::cerr << "runner: " << e.name << "/" << e.variant << ": " << error << "\n";
          return 1;
        }
      }
      std::cout << e.name << "/" << e.variant << ": " << e.buffers.size() << " buffers, "
                << e.totalBytes() << " bytes, " << e.launches.size() << " launches"
                << (e.hasCheck ? ", checked" : "") << "\n";
    }
    return 0;
  }

  Device d;
  try {
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&d.dev, o.device), "cuDeviceGet");
    char name[256] = {};
    check(cuDeviceGetName(name, sizeof name, d.dev), "cuDeviceGetName");
    d.name = name;
    int v = 0;
    check(cuDeviceGetAttribute(&d.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d.dev),
          "attribute");
    check(cuDeviceGetAttribute(&d.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d.dev),
          "attribute");
    check(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, d.dev), "attribute");
    d.l2Bytes = v;
    check(cuDevicePrimaryCtxRetain(&d.ctx, d.dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(d.ctx), "cuCtxSetCurrent");
  } catch (const CudaError& e) {
    std::cerr << "runner: no usable CUDA GPU: " << e.message << "\n";
    return 1;
  }
  char tmpl[] = "/tmp/foresight-runner-XXXXXX";
  const char* workDir = mkdtemp(tmpl);
  if (!workDir) {
    std::cerr << "runner: cannot create a temporary directory\n";
    return 1;
  }
  std::ofstream out(o.out, std::ios::app);
  if (!out) {
    std::cerr << "runner: cannot append to '" << o.out << "'\n";
    return 1;
  }
  int failures = 0;
  for (const PlanExperiment& e : selected) {
    try {
      const MeasurementRecord rec = runExperiment(o, d, e, workDir);
      if (rec.check == "failed") {
        // A wrong result is not a measurement of the kernel: report it and record nothing.
        std::cerr << "runner: " << e.name << "/" << e.variant << ": check FAILED (relative error "
                  << rec.checkError << ")\n";
        ++failures;
        continue;
      }
      out << formatJsonLine(rec) << "\n";
      out.flush();
      std::printf("%-24s %-12s %10.4f ms  check %s\n", e.name.c_str(), e.variant.c_str(),
                  median(rec.samplesMs), rec.check.c_str());
      std::fflush(stdout);
    } catch (const CudaError& err) {
      std::cerr << "runner: " << e.name << "/" << e.variant << ": " << err.message << "\n";
      ++failures;
      if (cuCtxSynchronize() != CUDA_SUCCESS) {
        std::cerr << "runner: the context is unusable after this error; stopping\n";
        break;
      }
    } catch (const std::exception& err) {
      std::cerr << "runner: " << e.name << "/" << e.variant << ": " << err.what() << "\n";
      ++failures;
    }
  }
  std::string cleanup = std::string("rm -rf ") + workDir;
  int ignored = 0;
  runShell(cleanup, ignored);
  cuDevicePrimaryCtxRelease(d.dev);
  std::cerr << "runner: " << selected.size() - failures << " of " << selected.size()
            << " experiment variants measured, appended to " << o.out << "\n";
  return failures ? 1 : 0;
}
