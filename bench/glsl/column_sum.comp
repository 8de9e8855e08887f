// The sum over the first axis of a rows x cols float32 matrix: one thread per output
// column, looping over the rows.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Sizes { int rows; int cols; };

void main() {
  uint col = gl_GlobalInvocationID.x;
  if (col >= uint(cols)) return;
  float acc = 0.0;
  for (uint r = 0; r < uint(rows); ++r) acc += x[r * uint(cols) + col];
  y[col] = acc;
}
