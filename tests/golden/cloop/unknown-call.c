/* Bad input: the marked loop calls a function Foresight cannot see into. */
#define N 256
#pragma cgpredict trace(N=64)
float A[N], B[N];
float opaque(float x);
static void kernel(void) {
#pragma cgpredict kernel grid(1)
  for (int i = 0; i < N; i++)
    B[i] = opaque(A[i]);
}
float opaque(float x) { return x * 2; }
int main(void) {
  kernel();
  return 0;
}
