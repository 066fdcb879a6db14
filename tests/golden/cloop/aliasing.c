/* Bad input: pointer parameters that may alias keep c[i] in memory in the inner loop. */
#include <stdlib.h>
#define N 256
#pragma cgpredict trace(N=64)
static __attribute__((noinline)) void matvec(float* c, const float* a, const float* b) {
#pragma cgpredict kernel grid(1)
  for (int i = 0; i < N; i++) {
    c[i] = 0;
    for (int j = 0; j < N; j++)
      c[i] += a[i * N + j] * b[j];
  }
}
int main(void) {
  float* a = calloc(N * N, sizeof(float));
  float* b = calloc(N, sizeof(float));
  float* c = calloc(N, sizeof(float));
  matvec(c, a, b);
  free(a);
  free(b);
  free(c);
  return 0;
}
