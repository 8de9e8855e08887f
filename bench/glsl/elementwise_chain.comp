// y = max(x * a + b, 0) over n float32 elements: one thread per element.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer A { float a[]; };
layout(set = 0, binding = 2) readonly buffer B { float b[]; };
layout(set = 0, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Sizes { int n; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < uint(n)) y[i] = max(x[i] * a[i] + b[i], 0.0);
}
