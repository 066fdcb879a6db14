// SPDX-License-Identifier: Apache-2.0
/// \file
/// The runner's host logic, without a GPU: init patterns, the median, rotating-buffer
/// arithmetic, nvidia-smi parsing, the JSON line (read back by the library's measurement
/// parser), the CPU references and the command line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "foresight/validation/measurement.h"
#include "host/measure.h"
#include "host/options.h"
#include "host/patterns.h"
#include "host/references.h"

namespace runner {
namespace {

PlanBuffer buffer(const std::string& type, long long count, const std::string& init,
                  std::vector<long long> params = {}, double value = 0) {
  PlanBuffer b;
  b.name = "b";
  b.type = type;
  b.count = count;
  b.role = "input";
  b.init = init;
  b.params = std::move(params);
  b.value = value;
  return b;
}

template <class T>
std::vector<T> filled(const PlanBuffer& b, uint64_t seed = 1) {
  std::vector<unsigned char> bytes;
  std::string error;
  EXPECT_TRUE(fillBuffer(b, seed, bytes, error)) << error;
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

TEST(RunnerPatterns, DeterministicPatterns) {
  EXPECT_EQ(filled<int32_t>(buffer("i32", 4, "iota")), (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(filled<float>(buffer("f32", 3, "ones")), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(filled<double>(buffer("f64", 2, "constant", {}, 2.5)), (std::vector<double>{2.5, 2.5}));
  EXPECT_EQ(filled<int32_t>(buffer("i32", 5, "mod", {3})), (std::vector<int32_t>{0, 1, 2, 0, 1}));
  EXPECT_EQ(filled<int32_t>(buffer("i32", 4, "csr_rowptr", {8})),
            (std::vector<int32_t>{0, 8, 16, 24}));
  EXPECT_EQ(filled<int32_t>(buffer("i32", 5, "chase", {2})), (std::vector<int32_t>{2, 3, 4, 0, 1}));
  EXPECT_EQ(filled<int64_t>(buffer("i64", 2, "zero")), (std::vector<int64_t>{0, 0}));
  const std::vector<float> poison = filled<float>(buffer("f32", 2, "poison"));
  EXPECT_TRUE(std::isnan(poison[0]) && std::isnan(poison[1]));
  EXPECT_EQ(filled<uint32_t>(buffer("u32", 1, "poison"))[0], 0xffffffffu);
}

TEST(RunnerPatterns, GraphPatterns) {
  // Torus W = 4, N = 8 nodes (two rows): node 5 = (x 1, row start 4) → 6, 4, 1 (= 9 mod 8), 1.
  const std::vector<int32_t> cols = filled<int32_t>(buffer("i32", 32, "torus_cols", {4, 8}));
  EXPECT_EQ(std::vector<int32_t>(cols.begin() + 20, cols.begin() + 24),
            (std::vector<int32_t>{6, 4, 1, 1}));
  // Node 0: 1, 3 (wraps within the row), 4, 4.
  EXPECT_EQ(std::vector<int32_t>(cols.begin(), cols.begin() + 4),
            (std::vector<int32_t>{1, 3, 4, 4}));
  // csr_cols K = 4 of NCOLS = 16: columns of one row are distinct and step by 16 / 4 = 4.
  const std::vector<int32_t> c = filled<int32_t>(buffer("i32", 8, "csr_cols", {4, 16}));
  for (int row = 0; row < 2; ++row) {
    for (int j = 1; j < 4; ++j) EXPECT_EQ((c[row * 4 + j] - c[row * 4] + 16) % 16, 4 * j);
  }
}

TEST(RunnerPatterns, RandomIsReproducibleAndInRange) {
  const PlanBuffer r = buffer("f32", 1000, "random");
  const std::vector<float> a = filled<float>(r, 7), b = filled<float>(r, 7),
                           c = filled<float>(r, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (float v : a) EXPECT_TRUE(v >= 0 && v < 1);
  for (int32_t v : filled<int32_t>(buffer("i32", 1000, "random_int", {-3, 3})))
    EXPECT_TRUE(v >= -3 && v <= 3);
  EXPECT_NE(foresight::patternSeed("a", "b", "c"), foresight::patternSeed("a", "bc", ""));
}

TEST(RunnerPatterns, ChunkedFillsEqualTheSequentialStream) {
  // 5 Mi elements are filled in chunks on several threads; element i must still be draw i of one
  // splitmix64 stream (seed 11), as a one-thread fill gives.
  const long long n = 5 << 20;
  foresight::SplitMix64 rng{11};
  std::vector<float> expected(n);
  std::vector<int32_t> expectedInt(n);
  for (long long i = 0; i < n; ++i) expected[i] = static_cast<float>(rng.uniform());
  foresight::SplitMix64 rngInt{11};
  for (long long i = 0; i < n; ++i) expectedInt[i] = static_cast<int32_t>(-2 + rngInt.next() % 5);
  EXPECT_EQ(filled<float>(buffer("f32", n, "random"), 11), expected);
  EXPECT_EQ(filled<int32_t>(buffer("i32", n, "random_int", {-2, 2}), 11), expectedInt);
  const std::vector<int32_t> chase = filled<int32_t>(buffer("i32", n, "chase", {3}));
  EXPECT_EQ(chase[0], 3);
  EXPECT_EQ(chase[n - 1], 2);  // (n - 1 + 3) mod n
}

TEST(RunnerPatterns, Errors) {
  std::vector<unsigned char> bytes;
  std::string error;
  EXPECT_FALSE(fillBuffer(buffer("f32", 2, "gaussian"), 1, bytes, error));
  EXPECT_EQ(error, "unknown init pattern 'gaussian' (buffer 'b')");
  EXPECT_FALSE(fillBuffer(buffer("i32", 2, "mod"), 1, bytes, error));
  EXPECT_EQ(error, "init pattern 'mod' takes 1 parameter(s) (buffer 'b')");
  EXPECT_FALSE(fillBuffer(buffer("i32", 2, "random_int", {5, 1}), 1, bytes, error));
  EXPECT_EQ(error, "init pattern 'random_int' needs LO <= HI (buffer 'b')");
}

TEST(RunnerMeasure, Median) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);  // (2 + 3) / 2
  EXPECT_DOUBLE_EQ(median({}), 0);
}

TEST(RunnerMeasure, RotationCopies) {
  const long long MiB = 1 << 20;
  // 50 MiB L2, factor 2 → cover 100 MiB. A 12 MiB working set needs ceil(100 / 12) = 9 copies.
  EXPECT_EQ(rotationCopies(12 * MiB, 50 * MiB, 80000 * MiB), 9);
  // A working set of 100 MiB or more already covers it: 1 copy.
  EXPECT_EQ(rotationCopies(100 * MiB, 50 * MiB, 80000 * MiB), 1);
  EXPECT_EQ(rotationCopies(400 * MiB, 50 * MiB, 80000 * MiB), 1);
  // Tiny working sets are capped at 64 copies.
  EXPECT_EQ(rotationCopies(1024, 50 * MiB, 80000 * MiB), 64);
  // Free memory caps it: 60 MiB free → 30 MiB usable → 2 copies of 12 MiB.
  EXPECT_EQ(rotationCopies(12 * MiB, 50 * MiB, 60 * MiB), 2);
  // Never fewer than one.
  EXPECT_EQ(rotationCopies(12 * MiB, 50 * MiB, 1 * MiB), 1);
  EXPECT_EQ(rotationCopies(0, 50 * MiB, 80000 * MiB), 1);
}

TEST(RunnerMeasure, NvidiaSmiLine) {
  double clock = 0;
  std::string driver;
  ASSERT_TRUE(parseSmiLine("1980, 580.65.06\n", clock, driver));
  EXPECT_DOUBLE_EQ(clock, 1980);
  EXPECT_EQ(driver, "580.65.06");
  EXPECT_FALSE(parseSmiLine("[N/A], 580.65.06", clock, driver));
  EXPECT_FALSE(parseSmiLine("1980", clock, driver));
}

TEST(RunnerMeasure, JsonLineIsReadBackByTheLibrary) {
  MeasurementRecord r;
  r.experiment = "gemm";
  r.variant = "b32x8";
  r.gpu = "NVIDIA H100 \"SXM\"";
  r.cc = "9.0";
  r.driver = "580.65.06";
  r.date = "2026-11-21T06:00:00Z";
  r.check = "passed";
  r.checkError = 1.5e-7;
  r.plan = "plan.txt";
  r.smClockMhz = 1980;
  r.warmup = 3;
  r.rotateCopies = 4;
  r.samplesMs = {1.25, 1.0, 1.5, 1.125};
  const std::string line = formatJsonLine(r);
  EXPECT_EQ(line,
            "{\"experiment\":\"gemm\",\"variant\":\"b32x8\",\"gpu\":\"NVIDIA H100 "
            "\\\"SXM\\\"\",\"cc\":\"9.0\","
            "\"driver\":\"580.65.06\",\"sm_clock_mhz\":1980,\"date\":\"2026-11-21T06:00:00Z\","
            "\"warmup\":3,"
            "\"rotate_copies\":4,\"flush\":false,\"reinit\":false,\"check\":\"passed\",\"check_"
            "error\":1.5e-07,"
            "\"median_ms\":1.1875,\"samples_ms\":[1.25,1,1.5,1.125],\"plan\":\"plan.txt\","
            "\"runner\":\"foresight-runner 1\"}");
  foresight::Expected<foresight::Measurement> m =
      foresight::parseMeasurementLine(line, "x.jsonl", 1);
  ASSERT_TRUE(m.ok()) << m.error().format();
  EXPECT_EQ(m->device, "NVIDIA H100 \"SXM\"");
  EXPECT_EQ(m->check, "passed");
  EXPECT_DOUBLE_EQ(m->smClockMhz, 1980);
  EXPECT_DOUBLE_EQ(m->medianSeconds, 1.1875e-3);  // (1.125 + 1.25) / 2 ms
  EXPECT_EQ(jsonString("a\nb\x01"), "\"a\\nb\\u0001\"");
}

PlanExperiment checkExperiment(const std::string& ref, std::vector<std::string> inputs,
                               std::vector<long long> params) {
  PlanExperiment e;
  e.hasCheck = true;
  e.check.reference = ref;
  e.check.output = "out";
  e.check.inputs = std::move(inputs);
  e.check.params = std::move(params);
  return e;
}

std::vector<unsigned char> bytesOf(const std::vector<float>& v) {
  std::vector<unsigned char> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
std::vector<unsigned char> bytesOf(const std::vector<int32_t>& v) {
  std::vector<unsigned char> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

PlanBuffer named(const std::string& name, const std::string& type, long long count) {
  PlanBuffer b = buffer(type, count, "zero");
  b.name = name;
  return b;
}

TEST(RunnerReferences, GemmTransposeCopyReduceSpmv) {
  double err = -1;
  std::string error;
  // gemm 2x2: A = [1 2; 3 4], B = [5 6; 7 8] → C = [19 22; 43 50]
  PlanExperiment g = checkExperiment("gemm", {"A", "B"}, {2, 2, 2});
  g.buffers = {named("A", "f32", 4), named("B", "f32", 4), named("out", "f32", 4)};
  HostBuffers in = {{"A", bytesOf(std::vector<float>{1, 2, 3, 4})},
                    {"B", bytesOf(std::vector<float>{5, 6, 7, 8})}};
  ASSERT_TRUE(runCheck(g, in, bytesOf(std::vector<float>{19, 22, 43, 50}), err, error)) << error;
  EXPECT_DOUBLE_EQ(err, 0);
  // One element off by 1: ||d|| = 1, ||ref|| = sqrt(19² + 22² + 43² + 50²) = sqrt(5194)
  ASSERT_TRUE(runCheck(g, in, bytesOf(std::vector<float>{19, 22, 43, 51}), err, error));
  EXPECT_NEAR(err, 1 / std::sqrt(5194.0), 1e-12);
  // NaN (an unwritten, poisoned element) never passes.
  ASSERT_TRUE(runCheck(g, in, bytesOf(std::vector<float>{19, 22, 43, NAN}), err, error));
  EXPECT_TRUE(std::isinf(err));

  // transpose 2x3 → 3x2
  PlanExperiment t = checkExperiment("transpose", {"A"}, {2, 3});
  t.buffers = {named("A", "f32", 6), named("out", "f32", 6)};
  ASSERT_TRUE(runCheck(t, {{"A", bytesOf(std::vector<float>{1, 2, 3, 4, 5, 6})}},
                       bytesOf(std::vector<float>{1, 4, 2, 5, 3, 6}), err, error));
  EXPECT_DOUBLE_EQ(err, 0);

  // reduce_sum: partial sums 3 + 7 against 1 + 2 + 3 + 4
  PlanExperiment r = checkExperiment("reduce_sum", {"A"}, {4});
  r.buffers = {named("A", "f32", 4), named("out", "f32", 2)};
  ASSERT_TRUE(runCheck(r, {{"A", bytesOf(std::vector<float>{1, 2, 3, 4})}},
                       bytesOf(std::vector<float>{3, 7}), err, error));
  EXPECT_DOUBLE_EQ(err, 0);
  ASSERT_TRUE(runCheck(r, {{"A", bytesOf(std::vector<float>{1, 2, 3, 4})}},
                       bytesOf(std::vector<float>{3, 8}), err, error));
  EXPECT_DOUBLE_EQ(err, 0.1);  // |11 - 10| / 10

  // spmv: rows {0: cols 0,1 vals 1,2}, {1: col 1 val 3}; x = {10, 20} → y = {50, 60}
  PlanExperiment s = checkExperiment("spmv_csr", {"rp", "cols", "vals", "x"}, {2});
  s.buffers = {named("rp", "i32", 3), named("cols", "i32", 3), named("vals", "f32", 3),
               named("x", "f32", 2), named("out", "f32", 2)};
  HostBuffers sin = {{"rp", bytesOf(std::vector<int32_t>{0, 2, 3})},
                     {"cols", bytesOf(std::vector<int32_t>{0, 1, 1})},
                     {"vals", bytesOf(std::vector<float>{1, 2, 3})},
                     {"x", bytesOf(std::vector<float>{10, 20})}};
  ASSERT_TRUE(runCheck(s, sin, bytesOf(std::vector<float>{50, 60}), err, error)) << error;
  EXPECT_DOUBLE_EQ(err, 0);

  // gemm 20x2 (k = 1): C[i][j] = A[i] B[j]. Above kGemmCheckRows = 16 rows the rows
  // r × 19 / 15 are compared (0, 1, 2, 3, 5, …, 17, 19): a wrong last row is caught, a wrong
  // row 4 is not compared.
  PlanExperiment tall = checkExperiment("gemm", {"A", "B"}, {20, 2, 1});
  tall.buffers = {named("A", "f32", 20), named("B", "f32", 2), named("out", "f32", 40)};
  std::vector<float> a(20), c(40);
  for (int i = 0; i < 20; ++i) {
    a[i] = static_cast<float>(i + 1);
    c[2 * i] = a[i] * 2;
    c[2 * i + 1] = a[i] * 3;
  }
  HostBuffers tallIn = {{"A", bytesOf(a)}, {"B", bytesOf(std::vector<float>{2, 3})}};
  ASSERT_TRUE(runCheck(tall, tallIn, bytesOf(c), err, error)) << error;
  EXPECT_DOUBLE_EQ(err, 0);
  std::vector<float> lastWrong = c;
  lastWrong[39] += 1;
  ASSERT_TRUE(runCheck(tall, tallIn, bytesOf(lastWrong), err, error));
  EXPECT_GT(err, 0);
  std::vector<float> row4Wrong = c;
  row4Wrong[8] += 1;
  ASSERT_TRUE(runCheck(tall, tallIn, bytesOf(row4Wrong), err, error));
  EXPECT_DOUBLE_EQ(err, 0);

  PlanExperiment bad = checkExperiment("gemm", {"A"}, {2, 2, 2});
  bad.buffers = {named("A", "f32", 4), named("out", "f32", 4)};
  EXPECT_FALSE(runCheck(bad, in, bytesOf(std::vector<float>{0, 0, 0, 0}), err, error));
  EXPECT_EQ(error, "reference 'gemm' takes 2 inputs and 3 params");
}

TEST(RunnerOptions, CommandLine) {
  Options o;
  std::string error;
  const char* ok[] = {"runner", "--plan",       "p.txt", "--gpu",     "h100", "--experiment",
                      "gemm",   "--experiment", "bfs",   "--samples", "30"};
  ASSERT_TRUE(parseOptions(11, ok, o, error)) << error;
  EXPECT_EQ(o.out, "validation/measurements/h100.jsonl");
  EXPECT_EQ(o.experiments, (std::vector<std::string>{"gemm", "bfs"}));
  EXPECT_EQ(o.samples, 30);
  EXPECT_EQ(o.warmup, 3);
  EXPECT_EQ(o.cubinDir, "");
  Options ahead;
  const char* withCubins[] = {"runner", "--plan", "p.txt", "--gpu", "h200", "--cubin-dir", "cubins"};
  ASSERT_TRUE(parseOptions(7, withCubins, ahead, error)) << error;
  EXPECT_EQ(ahead.cubinDir, "cubins");

  Options few;
  const char* tooFew[] = {"runner", "--plan", "p.txt", "--gpu", "h100", "--samples", "5"};
  EXPECT_FALSE(parseOptions(7, tooFew, few, error));
  EXPECT_EQ(error, "--samples must be at least 10");
  Options noGpu;
  const char* missing[] = {"runner", "--plan", "p.txt"};
  EXPECT_FALSE(parseOptions(3, missing, noGpu, error));
  EXPECT_EQ(error, "--gpu is required (the preset the measurements belong to, e.g. h100)");
  Options unknown;
  const char* typo[] = {"runner", "--plna", "p.txt"};
  EXPECT_FALSE(parseOptions(3, typo, unknown, error));
  EXPECT_EQ(error, "unknown option '--plna'");
}

}  // namespace
}  // namespace runner
