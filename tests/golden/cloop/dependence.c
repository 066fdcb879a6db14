/* Bad input: iteration i reads what iteration i-1 wrote (a prefix sum); GPU threads would race. */
#define N 1024
#pragma cgpredict trace(N=256)
float A[N];
static void prefix(void) {
#pragma cgpredict kernel grid(1)
  for (int i = 1; i < N; i++)
    A[i] = A[i] + A[i - 1];
}
int main(void) {
  for (int i = 0; i < N; i++) A[i] = 1;
  prefix();
  return 0;
}
