// SPDX-License-Identifier: Apache-2.0
// A LULESH-like element kernel over 16 arrays (PORPLE's scalability case, glassForce has 16):
// the node list and eight nodal arrays gathered through it, four per-element arrays, a small
// coefficient table read uniformly, and two outputs. 5^16 plans: branch-and-bound
// alone is out of reach, the hybrid search falls back to the greedy Procedure 1.
// foresight place examples/place/sixteen_arrays.cu --gpu k20c --grid 128 --block 128 --arg numElem=16384 --arg numNode=20000 --array x=80000 --array y=80000 --array z=80000 --array xd=80000 --array yd=80000 --array zd=80000 --array fx=80000 --array fy=80000
__global__ void element_force(const int* nodelist, const float* x, const float* y, const float* z, const float* xd,
                              const float* yd, const float* zd, const float* fx, const float* fy,
                              const float* volo, const float* v, const float* ss, const float* elemMass,
                              const float* hgCoef, float* fxOut, float* fyOut, int numElem, int numNode) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= numElem) return;
  float vol = volo[e] * v[e];
  float sound = ss[e];
  float mass = elemMass[e];
  float accx = 0.0f, accy = 0.0f;
  for (int k = 0; k < 8; ++k) {
    int node = nodelist[k * numElem + e];
    float hx = x[node] * hgCoef[k] + xd[node];
    float hy = y[node] * hgCoef[k] + yd[node];
    float hz = z[node] * hgCoef[k + 8] + zd[node];
    accx += hx * vol + fx[node] * sound + hz;
    accy += hy * vol + fy[node] * mass;
  }
  fxOut[e] = accx;
  fyOut[e] = accy;
}
