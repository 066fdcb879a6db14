/* Bad input: the traced program dereferences a null pointer; Foresight must survive it. */
#define N 256
#pragma cgpredict trace(N=64)
float A[N];
float* volatile nowhere = 0;
static void kernel(void) {
#pragma cgpredict kernel grid(1)
  for (int i = 0; i < N; i++)
    A[i] = nowhere[i];
}
int main(void) {
  kernel();
  return 0;
}
