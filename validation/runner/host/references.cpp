// SPDX-License-Identifier: Apache-2.0
// CPU references: gemm, transpose, copy, reduce_sum, spmv_csr.
#include "references.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace runner {

namespace {

/// Element i of a buffer as a double.
double at(const std::vector<unsigned char>& bytes, const std::string& type, long long i) {
  if (type == "f32") {
    float v;
    std::memcpy(&v, &bytes[i * 4], 4);
    return v;
  }
  if (type == "f64") {
    double v;
    std::memcpy(&v, &bytes[i * 8], 8);
    return v;
  }
  if (type == "i32") {
    int32_t v;
    std::memcpy(&v, &bytes[i * 4], 4);
    return v;
  }
  if (type == "u32") {
    uint32_t v;
    std::memcpy(&v, &bytes[i * 4], 4);
    return v;
  }
  int64_t v;
  std::memcpy(&v, &bytes[i * 8], 8);
  return static_cast<double>(v);
}

double relativeL2(const std::vector<double>& out, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i])) return std::numeric_limits<double>::infinity();
    num += (out[i] - ref[i]) * (out[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  if (den == 0) return num == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::sqrt(num / den);
}

}  // namespace

bool runCheck(const PlanExperiment& e, const HostBuffers& inputs,
              const std::vector<unsigned char>& output, double& relError, std::string& error) {
  const PlanCheck& c = e.check;
  const PlanBuffer* outBuf = e.buffer(c.output);
  if (!outBuf) return error = "check output '" + c.output + "' is not a buffer", false;
  std::vector<const PlanBuffer*> in;
  std::vector<const std::vector<unsigned char>*> data;
  for (const std::string& name : c.inputs) {
    const PlanBuffer* b = e.buffer(name);
    const auto it = inputs.find(name);
    if (!b || it == inputs.end()) return error = "check input '" + name + "' is missing", false;
    in.push_back(b);
    data.push_back(&it->second);
  }
  auto needs = [&](size_t nIn, size_t nParams) {
    if (in.size() != nIn || c.params.size() != nParams) {
      error = "reference '" + c.reference + "' takes " + std::to_string(nIn) + " inputs and " +
              std::to_string(nParams) + " params";
      return false;
    }
    return true;
  };
  auto get = [&](int k, long long i) { return at(*data[k], in[k]->type, i); };
  auto fits = [&](const PlanBuffer* b, long long n) {
    if (b->count < n) error = "buffer '" + b->name + "' is smaller than the check needs";
    return b->count >= n;
  };
  std::vector<double> out, ref;
  if (c.reference == "gemm") {
    if (!needs(2, 3)) return false;
    const long long m = c.params[0], n = c.params[1], k = c.params[2];
    if (!fits(in[0], m * k) || !fits(in[1], k * n) || !fits(outBuf, m * n)) return false;
    // A full double-precision reference of a 2048³ product takes minutes on one core; above
    // kGemmCheckRows rows, evenly spaced rows (the first and the last among them) are compared,
    // every column of each: a wrong tile or edge shows in some sampled row.
    const long long rows = std::min<long long>(m, kGemmCheckRows);
    for (long long r = 0; r < rows; ++r) {
      const long long i = rows == m ? r : (rows == 1 ? 0 : r * (m - 1) / (rows - 1));
      for (long long j = 0; j < n; ++j) {
        double s = 0;
        for (long long l = 0; l < k; ++l) s += get(0, i * k + l) * get(1, l * n + j);
        ref.push_back(s);
        out.push_back(at(output, outBuf->type, i * n + j));
      }
    }
  } else if (c.reference == "transpose") {
    if (!needs(1, 2)) return false;
    const long long rows = c.params[0], cols = c.params[1];
    if (!fits(in[0], rows * cols) || !fits(outBuf, rows * cols)) return false;
    for (long long r = 0; r < rows; ++r) {
      for (long long col = 0; col < cols; ++col) {
        ref.push_back(get(0, r * cols + col));
        out.push_back(at(output, outBuf->type, col * rows + r));
      }
    }
  } else if (c.reference == "copy") {
    if (!needs(1, 1)) return false;
    const long long n = c.params[0];
    if (!fits(in[0], n) || !fits(outBuf, n)) return false;
    for (long long i = 0; i < n; ++i) {
      ref.push_back(get(0, i));
      out.push_back(at(output, outBuf->type, i));
    }
  } else if (c.reference == "reduce_sum") {
    // The output holds partial sums (one per block, or one atomically accumulated value).
    if (!needs(1, 1)) return false;
    const long long n = c.params[0];
    if (!fits(in[0], n)) return false;
    double s = 0, o = 0;
    for (long long i = 0; i < n; ++i) s += get(0, i);
    for (long long i = 0; i < outBuf->count; ++i) o += at(output, outBuf->type, i);
    ref.push_back(s);
    out.push_back(o);
  } else if (c.reference == "spmv_csr") {
    if (!needs(4, 1)) return false;
    const long long rows = c.params[0];
    if (!fits(in[0], rows + 1) || !fits(outBuf, rows)) return false;
    for (long long r = 0; r < rows; ++r) {
      double s = 0;
      const long long begin = static_cast<long long>(get(0, r)),
                      end = static_cast<long long>(get(0, r + 1));
      for (long long j = begin; j < end; ++j) {
        const long long col = static_cast<long long>(get(1, j));
        if (j >= in[1]->count || j >= in[2]->count || col < 0 || col >= in[3]->count) {
          error = "spmv_csr: row pointers or column indices out of range";
          return false;
        }
        s += get(2, j) * get(3, col);
      }
      ref.push_back(s);
      out.push_back(at(output, outBuf->type, r));
    }
  } else {
    error = "unknown reference '" + c.reference + "'";
    return false;
  }
  relError = relativeL2(out, ref);
  return true;
}

}  // namespace runner
