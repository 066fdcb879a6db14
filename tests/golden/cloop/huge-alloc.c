/* Bad input: the traced program allocates far more than the 64 MiB memory limit allows. */
#include <stdlib.h>
#include <string.h>
#define N 256
#pragma cgpredict trace(N=64)
#pragma cgpredict limits(memory=64)
float A[N];
static void kernel(void) {
#pragma cgpredict kernel grid(1)
  for (int i = 0; i < N; i++)
    A[i] = 2 * A[i];
}
int main(void) {
  char* big = malloc((size_t)1 << 32);
  memset(big, 1, (size_t)1 << 32);
  kernel();
  return big[7];
}
