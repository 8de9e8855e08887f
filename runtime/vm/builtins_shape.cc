// The shape heap and the run-time StructInfo checks of vm_shape_lower: match_shape and
// match_prim_value store dims into heap slots or check them, make_shape and
// make_prim_value read them back, check_*_info check kinds, ranks and dtypes. A failed
// check's message is the compiler's err_ctx (which function, what, where, the expected
// StructInfo) followed by what was found: ": dimension 1 is 63, expected 64".
#include <cctype>
#include <cstring>
#include <string_view>

#include "runtime/vm/builtins.h"

namespace relaxc::runtime::vm {
namespace {

// The shape heap argument: an int64 host tensor of one dimension.
std::span<int64_t> heap_slots(const BuiltinArgs& args, size_t i) {
  const Tensor& heap = args.tensor(i, "shape_heap");
  if (!heap.on_host() || heap.storage == nullptr || heap.dtype != DType::Int(64) ||
      heap.shape.size() != 1 || heap.byte_offset != 0) {
    args.fail(
        "argument " + std::to_string(i) +
        " (shape_heap) must be an int64 host tensor of one dimension, got a tensor of dtype " +
        heap.dtype.str() + " and shape " + shape_text(heap.shape) +
        (heap.on_host() ? "" : " on the device"));
  }
  return {reinterpret_cast<int64_t*>(heap.storage->host.data()),
          static_cast<size_t>(heap.shape[0])};
}

int64_t& heap_slot(const BuiltinArgs& args, std::span<int64_t> heap, int64_t slot) {
  if (slot < 0 || static_cast<size_t>(slot) >= heap.size()) {
    args.fail("heap slot " + std::to_string(slot) + " is outside the shape heap of " +
              std::to_string(heap.size()) + " slots");
  }
  return heap[static_cast<size_t>(slot)];
}

// The text of dimension `d` of the expected shape in err_ctx ("n" in "expected
// R.Tensor((n, 64), ...)"), or "" when err_ctx does not show it.
std::string expected_dim_text(std::string_view err_ctx, size_t d) {
  size_t start = err_ctx.rfind("R.Tensor((");
  if (start != std::string_view::npos) {
    start += std::strlen("R.Tensor((");
  } else {
    start = err_ctx.rfind("R.Shape([");
    if (start == std::string_view::npos) return "";
    start += std::strlen("R.Shape([");
  }
  int depth = 0;
  size_t item = 0, item_start = start;
  for (size_t i = start; i < err_ctx.size(); ++i) {
    char c = err_ctx[i];
    bool end = depth == 0 && (c == ')' || c == ']');
    if (end || (depth == 0 && c == ',')) {
      if (item == d) {
        std::string_view text = err_ctx.substr(item_start, i - item_start);
        while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
        while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
        return std::string(text);
      }
      if (end) return "";
      ++item;
      item_start = i + 1;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    }
  }
  return "";
}

// " (the value of n bound earlier)", " (the value of n * 2)", or "".
std::string loaded_value_note(std::string_view err_ctx, size_t d) {
  std::string text = expected_dim_text(err_ctx, d);
  if (text.empty()) return " (the value bound earlier)";
  bool identifier = !std::isdigit(static_cast<unsigned char>(text[0]));
  for (char c : text)
    identifier = identifier && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  return " (the value of " + text + (identifier ? " bound earlier)" : ")");
}

// err_ctx, or the builtin's name when the compiler gave none. A view: the checks pass,
// so nothing is copied for them.
std::string_view context(const std::string& err_ctx, const char* builtin) {
  return err_ctx.empty() ? std::string_view(builtin) : std::string_view(err_ctx);
}

// match_shape(x_or_shape, heap, ndim, code0, value0, ..., err_ctx)
Value match_shape(VirtualMachine&, std::span<const Value> in) {
  const char* name = builtin::kMatchShape;
  BuiltinArgs args(name, in);
  args.expect_at_least(4);
  int64_t ndim = args.integer(2, "ndim");
  if (ndim < 0 || in.size() != 4 + 2 * static_cast<size_t>(ndim)) {
    args.fail("takes 4 + 2 * ndim arguments (ndim " + std::to_string(ndim) + "), got " +
              std::to_string(in.size()));
  }
  std::string_view err_ctx = context(args.string(in.size() - 1, "err_ctx"), name);
  std::span<int64_t> heap = heap_slots(args, 1);
  const std::vector<int64_t>* dims = nullptr;
  if (in[0].kind() == Value::Kind::Tensor) {
    dims = &in[0].as_tensor().shape;
  } else if (in[0].kind() == Value::Kind::Shape) {
    dims = &in[0].as_shape();
  } else {
    runtime_error() << err_ctx << ": expected a tensor or a shape, got "
                    << kind_with_article(in[0]);
  }
  if (dims->size() != static_cast<size_t>(ndim)) {
    runtime_error() << err_ctx << ": ndim is " << dims->size() << ", expected " << ndim;
  }
  for (size_t d = 0; d < dims->size(); ++d) {
    int64_t code = args.integer(3 + 2 * d, "code");
    int64_t value = args.integer(4 + 2 * d, "value");
    int64_t actual = (*dims)[d];
    switch (code) {
      case builtin::kNoOp:
        break;
      case builtin::kStoreToHeap:
        heap_slot(args, heap, value) = actual;
        break;
      case builtin::kAssertEqualToImm:
        if (actual != value) {
          runtime_error() << err_ctx << ": dimension " << d << " is " << actual << ", expected "
                          << value;
        }
        break;
      case builtin::kAssertEqualToLoad: {
        int64_t expected = heap_slot(args, heap, value);
        if (actual != expected) {
          runtime_error() << err_ctx << ": dimension " << d << " is " << actual << ", expected "
                          << expected << loaded_value_note(err_ctx, d);
        }
        break;
      }
      default:
        args.fail("unknown match code " + std::to_string(code) + " for dimension " +
                  std::to_string(d));
    }
  }
  return Value();
}

// match_prim_value(v, heap, code, value, err_ctx)
Value match_prim_value(VirtualMachine&, std::span<const Value> in) {
  const char* name = builtin::kMatchPrimValue;
  BuiltinArgs args(name, in);
  args.expect_count(5);
  std::string_view err_ctx = context(args.string(4, "err_ctx"), name);
  std::span<int64_t> heap = heap_slots(args, 1);
  if (in[0].kind() != Value::Kind::Int) {
    runtime_error() << err_ctx << ": expected an integer, got " << kind_with_article(in[0]);
  }
  int64_t actual = in[0].as_int();
  int64_t code = args.integer(2, "code");
  int64_t value = args.integer(3, "value");
  switch (code) {
    case builtin::kNoOp:
      break;
    case builtin::kStoreToHeap:
      heap_slot(args, heap, value) = actual;
      break;
    case builtin::kAssertEqualToImm:
      if (actual != value) {
        runtime_error() << err_ctx << ": value is " << actual << ", expected " << value;
      }
      break;
    case builtin::kAssertEqualToLoad: {
      int64_t expected = heap_slot(args, heap, value);
      if (actual != expected) {
        runtime_error() << err_ctx << ": value is " << actual << ", expected " << expected
                        << " (the value bound earlier)";
      }
      break;
    }
    default:
      args.fail("unknown match code " + std::to_string(code));
  }
  return Value();
}

int64_t make_value(const BuiltinArgs& args, std::span<int64_t> heap, size_t code_arg) {
  int64_t code = args.integer(code_arg, "code");
  int64_t value = args.integer(code_arg + 1, "value");
  if (code == builtin::kUseImm) return value;
  if (code == builtin::kLoadShape) return heap_slot(args, heap, value);
  args.fail("unknown make code " + std::to_string(code));
}

// make_shape(heap, ndim, code0, value0, ...) -> Shape
Value make_shape(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs args(builtin::kMakeShape, in);
  args.expect_at_least(2);
  int64_t ndim = args.integer(1, "ndim");
  if (ndim < 0 || in.size() != 2 + 2 * static_cast<size_t>(ndim)) {
    args.fail("takes 2 + 2 * ndim arguments (ndim " + std::to_string(ndim) + "), got " +
              std::to_string(in.size()));
  }
  std::span<int64_t> heap = heap_slots(args, 0);
  std::vector<int64_t> dims;
  for (size_t d = 0; d < static_cast<size_t>(ndim); ++d)
    dims.push_back(make_value(args, heap, 2 + 2 * d));
  return Value::shape(std::move(dims));
}

// make_prim_value(heap, code, value, dtype) -> PrimValue of dtype
Value make_prim_value(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs args(builtin::kMakePrimValue, in);
  args.expect_count(4);
  std::span<int64_t> heap = heap_slots(args, 0);
  int64_t v = make_value(args, heap, 1);
  DType dtype = args.dtype(3, "dtype");
  if (dtype.code == DType::Code::Float || dtype.code == DType::Code::BFloat) {
    return Value::floating(static_cast<double>(v), dtype);
  }
  return Value::integer(v, dtype.is_void() ? DType::Int(64) : dtype);
}

Value alloc_shape_heap(VirtualMachine& vm, std::span<const Value> in) {
  BuiltinArgs args(builtin::kAllocShapeHeap, in);
  args.expect_count(1);
  int64_t size = args.integer(0, "size");
  if (size < 0 || size > kMaxShapeHeapSlots) {
    args.fail("size " + std::to_string(size) + " is outside 0 to " +
              std::to_string(kMaxShapeHeapSlots) + " slots");
  }
  std::vector<int64_t> zeros(static_cast<size_t>(size), 0);
  return Value::tensor(vm.host_tensor(DType::Int(64), {size}, zeros.data()));
}

// The rank check of check_tensor_info and check_shape_info; ndim -1 allows any.
void check_ndim(std::string_view err_ctx, size_t actual, int64_t expected) {
  if (expected >= 0 && actual != static_cast<size_t>(expected)) {
    runtime_error() << err_ctx << ": ndim is " << actual << ", expected " << expected;
  }
}

// check_tensor_info(x, ndim, dtype, err_ctx); dtype void allows any.
Value check_tensor_info(VirtualMachine&, std::span<const Value> in) {
  const char* name = builtin::kCheckTensorInfo;
  BuiltinArgs args(name, in);
  args.expect_count(4);
  std::string_view err_ctx = context(args.string(3, "err_ctx"), name);
  int64_t ndim = args.integer(1, "ndim");
  DType dtype = args.dtype(2, "dtype");
  if (in[0].kind() != Value::Kind::Tensor) {
    runtime_error() << err_ctx << ": expected a tensor, got " << kind_with_article(in[0]);
  }
  const Tensor& t = in[0].as_tensor();
  check_ndim(err_ctx, t.shape.size(), ndim);
  if (!dtype.is_void() && t.dtype != dtype) {
    runtime_error() << err_ctx << ": dtype is " << t.dtype.str() << ", expected " << dtype.str();
  }
  return Value();
}

// check_shape_info(s, ndim, err_ctx)
Value check_shape_info(VirtualMachine&, std::span<const Value> in) {
  const char* name = builtin::kCheckShapeInfo;
  BuiltinArgs args(name, in);
  args.expect_count(3);
  std::string_view err_ctx = context(args.string(2, "err_ctx"), name);
  int64_t ndim = args.integer(1, "ndim");
  if (in[0].kind() != Value::Kind::Shape) {
    runtime_error() << err_ctx << ": expected a shape, got " << kind_with_article(in[0]);
  }
  check_ndim(err_ctx, in[0].as_shape().size(), ndim);
  return Value();
}

// check_prim_value_info(v, dtype, err_ctx): an integer dtype wants an Int value, a
// float dtype a Float value (an integer is accepted there); void wants either.
Value check_prim_value_info(VirtualMachine&, std::span<const Value> in) {
  const char* name = builtin::kCheckPrimValueInfo;
  BuiltinArgs args(name, in);
  args.expect_count(3);
  std::string_view err_ctx = context(args.string(2, "err_ctx"), name);
  DType dtype = args.dtype(1, "dtype");
  Value::Kind kind = in[0].kind();
  bool is_float = dtype.code == DType::Code::Float || dtype.code == DType::Code::BFloat;
  bool ok = dtype.is_void() ? (kind == Value::Kind::Int || kind == Value::Kind::Float)
            : is_float      ? (kind == Value::Kind::Float || kind == Value::Kind::Int)
                            : kind == Value::Kind::Int;
  if (!ok) {
    runtime_error() << err_ctx << ": expected a " << (dtype.is_void() ? "" : dtype.str() + " ")
                    << "PrimValue, got " << kind_with_article(in[0]);
  }
  return Value();
}

// check_tuple_info(t, size, err_ctx)
Value check_tuple_info(VirtualMachine&, std::span<const Value> in) {
  const char* name = builtin::kCheckTupleInfo;
  BuiltinArgs args(name, in);
  args.expect_count(3);
  std::string_view err_ctx = context(args.string(2, "err_ctx"), name);
  int64_t size = args.integer(1, "size");
  if (in[0].kind() != Value::Kind::Tuple) {
    runtime_error() << err_ctx << ": expected a tuple, got " << kind_with_article(in[0]);
  }
  size_t actual = in[0].as_tuple().size();
  if (size >= 0 && actual != static_cast<size_t>(size)) {
    runtime_error() << err_ctx << ": the tuple has " << actual << " fields, expected " << size;
  }
  return Value();
}

// check_func_info(f, err_ctx)
Value check_func_info(VirtualMachine&, std::span<const Value> in) {
  const char* name = builtin::kCheckFuncInfo;
  BuiltinArgs args(name, in);
  args.expect_count(2);
  std::string_view err_ctx = context(args.string(1, "err_ctx"), name);
  if (in[0].kind() != Value::Kind::Closure) {
    runtime_error() << err_ctx << ": expected a function, got " << kind_with_article(in[0]);
  }
  return Value();
}

}  // namespace

void add_shape_builtins(PackedFuncTable& table) {
  table.emplace_back(builtin::kAllocShapeHeap, alloc_shape_heap);
  table.emplace_back(builtin::kMatchShape, match_shape);
  table.emplace_back(builtin::kMatchPrimValue, match_prim_value);
  table.emplace_back(builtin::kMakeShape, make_shape);
  table.emplace_back(builtin::kMakePrimValue, make_prim_value);
  table.emplace_back(builtin::kCheckTensorInfo, check_tensor_info);
  table.emplace_back(builtin::kCheckShapeInfo, check_shape_info);
  table.emplace_back(builtin::kCheckPrimValueInfo, check_prim_value_info);
  table.emplace_back(builtin::kCheckTupleInfo, check_tuple_info);
  table.emplace_back(builtin::kCheckFuncInfo, check_func_info);
}

}  // namespace relaxc::runtime::vm
