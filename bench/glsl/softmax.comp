// Softmax over the last axis of a rows x cols float32 matrix: one workgroup per row; each
// thread strides over the row, then a shared-memory tree reduces the row's max, then
// the sum of exp(x - max).
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Sizes { int cols; };

shared float partial[256];

// The tree reduction of partial[] into partial[0]; `op` 0 is max, 1 is sum.
void reduce(int op) {
  for (uint stride = 128; stride > 0; stride >>= 1) {
    barrier();
    if (gl_LocalInvocationID.x < stride) {
      float other = partial[gl_LocalInvocationID.x + stride];
      float mine = partial[gl_LocalInvocationID.x];
      partial[gl_LocalInvocationID.x] = op == 0 ? max(mine, other) : mine + other;
    }
  }
  barrier();
}

void main() {
  uint row = gl_WorkGroupID.x * uint(cols);
  uint t = gl_LocalInvocationID.x;
  float m = -3.402823466e38;
  for (uint j = t; j < uint(cols); j += 256) m = max(m, x[row + j]);
  partial[t] = m;
  reduce(0);
  float row_max = partial[0];
  barrier();
  float s = 0.0;
  for (uint j = t; j < uint(cols); j += 256) s += exp(x[row + j] - row_max);
  partial[t] = s;
  reduce(1);
  float inv_sum = 1.0 / partial[0];
  for (uint j = t; j < uint(cols); j += 256) y[row + j] = exp(x[row + j] - row_max) * inv_sum;
}
