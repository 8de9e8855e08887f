// The builtins of the operators whose result shape depends on the data: R.nonzero and
// R.unique, which legalize-ops turns into calls of these.
//
// Their result cannot be allocated before its size is known, and the size is known only
// from the values, so each reads its input back to the host (waiting for the work that
// writes it, as vm.builtin.tensor_to_shape does), computes there and uploads the result
// to where the input was. That costs a device-to-host round trip; it is what TVM's and
// ONNX Runtime's GPU back ends also do for these operators (the counting pass that a
// device kernel would need reads the count back all the same).
//
//   vm.builtin.nonzero(x) -> int64 tensor (ndim(x), count): the indices of the nonzero
//     elements in row-major order, one row per dimension (NumPy's nonzero, stacked; a
//     0-d x counts as 1-D, as NumPy's atleast_1d). NaN is nonzero.
//   vm.builtin.unique(x, sorted, return_index, return_inverse, return_counts[, axis])
//     -> values, or a tuple of values and the int64 outputs asked for: the distinct
//     elements of the flattened x, or with `axis` the distinct slices along axis
//     (compared element by element in row-major order). `sorted` (non-zero) orders them
//     ascending (NaN after every number, all NaNs one value, -0 equal to 0); otherwise
//     they keep the order of their first occurrence (ONNX's sorted=0). Then the index of
//     each one's first occurrence, the inverse (for each element or slice, the position
//     of its value) and the counts. NumPy's unique, and ONNX's Unique.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "runtime/vm/builtins.h"

namespace relaxc::runtime::vm {

namespace {

// -1, 0 or 1: element `a` against element `b` of `dtype`, as numbers (floats widened to
// double; NaN after every number and equal to NaN; unsigned as unsigned).
int compare_elements(const uint8_t* a, const uint8_t* b, DType dtype) {
  if (dtype.code == DType::Code::Float || dtype.code == DType::Code::BFloat) {
    double x = element_as_double(a, dtype), y = element_as_double(b, dtype);
    bool x_nan = std::isnan(x), y_nan = std::isnan(y);
    if (x_nan || y_nan) return static_cast<int>(x_nan) - static_cast<int>(y_nan);
    return (x > y) - (x < y);
  }
  int64_t x = element_as_int(a, dtype), y = element_as_int(b, dtype);
  if (dtype.code == DType::Code::UInt) {
    auto ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
    return (ux > uy) - (ux < uy);
  }
  return (x > y) - (x < y);
}

bool is_nonzero(const uint8_t* data, DType dtype) {
  if (dtype.code == DType::Code::Float || dtype.code == DType::Code::BFloat) {
    return element_as_double(data, dtype) != 0.0;  // NaN too
  }
  return element_as_int(data, dtype) != 0;
}

// The input of a data-dependent builtin: a tensor of scalars (element_as_int and
// element_as_double refuse the dtypes they cannot read).
const Tensor& readable_tensor(const BuiltinArgs& args) {
  const Tensor& x = args.tensor(0, "x");
  if (x.dtype.lanes != 1 || x.dtype.is_void()) {
    args.fail("cannot read the elements of a " + x.dtype.str() + " tensor");
  }
  return x;
}

// A result computed on the host, put where the input `x` is.
Value result_like(VirtualMachine& vm, const Tensor& x, DType dtype, std::vector<int64_t> shape,
                  const void* data) {
  return Value::tensor(x.on_host() ? vm.host_tensor(dtype, std::move(shape), data)
                                   : vm.from_host(dtype, std::move(shape), data));
}

Value nonzero(VirtualMachine& vm, std::span<const Value> in) {
  BuiltinArgs args(builtin::kNonzero, in);
  args.expect_count(1);
  const Tensor& x = readable_tensor(args);
  std::vector<uint8_t> bytes = vm.to_host(x);
  std::vector<int64_t> shape = x.shape.empty() ? std::vector<int64_t>{1} : x.shape;
  auto size = static_cast<size_t>(x.dtype.bytes());
  std::vector<int64_t> flat;  // the flat indices of the nonzero elements, ascending
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    if (is_nonzero(bytes.data() + static_cast<size_t>(i) * size, x.dtype)) flat.push_back(i);
  }
  size_t rows = shape.size(), count = flat.size();
  std::vector<int64_t> indices(rows * count);
  for (size_t j = 0; j < count; ++j) {
    int64_t rest = flat[j];
    for (size_t d = rows; d-- > 0;) {
      indices[d * count + j] = rest % shape[d];
      rest /= shape[d];
    }
  }
  return result_like(vm, x, DType::Int(64),
                     {static_cast<int64_t>(rows), static_cast<int64_t>(count)}, indices.data());
}

// The slices of a row-major tensor along one axis: slice s holds, for each outer index
// o and inner index i, the element at (o * length + s) * inner + i.
struct Slices {
  int64_t outer = 1, length = 1, inner = 1;

  // The byte offset of element k (row-major within the slice) of slice s.
  size_t offset(int64_t s, int64_t k, size_t element_bytes) const {
    int64_t o = k / inner, i = k % inner;
    return static_cast<size_t>((o * length + s) * inner + i) * element_bytes;
  }
  int64_t elements() const { return outer * inner; }
};

Value unique(VirtualMachine& vm, std::span<const Value> in) {
  BuiltinArgs args(builtin::kUnique, in);
  if (in.size() != 5 && in.size() != 6) {
    args.fail(
        "takes 5 or 6 arguments (x, sorted, return_index, return_inverse, "
        "return_counts[, axis]), got " +
        std::to_string(in.size()));
  }
  const Tensor& x = readable_tensor(args);
  bool sorted = args.integer(1, "sorted") != 0;
  bool return_index = args.integer(2, "return_index") != 0;
  bool return_inverse = args.integer(3, "return_inverse") != 0;
  bool return_counts = args.integer(4, "return_counts") != 0;
  Slices slices;
  int64_t axis = -1;
  if (in.size() == 6) {
    axis = args.integer(5, "axis");
    if (axis < 0 || static_cast<size_t>(axis) >= x.shape.size()) {
      args.fail("axis " + std::to_string(axis) + " is out of range for a tensor of " +
                std::to_string(x.shape.size()) + " dimension(s)");
    }
    for (int64_t d = 0; d < axis; ++d) slices.outer *= x.shape[static_cast<size_t>(d)];
    slices.length = x.shape[static_cast<size_t>(axis)];
    for (size_t d = static_cast<size_t>(axis) + 1; d < x.shape.size(); ++d) {
      slices.inner *= x.shape[d];
    }
  } else {
    slices.length = x.num_elements();
  }
  std::vector<uint8_t> bytes = vm.to_host(x);
  auto size = static_cast<size_t>(x.dtype.bytes());
  auto compare = [&](int64_t a, int64_t b) {
    for (int64_t k = 0; k < slices.elements(); ++k) {
      int c = compare_elements(bytes.data() + slices.offset(a, k, size),
                               bytes.data() + slices.offset(b, k, size), x.dtype);
      if (c != 0) return c;
    }
    return 0;
  };

  // Slices in ascending order (stable: equal slices keep their order, so each group of
  // equal ones starts with its first occurrence), then grouped.
  std::vector<int64_t> order(static_cast<size_t>(slices.length));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return compare(a, b) < 0; });
  std::vector<int64_t> first, counts;  // per distinct slice, in ascending order
  std::vector<int64_t> group(order.size());
  for (size_t j = 0; j < order.size(); ++j) {
    if (j == 0 || compare(order[j - 1], order[j]) != 0) {
      first.push_back(order[j]);
      counts.push_back(0);
    }
    group[static_cast<size_t>(order[j])] = static_cast<int64_t>(first.size()) - 1;
    ++counts.back();
  }
  // The output position of each group: ascending, or by first occurrence.
  std::vector<int64_t> position(first.size());
  std::iota(position.begin(), position.end(), 0);
  if (!sorted) {
    std::vector<int64_t> by_first(first.size());
    std::iota(by_first.begin(), by_first.end(), 0);
    std::sort(by_first.begin(), by_first.end(),
              [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    for (size_t p = 0; p < by_first.size(); ++p) {
      position[static_cast<size_t>(by_first[p])] = static_cast<int64_t>(p);
    }
  }
  auto distinct = static_cast<int64_t>(first.size());
  std::vector<int64_t> out_first(first.size()), out_counts(first.size());
  for (size_t g = 0; g < first.size(); ++g) {
    out_first[static_cast<size_t>(position[g])] = first[g];
    out_counts[static_cast<size_t>(position[g])] = counts[g];
  }

  Slices out_slices = slices;
  out_slices.length = distinct;
  std::vector<uint8_t> values(static_cast<size_t>(distinct * slices.elements()) * size);
  for (int64_t p = 0; p < distinct; ++p) {
    for (int64_t k = 0; k < slices.elements(); ++k) {
      std::memcpy(values.data() + out_slices.offset(p, k, size),
                  bytes.data() + slices.offset(out_first[static_cast<size_t>(p)], k, size), size);
    }
  }
  std::vector<int64_t> values_shape = {distinct};
  if (axis >= 0) {
    values_shape = x.shape;
    values_shape[static_cast<size_t>(axis)] = distinct;
  }
  std::vector<Value> fields = {result_like(vm, x, x.dtype, values_shape, values.data())};
  if (return_index) {
    fields.push_back(result_like(vm, x, DType::Int(64), {distinct}, out_first.data()));
  }
  if (return_inverse) {
    std::vector<int64_t> inverse(group.size());
    for (size_t s = 0; s < group.size(); ++s) {
      inverse[s] = position[static_cast<size_t>(group[s])];
    }
    fields.push_back(result_like(vm, x, DType::Int(64), {slices.length}, inverse.data()));
  }
  if (return_counts) {
    fields.push_back(result_like(vm, x, DType::Int(64), {distinct}, out_counts.data()));
  }
  if (fields.size() == 1) return fields[0];
  return Value::tuple(std::move(fields));
}

}  // namespace

void add_data_dependent_builtins(PackedFuncTable& table) {
  table.emplace_back(builtin::kNonzero, nonzero);
  table.emplace_back(builtin::kUnique, unique);
}

}  // namespace relaxc::runtime::vm
