// SPDX-License-Identifier: Apache-2.0
// Init patterns. Each element value is computed as a double (floats) or a 64-bit integer and
// stored in the buffer's element type.
#include "patterns.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "foresight/support/parallel.h"

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

enum class Elem { F32, F64, I32, I64 };

Elem elemOf(const std::string& type) {
  if (type == "f32") return Elem::F32;
  if (type == "f64") return Elem::F64;
  if (type == "i32" || type == "u32") return Elem::I32;
  return Elem::I64;
}

/// Stores a value: `f` for floating-point patterns, `i` for integer ones (`isInt`).
inline void store(Elem type, unsigned char* p, double f, long long i, bool isInt) {
  switch (type) {
    case Elem::F32: {
      const float v = isInt ? static_cast<float>(i) : static_cast<float>(f);
      std::memcpy(p, &v, 4);
      break;
    }
    case Elem::F64: {
      const double v = isInt ? static_cast<double>(i) : f;
      std::memcpy(p, &v, 8);
      break;
    }
    case Elem::I32: {
      const int32_t v = static_cast<int32_t>(isInt ? i : static_cast<long long>(f));
      std::memcpy(p, &v, 4);
      break;
    }
    case Elem::I64: {
      const int64_t v = isInt ? i : static_cast<long long>(f);
      std::memcpy(p, &v, 8);
      break;
    }
  }
}

/// Runs body(begin, end) over [0, count) in chunks of 2^20 elements on the machine's cores
/// (foresight's parallelFor). The random patterns stay reproducible: splitmix64's state after i
/// draws is seed + i × gamma, so a chunk starts its generator where a sequential fill would be.
template <typename Body>
void forChunks(long long count, const Body& body) {
  constexpr long long kChunk = 1 << 20;
  const long long chunks = (count + kChunk - 1) / kChunk;
  foresight::parallelFor(static_cast<std::size_t>(chunks), [&](std::size_t c) {
    const long long begin = static_cast<long long>(c) * kChunk;
    body(begin, std::min(count, begin + kChunk));
  });
}

constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ULL;

}  // namespace

bool fillBuffer(const PlanBuffer& b, uint64_t seed, std::vector<unsigned char>& bytes,
                std::string& error) {
  const int width = typeBytes(b.type);
  const Elem type = elemOf(b.type);
  const bool isFloat = b.type == "f32" || b.type == "f64";
  bytes.assign(static_cast<size_t>(b.count) * width, 0);
  unsigned char* base = bytes.data();
  const auto& p = b.params;
  auto need = [&](size_t n) {
    if (p.size() != n)
      error = "pattern '" + b.init + "' of buffer '" + b.name + "' takes " + std::to_string(n) +
              " parameters";
    return p.size() == n;
  };
  // Element i of an index pattern, written by a per-pattern loop below.
  auto fillIndex = [&](const auto& value) {
    forChunks(b.count, [&](long long begin, long long end) {
      for (long long i = begin; i < end; ++i) store(type, base + i * width, 0, value(i), true);
    });
  };
  // Element i of a random pattern takes the generator's draw number i.
  auto fillRandom = [&](const auto& value) {
    forChunks(b.count, [&](long long begin, long long end) {
      SplitMix64 rng{seed + static_cast<uint64_t>(begin) * kGamma};
      for (long long i = begin; i < end; ++i) value(base + i * width, rng);
    });
  };
  const std::string& init = b.init;
  if (init == "poison") {
    // NaN for floats, all bits set for integers: an unwritten element cannot pass a check.
    if (!need(0)) return false;
    std::memset(base, 0xff, bytes.size());
    return true;
  }
  if (init == "zero") return need(0);
  if (init == "csr_cols" || init == "torus_cols") {
    if (!need(2)) return false;
    const long long k = p[0], m = p[1];
    if (k <= 0 || m <= 0 || (init == "csr_cols" && k > m)) {
      error = "pattern '" + init + "' of buffer '" + b.name +
              "' needs positive parameters (and K <= NCOLS)";
      return false;
    }
    if (init == "csr_cols") {
      // Row r = i / K holds K distinct columns, spread over the matrix: start at a pseudo-random
      // column, step by NCOLS / K.
      fillIndex([k, m](long long i) {
        const long long row = i / k, j = i % k;
        const long long start =
            static_cast<long long>((static_cast<unsigned long long>(row) * 2654435761ULL) % m);
        return (start + j * (m / k)) % m;
      });
    } else {
      // 4 neighbours of node i = index / 4 on a W-wide torus of N nodes.
      fillIndex([k, m](long long i) {
        const long long w = k, n = m, node = (i / 4) % n, which = i % 4;
        const long long x = node % w, rowStart = node - x;
        if (which == 0) return rowStart + (x + 1) % w;
        if (which == 1) return rowStart + (x + w - 1) % w;
        if (which == 2) return (node + w) % n;
        return (node + n - w) % n;
      });
    }
    return true;
  }
  if (init == "ones") {
    if (!need(0)) return false;
    forChunks(b.count, [&](long long begin, long long end) {
      for (long long i = begin; i < end; ++i) store(type, base + i * width, 1.0, 1, !isFloat);
    });
  } else if (init == "iota") {
    if (!need(0)) return false;
    forChunks(b.count, [&](long long begin, long long end) {
      for (long long i = begin; i < end; ++i)
        store(type, base + i * width, static_cast<double>(i), i, !isFloat);
    });
  } else if (init == "random") {
    if (!need(0)) return false;
    if (isFloat) {
      fillRandom([type](unsigned char* e, SplitMix64& rng) { store(type, e, rng.uniform(), 0, false); });
    } else {
      fillRandom([type](unsigned char* e, SplitMix64& rng) {
        store(type, e, 0, static_cast<long long>(rng.next() % 100), true);
      });
    }
  } else if (init == "random_int") {
    if (!need(2)) return false;
    if (p[1] < p[0]) {
      error = "random_int of buffer '" + b.name + "' needs LO <= HI";
      return false;
    }
    const long long lo = p[0];
    const unsigned long long span = static_cast<unsigned long long>(p[1] - p[0]) + 1;
    fillRandom([type, lo, span](unsigned char* e, SplitMix64& rng) {
      store(type, e, 0, lo + static_cast<long long>(rng.next() % span), true);
    });
  } else if (init == "constant") {
    const double value = b.value;
    forChunks(b.count, [&](long long begin, long long end) {
      for (long long i = begin; i < end; ++i)
        store(type, base + i * width, value, static_cast<long long>(value), !isFloat);
    });
  } else if (init == "mod") {
    if (!need(1)) return false;
    if (p[0] <= 0) return error = "mod needs a positive K", false;
    const long long k = p[0];
    fillIndex([k](long long i) { return i % k; });
  } else if (init == "csr_rowptr") {
    if (!need(1)) return false;
    const long long k = p[0];
    fillIndex([k](long long i) { return i * k; });
  } else if (init == "chase") {
    if (!need(1)) return false;
    const long long k = p[0], count = b.count;
    fillIndex([k, count](long long i) { return (i + k) % count; });
  } else {
    error = "unknown init pattern '" + init + "' of buffer '" + b.name + "'";
    return false;
  }
  return true;
}

}  // namespace runner
