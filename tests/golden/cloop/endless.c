/* Bad input: the traced program never ends; the 1-second CPU limit stops it. */
#define N 256
#pragma cgpredict trace(N=64)
#pragma cgpredict limits(cpu=1)
float A[N];
volatile int forever = 1;
static void kernel(void) {
#pragma cgpredict kernel grid(1)
  for (int i = 0; i < N; i++)
    A[i] = 2 * A[i];
}
int main(void) {
  kernel();
  while (forever) {
  }
  return 0;
}
