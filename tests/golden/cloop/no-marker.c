/* Bad input: no '#pragma cgpredict kernel' marks the loop to port. */
#define N 64
float A[N];
int main(void) {
  for (int i = 0; i < N; i++) A[i] = 2 * A[i];
  return 0;
}
