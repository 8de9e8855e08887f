// y = x W for float32 x (1 x k) and row-major W (k x n): one thread per output column,
// looping over k (consecutive threads read consecutive elements of a row of W).
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer W { float w[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Sizes { int k; int n; };

void main() {
  uint col = gl_GlobalInvocationID.x;
  if (col >= uint(n)) return;
  float acc = 0.0;
  for (uint i = 0; i < uint(k); ++i) acc += x[i] * w[i * uint(n) + col];
  y[col] = acc;
}
