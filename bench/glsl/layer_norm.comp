// layer_norm over the last axis of a rows x cols float32 matrix with gamma and beta
// (epsilon 1e-5): one workgroup per row; shared-memory trees reduce the row's sum, then
// the sum of squared deviations from the mean.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Gamma { float gamma[]; };
layout(set = 0, binding = 2) readonly buffer Beta { float beta[]; };
layout(set = 0, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Sizes { int cols; };

shared float partial[256];

// The sum of every thread's `value`, in partial[0] when it returns.
float workgroup_sum(float value) {
  partial[gl_LocalInvocationID.x] = value;
  for (uint stride = 128; stride > 0; stride >>= 1) {
    barrier();
    if (gl_LocalInvocationID.x < stride) {
      partial[gl_LocalInvocationID.x] += partial[gl_LocalInvocationID.x + stride];
    }
  }
  barrier();
  float total = partial[0];
  barrier();
  return total;
}

void main() {
  uint row = gl_WorkGroupID.x * uint(cols);
  uint t = gl_LocalInvocationID.x;
  float s = 0.0;
  for (uint j = t; j < uint(cols); j += 256) s += x[row + j];
  float mean = workgroup_sum(s) / float(cols);
  float d = 0.0;
  for (uint j = t; j < uint(cols); j += 256) {
    float centered = x[row + j] - mean;
    d += centered * centered;
  }
  float inv_std = inversesqrt(workgroup_sum(d) / float(cols) + 1e-5);
  for (uint j = t; j < uint(cols); j += 256) {
    y[row + j] = (x[row + j] - mean) * inv_std * gamma[j] + beta[j];
  }
}
