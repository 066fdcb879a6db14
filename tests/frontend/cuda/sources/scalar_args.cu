// Scalar kernel arguments of every kind a launch passes (tests of --arg): a float, a double, a
// bool, an enum and a struct by value. The bool and the enum set trip counts (a branch on them
// would be if-converted), so a known argument shows in the executed instructions.
enum class Mode : int { Once = 0, Twice = 1 };
struct Extent {
  int n;
  int stride;
};

__global__ void scalar_args(const float* in, float* out, float scale, double offset, bool scaled, Mode mode,
                            Extent e, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i * e.stride];
    const int scales = scaled ? 16 : 1;
    for (int k = 0; k < scales; ++k) v = v * scale + 1.0f;
    const int shifts = mode == Mode::Twice ? 2 : 1;
    for (int k = 0; k < shifts; ++k) out[i + k * n] = v + static_cast<float>(offset);
  }
}
