// C = A B for row-major float32 A (m x k), B (k x n), C (m x n): the classic 16 x 16
// shared-memory tiling, one thread per element of C, workgroup (x, y) computing the tile
// of columns 16x and rows 16y.
#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Sizes { int m; int n; int k; };

shared float tile_a[16][16];
shared float tile_b[16][16];

void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint row = gl_WorkGroupID.y * 16 + ty, col = gl_WorkGroupID.x * 16 + tx;
  float acc = 0.0;
  for (uint k0 = 0; k0 < uint(k); k0 += 16) {
    tile_a[ty][tx] = row < uint(m) && k0 + tx < uint(k) ? a[row * uint(k) + k0 + tx] : 0.0;
    tile_b[ty][tx] = k0 + ty < uint(k) && col < uint(n) ? b[(k0 + ty) * uint(n) + col] : 0.0;
    barrier();
    for (uint i = 0; i < 16; ++i) acc += tile_a[ty][i] * tile_b[i][tx];
    barrier();
  }
  if (row < uint(m) && col < uint(n)) c[row * uint(n) + col] = acc;
}
