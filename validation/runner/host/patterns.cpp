// SPDX-License-Identifier: Apache-2.0
// Init patterns. Each element value is computed as a double (floats) or a 64-bit integer and
// stored in the buffer's element type.
#include "patterns.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace runner {

uint64_t SplitMix64::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() {
  return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t seedFor(const std::string& experiment, const std::string& variant,
                 const std::string& buffer) {
  uint64_t h = 1469598103934665603ULL;
  for (const std::string* s : {&experiment, &variant, &buffer}) {
    for (unsigned char c : *s) h = (h ^ c) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
  }
  return h;
}

namespace {

void store(const std::string& type, unsigned char* p, double f, long long i, bool isInt) {
  if (type == "f32") {
    const float v = isInt ? static_cast<float>(i) : static_cast<float>(f);
    std::memcpy(p, &v, 4);
  } else if (type == "f64") {
    const double v = isInt ? static_cast<double>(i) : f;
    std::memcpy(p, &v, 8);
  } else if (type == "i32" || type == "u32") {
    const int32_t v = static_cast<int32_t>(isInt ? i : static_cast<long long>(f));
    std::memcpy(p, &v, 4);
  } else {
    const int64_t v = isInt ? i : static_cast<long long>(f);
    std::memcpy(p, &v, 8);
  }
}

}  // namespace

bool fillBuffer(const PlanBuffer& b, uint64_t seed, std::vector<unsigned char>& bytes,
                std::string& error) {
  const int width = typeBytes(b.type);
  const bool isFloat = b.type == "f32" || b.type == "f64";
  bytes.assign(static_cast<size_t>(b.count) * width, 0);
  SplitMix64 rng{seed};
  const auto& p = b.params;
  auto need = [&](size_t n) {
    if (p.size() != n)
      error = "pattern '" + b.init + "' of buffer '" + b.name + "' takes " + std::to_string(n) +
              " parameters";
    return p.size() == n;
  };
  if (b.init == "poison") {
    // NaN for floats, all bits set for integers: an unwritten element cannot pass a check.
    std::memset(bytes.data(), 0xff, bytes.size());
    return need(0);
  }
  if (b.init == "csr_cols" || b.init == "torus_cols") {
    if (!need(2)) return false;
    const long long k = p[0], m = p[1];
    if (k <= 0 || m <= 0 || (b.init == "csr_cols" && k > m)) {
      error = "pattern '" + b.init + "' of buffer '" + b.name +
              "' needs positive parameters (and K <= NCOLS)";
      return false;
    }
    for (long long i = 0; i < b.count; ++i) {
      long long v = 0;
      if (b.init == "csr_cols") {
        // Row r = i / K holds K distinct columns, spread over the matrix: start at a pseudo-random
        // column, step by NCOLS / K.
        const long long row = i / k, j = i % k;
        const long long start =
            static_cast<long long>((static_cast<unsigned long long>(row) * 2654435761ULL) % m);
        v = (start + j * (m / k)) % m;
      } else {
        // 4 neighbours of node i = index / 4 on a W-wide torus of N nodes.
        const long long w = k, n = m, node = (i / 4) % n, which = i % 4;
        const long long x = node % w, rowStart = node - x;
        if (which == 0) v = rowStart + (x + 1) % w;
        if (which == 1) v = rowStart + (x + w - 1) % w;
        if (which == 2) v = (node + w) % n;
        if (which == 3) v = (node + n - w) % n;
      }
      store(b.type, &bytes[i * width], 0, v, true);
    }
    return true;
  }
  for (long long i = 0; i < b.count; ++i) {
    unsigned char* e = &bytes[i * width];
    if (b.init == "zero") {
      if (!need(0)) return false;
    } else if (b.init == "ones") {
      if (!need(0)) return false;
      store(b.type, e, 1.0, 1, !isFloat);
    } else if (b.init == "iota") {
      if (!need(0)) return false;
      store(b.type, e, static_cast<double>(i), i, !isFloat);
    } else if (b.init == "random") {
      if (!need(0)) return false;
      if (isFloat) {
        store(b.type, e, rng.uniform(), 0, false);
      } else {
        store(b.type, e, 0, static_cast<long long>(rng.next() % 100), true);
      }
    } else if (b.init == "random_int") {
      if (!need(2)) return false;
      if (p[1] < p[0]) {
        error = "random_int of buffer '" + b.name + "' needs LO <= HI";
        return false;
      }
      const unsigned long long span = static_cast<unsigned long long>(p[1] - p[0]) + 1;
      store(b.type, e, 0, p[0] + static_cast<long long>(rng.next() % span), true);
    } else if (b.init == "constant") {
      store(b.type, e, b.value, static_cast<long long>(b.value), !isFloat);
    } else if (b.init == "mod") {
      if (!need(1)) return false;
      if (p[0] <= 0) return error = "mod needs a positive K", false;
      store(b.type, e, 0, i % p[0], true);
    } else if (b.init == "csr_rowptr") {
      if (!need(1)) return false;
      store(b.type, e, 0, i * p[0], true);
    } else if (b.init == "chase") {
      if (!need(1)) return false;
      store(b.type, e, 0, (i + p[0]) % b.count, true);
    } else {
      error = "unknown init pattern '" + b.init + "' of buffer '" + b.name + "'";
      return false;
    }
  }
  return true;
}

}  // namespace runner
