// layer_norm over the last axis of a rows x cols float32 matrix of short rows (a
// transformer's small hidden size) with gamma and beta (epsilon 1e-5): one thread per
// row, which reads its row for the mean, for the variance and for the output.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Gamma { float gamma[]; };
layout(set = 0, binding = 2) readonly buffer Beta { float beta[]; };
layout(set = 0, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Sizes { int rows; int cols; };

void main() {
  if (gl_GlobalInvocationID.x >= uint(rows)) return;
  uint row = gl_GlobalInvocationID.x * uint(cols);
  float s = 0.0;
  for (uint j = 0; j < uint(cols); ++j) s += x[row + j];
  float mean = s / float(cols);
  float d = 0.0;
  for (uint j = 0; j < uint(cols); ++j) {
    float centered = x[row + j] - mean;
    d += centered * centered;
  }
  float inv_std = inversesqrt(d / float(cols) + 1e-5);
  for (uint j = 0; j < uint(cols); ++j) {
    y[row + j] = (x[row + j] - mean) * inv_std * gamma[j] + beta[j];
  }
}
