// A depthwise 3x3 conv2d, NCHW input (batch x c x h x w), weights (c x 1 x 3 x 3), stride 1,
// padding 1 (output batch x c x h x w): one thread per output element.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Wt { float weight[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Sizes { int batch; int c; int h; int w; };

void main() {
  uint index = gl_GlobalInvocationID.x;
  if (index >= uint(batch * c * h * w)) return;
  int ox = int(index % uint(w));
  int oy = int(index / uint(w) % uint(h));
  int plane = int(index / uint(w * h));
  int channel = plane % c;
  float acc = 0.0;
  for (int ky = 0; ky < 3; ++ky) {
    int iy = oy + ky - 1;
    if (iy < 0 || iy >= h) continue;
    for (int kx = 0; kx < 3; ++kx) {
      int ix = ox + kx - 1;
      if (ix < 0 || ix >= w) continue;
      acc += x[(plane * h + iy) * w + ix] * weight[(channel * 3 + ky) * 3 + kx];
    }
  }
  y[index] = acc;
}
