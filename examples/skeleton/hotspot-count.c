/* HotSpot's per-cell update, after Rodinia's CPU hotspot (single_iteration): the cell's case is
 * chosen by a chain of corner/edge tests, then the interior update runs with Rodinia's double
 * literals and divisions. Marked for `foresight count-ptx`:
 *   foresight count-ptx examples/skeleton/hotspot-count.c
 * GROPHECY_KERNEL makes the function a single-thread kernel; each GROPHECY_BEGIN/END pair
 * brackets one basic block, whose PTX instruction count becomes a skeleton `comp` value. */
GROPHECY_KERNEL void hotspot_cell(const float* temp, const float* power, float* result, int row,
                                  int col, int r, int c, float cap, float rx, float ry, float rz,
                                  float step, float amb) {
  float delta;
  int corner;
  GROPHECY_BEGIN(classify)
  /* Rodinia tests the four corners and four edges before the interior case. */
  corner = (r == 0 && c == 0) + 2 * (r == 0 && c == col - 1) + 4 * (r == row - 1 && c == col - 1) +
           8 * (r == row - 1 && c == 0) + 16 * (r == 0) + 32 * (c == col - 1) + 64 * (r == row - 1) +
           128 * (c == 0);
  GROPHECY_END(classify)
  if (corner != 0) return;
  GROPHECY_BEGIN(update)
  delta = (step / cap) * (power[r * col + c] +
                          (temp[(r + 1) * col + c] + temp[(r - 1) * col + c] - 2.0 * temp[r * col + c]) / ry +
                          (temp[r * col + c + 1] + temp[r * col + c - 1] - 2.0 * temp[r * col + c]) / rx +
                          (amb - temp[r * col + c]) / rz);
  result[r * col + c] = temp[r * col + c] + delta;
  GROPHECY_END(update)
}
