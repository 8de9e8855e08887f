#include "tests/support/glsl_ops.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "driver/build.h"
#include "driver/compile.h"
#include "ir/text/parser.h"

namespace relaxc::testing {
namespace {

uint32_t blocks(int64_t count, uint32_t per_block) {
  return static_cast<uint32_t>((count + per_block - 1) / per_block);
}

// `main(x0, x1, ...)` returning `op.relax_call` on the inputs.
std::string relax_module(const GlslOp& op) {
  std::string params;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    std::string shape;
    for (int64_t d : op.inputs[i]) shape += std::to_string(d) + ", ";
    params +=
        (i == 0 ? "x" : ", x") + std::to_string(i) + ": R.Tensor((" + shape + "), \"float32\")";
  }
  return "@I.ir_module\nclass Module:\n    @R.function\n    def main(" + params +
         "):\n        with R.dataflow():\n            out = " + op.relax_call +
         "\n            R.output(out)\n        return out\n";
}

// The shader's SPIR-V and ABI: a buffer per input, then the output; int32 scalars.
runtime::KernelBinary glsl_kernel(const GlslOp& op) {
  const std::string path = glsl_spirv_dir() + "/" + op.shader + ".spv";
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path);
  runtime::KernelBinary binary;
  binary.name = "main";
  binary.code.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  binary.block_size = op.block_size;
  binary.num_buffers = static_cast<int>(op.inputs.size()) + 1;
  binary.scalars.assign(op.scalars.size(), runtime::ScalarType::Int32);
  return binary;
}

}  // namespace

const std::vector<std::string>& glsl_shader_names() {
  static const std::vector<std::string> names = {
      "elementwise_chain", "softmax", "layer_norm",      "short_layer_norm", "sgemm", "gemv",
      "column_sum",        "conv2d",  "depthwise_conv2d"};
  return names;
}

GlslOp glsl_op(const std::string& name, const std::vector<int64_t>& dims) {
  const auto dim = [&](size_t i) {
    if (i >= dims.size()) throw std::runtime_error("glsl_op " + name + ": too few sizes");
    return dims[i];
  };
  GlslOp op;
  op.shader = name;
  if (name == "elementwise_chain" || name == "softmax" || name == "layer_norm" ||
      name == "short_layer_norm" || name == "column_sum") {
    const int64_t rows = dim(0), cols = dim(1);
    const double elements = static_cast<double>(rows * cols);
    op.block_size = {256, 1, 1};
    op.inputs = {{rows, cols}};
    op.output = {rows, cols};
    if (name == "elementwise_chain") {
      op.relax_call = "R.nn.relu(R.add(R.multiply(x0, x1), x2))";
      op.inputs = {{rows, cols}, {rows, cols}, {rows, cols}};
      op.grid = {blocks(rows * cols, 256), 1, 1};
      op.scalars = {rows * cols};
      op.flops = 3 * elements;
      op.bytes = 16 * elements;
    } else if (name == "softmax") {
      op.relax_call = "R.nn.softmax(x0, axis=-1)";
      op.grid = {static_cast<uint32_t>(rows), 1, 1};
      op.scalars = {cols};
      op.flops = 5 * elements;
      op.bytes = 8 * elements;
    } else if (name == "layer_norm" || name == "short_layer_norm") {
      op.relax_call =
          "R.nn.layer_norm(x0, x1, x2, axes=[-1], epsilon=1e-05, center=True, scale=True)";
      op.inputs = {{rows, cols}, {cols}, {cols}};
      if (name == "layer_norm") {
        op.grid = {static_cast<uint32_t>(rows), 1, 1};
        op.scalars = {cols};
      } else {
        op.grid = {blocks(rows, 256), 1, 1};
        op.scalars = {rows, cols};
      }
      op.flops = 8 * elements;
      op.bytes = 8 * elements;
    } else {
      op.relax_call = "R.sum(x0, axis=[0])";
      op.output = {cols};
      op.grid = {blocks(cols, 256), 1, 1};
      op.scalars = {rows, cols};
      op.flops = elements;
      op.bytes = 4 * elements + 4.0 * static_cast<double>(cols);
    }
  } else if (name == "sgemm") {
    const int64_t m = dim(0), n = dim(1), k = dim(2);
    op.relax_call = "R.matmul(x0, x1, out_dtype=\"void\")";
    op.inputs = {{m, k}, {k, n}};
    op.output = {m, n};
    op.block_size = {16, 16, 1};
    op.grid = {blocks(n, 16), blocks(m, 16), 1};
    op.scalars = {m, n, k};
    op.flops = 2.0 * static_cast<double>(m * n * k);
    op.bytes = 4.0 * static_cast<double>(m * k + k * n + m * n);
  } else if (name == "gemv") {
    const int64_t k = dim(0), n = dim(1);
    op.relax_call = "R.matmul(x0, x1, out_dtype=\"void\")";
    op.inputs = {{1, k}, {k, n}};
    op.output = {1, n};
    op.block_size = {256, 1, 1};
    op.grid = {blocks(n, 256), 1, 1};
    op.scalars = {k, n};
    op.flops = 2.0 * static_cast<double>(k * n);
    op.bytes = 4.0 * static_cast<double>(k + k * n + n);
  } else if (name == "conv2d") {
    const int64_t batch = dim(0), c = dim(1), h = dim(2), w = dim(3), k = dim(4);
    op.relax_call = "R.nn.conv2d(x0, x1, padding=[1, 1, 1, 1])";
    op.inputs = {{batch, c, h, w}, {k, c, 3, 3}};
    op.output = {batch, k, h, w};
    op.block_size = {256, 1, 1};
    op.grid = {blocks(batch * k * h * w, 256), 1, 1};
    op.scalars = {batch, c, h, w, k};
    op.flops = 2.0 * 9 * static_cast<double>(batch * k * c * h * w);
    op.bytes = 4.0 * static_cast<double>(batch * c * h * w + k * c * 9 + batch * k * h * w);
  } else if (name == "depthwise_conv2d") {
    const int64_t batch = dim(0), c = dim(1), h = dim(2), w = dim(3);
    op.relax_call = "R.nn.conv2d(x0, x1, padding=[1, 1, 1, 1], groups=" + std::to_string(c) + ")";
    op.inputs = {{batch, c, h, w}, {c, 1, 3, 3}};
    op.output = {batch, c, h, w};
    op.block_size = {256, 1, 1};
    op.grid = {blocks(batch * c * h * w, 256), 1, 1};
    op.scalars = {batch, c, h, w};
    op.flops = 2.0 * 9 * static_cast<double>(batch * c * h * w);
    op.bytes = 4.0 * static_cast<double>(2 * batch * c * h * w + c * 9);
  } else {
    throw std::runtime_error("no GLSL shader '" + name + "'");
  }
  return op;
}

std::string glsl_spirv_dir() { return RELAXC_GLSL_SPIRV_DIR; }

GlslOpRun::GlslOpRun(runtime::Device& device, const GlslOp& op) : device_(device), op_(op) {
  const Target target = driver::target_from_device(device.limits(), TargetKind::Vulkan);
  std::vector<codegen::CompiledKernels> compiled;
  driver::build(text::parse_module(relax_module(op), op.shader + ".py"), {target}, {}, &compiled);
  if (compiled.size() != 1 || compiled[0].funcs.size() != 1) {
    throw std::runtime_error("relaxc compiled the " + op.shader +
                             " function to more than one kernel function");
  }
  relaxc_kernel_ = std::make_unique<codegen::CompiledPrimFunc>(std::move(compiled[0].funcs[0]));
  relaxc_launcher_ = std::make_unique<driver::PrimFuncLauncher>(device, *relaxc_kernel_);
  glsl_kernel_ = device.load_kernel(glsl_kernel(op));

  const DataType f32 = DataType::Float(32);
  std::vector<HostArray> arrays;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    arrays.push_back(random_array(f32, op.inputs[i], i + 1));
  }
  arrays.push_back(zeros(f32, op.output));  // relaxc's
  arrays.push_back(zeros(f32, op.output));  // the shader's
  std::vector<HostArray*> pointers;
  for (HostArray& a : arrays) pointers.push_back(&a);
  arrays_ = std::make_unique<DeviceArrays>(device, pointers);
}

GlslOpRun::~GlslOpRun() = default;

void GlslOpRun::launch_relaxc() {
  const std::vector<driver::BufferArg>& buffers = arrays_->args();
  std::vector<driver::BufferArg> args(buffers.begin(), buffers.end() - 1);  // all but the shader's
  relaxc_launcher_->launch(args);
}

void GlslOpRun::launch_glsl() {
  std::vector<runtime::DeviceBuffer> buffers;
  for (const driver::BufferArg& arg : arrays_->args()) buffers.push_back(arg.buffer);
  buffers.erase(buffers.end() - 2);  // relaxc's output
  device_.launch(glsl_kernel_, op_.grid, buffers, op_.scalars);
}

HostArray GlslOpRun::download(size_t buffer) const {
  HostArray a = zeros(DataType::Float(32), op_.output);
  std::vector<uint8_t> bytes(a.data.size() * 4);
  device_.download(bytes.data(), arrays_->args()[buffer].buffer, 0, bytes.size());
  a.from_bytes(bytes);
  return a;
}

double GlslOpRun::output_error() {
  const size_t relaxc = op_.inputs.size();
  // Sums in different orders: float32 rounding, growing with the reduction's length.
  return max_scaled_error(download(relaxc + 1), download(relaxc), 1e-4, 1e-3);
}

}  // namespace relaxc::testing
