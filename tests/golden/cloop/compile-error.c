/* Bad input: does not compile (B is not declared); clang's message, located. */
#define N 256
#pragma cgpredict trace(N=64)
float A[N];
int main(void) {
#pragma cgpredict kernel
  for (int i = 0; i < N; i++) A[i] = B[i];
  return 0;
}
