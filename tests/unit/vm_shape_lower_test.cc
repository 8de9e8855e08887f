// Tests of vm-shape-lower: text in, expected text out (structural_equal), the output
// well formed and printable, the host shape functions' values, and its diagnostics.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir/relax/well_formed.h"
#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/relax/transforms.h"
#include "tests/support/errors.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc::relax {
namespace {

// `value` as a string literal of the text format.
std::string quoted(const std::string& value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// `text` with each $NAME replaced by the string literal of contexts[NAME] (longer names
// first, so that $FX is not read as $F).
std::string with_contexts(std::string text, const std::map<std::string, std::string>& contexts) {
  std::vector<std::pair<std::string, std::string>> by_length(contexts.begin(), contexts.end());
  std::stable_sort(by_length.begin(), by_length.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [name, value] : by_length) {
    const std::string key = "$" + name;
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
      text.replace(at, key.size(), quoted(value));
      at += value.size();
    }
  }
  return text;
}

IRModule lower(const std::string& input) {
  return vm_shape_lower(text::parse_module(input, "in.py"));
}

// Lowers `input` and compares it with `expected` (after its $NAMEs are replaced); the
// result must also be well formed and read back from its printed text.
void expect_lowered(const std::string& input, const std::string& expected,
                    const std::map<std::string, std::string>& contexts = {}) {
  IRModule actual = lower(input);
  const std::string printed = text::print_module(actual);
  IRModule want = text::parse_module(with_contexts(expected, contexts), "expected.py");
  std::optional<std::string> mismatch = structural_mismatch(actual, want);
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\n" << printed;
  DiagnosticList wf = check_well_formed(actual);
  EXPECT_FALSE(wf.has_errors()) << wf.render() << "\n" << printed;
  std::optional<std::string> reparsed = structural_mismatch(text::parse_module(printed), actual);
  EXPECT_FALSE(reparsed.has_value()) << *reparsed << "\n" << printed;
}

std::string error_of(const std::string& input) {
  return located_error_of([&] { lower(input); });
}

const std::string kNM = "R.Tensor((n, m), dtype=\"float32\")";

// Every shape variable of the signature is stored once; the return value is asserted.
TEST(VmShapeLower, TensorParamStoresEachVariable) {
  expect_lowered(R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        return x
)py",
                 R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(2), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($X))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str($X))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($RET))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(3), R.prim_value(1), R.str($RET))
        return x
)py",
                 {{"X", "main: argument 'x' (in.py:4:14), expected " + kNM},
                  {"RET", "main: return value (in.py:8:9), expected " + kNM}});
}

// The second n of (n, n) is asserted against the first.
TEST(VmShapeLower, RepeatedVariableIsAsserted) {
  const std::string nn = "R.Tensor((n, n), dtype=\"float32\")";
  expect_lowered(R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "n"), dtype="float32")) -> R.Tensor(("n", "n"), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        return x
)py",
                 R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "n"), dtype="float32")) -> R.Tensor(("n", "n"), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(1), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($X))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(3), R.prim_value(0), R.str($X))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($RET))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(3), R.prim_value(0), R.str($RET))
        return x
)py",
                 {{"X", "main: argument 'x' (in.py:4:14), expected " + nn},
                  {"RET", "main: return value (in.py:7:9), expected " + nn}});
}

// A constant dimension is asserted as an immediate.
TEST(VmShapeLower, ConstantDimIsAsserted) {
  const std::string n4 = "R.Tensor((n, 4), dtype=\"float32\")";
  expect_lowered(R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        return x
)py",
                 R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(1), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($X))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(2), R.prim_value(4), R.str($X))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($RET))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(2), R.prim_value(4), R.str($RET))
        return x
)py",
                 {{"X", "main: argument 'x' (in.py:4:14), expected " + n4},
                  {"RET", "main: return value (in.py:7:9), expected " + n4}});
}

// y's dimension n * 2 (n from x) is computed by the host function after the
// parameters' stores, then asserted against its slot.
TEST(VmShapeLower, ExpressionDimIsComputedThenAsserted) {
  const std::string n2 = "R.Tensor((n * 2,), dtype=\"float32\")";
  expect_lowered(
      R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n * 2",), dtype="float32")) -> R.Tensor(("n * 2",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        return y
)py",
      R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n * 2",), dtype="float32")) -> R.Tensor(("n * 2",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        shape_heap = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(2), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str($X))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str($X))
        _ = R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(1), R.dtype("float32"), R.str($Y))
        _ = cls.main_shape_func(shape_heap)
        _ = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(1), R.str($Y))
        _ = R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(1), R.dtype("float32"), R.str($RET))
        _ = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(1), R.str($RET))
        return y

    @T.prim_func(private=True)
    def main_shape_func(H: T.Buffer((2,), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[1] = H[0] * 2
)py",
      {{"X", "main: argument 'x' (in.py:4:14), expected R.Tensor((n,), dtype=\"float32\")"},
       {"Y", "main: argument 'y' (in.py:4:52), expected " + n2},
       {"RET", "main: return value (in.py:7:9), expected " + n2}});
}

// Allocation sizes and other shapes are built from the heap: n * m * 4 and n + 1 are
// computed by the host function, the rest loaded or immediate.
TEST(VmShapeLower, ShapesAndPrimValuesComeFromTheHeap) {
  expect_lowered(R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        storage = R.call_packed("vm.builtin.alloc_storage", R.shape([n * m * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"), sinfo_args=(R.Object,))
        y = R.call_packed("vm.builtin.alloc_tensor", storage, R.prim_value(0), R.shape([n, m]), R.dtype("float32"), sinfo_args=(R.Tensor((n, m), dtype="float32"),))
        _ = R.call_packed("fill", x, y, R.shape([m, 8]), R.prim_value(n + 1))
        return y
)py",
                 R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        shape_heap = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(4), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($X))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str($X))
        _ = cls.main_shape_func(shape_heap)
        bytes = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(2), sinfo_args=(R.Shape(ndim=1),))
        storage = R.call_packed("vm.builtin.alloc_storage", bytes, R.prim_value(0), R.str("global"), R.dtype("uint8"), sinfo_args=(R.Object,))
        shape = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), sinfo_args=(R.Shape(ndim=2),))
        y = R.call_packed("vm.builtin.alloc_tensor", storage, R.prim_value(0), shape, R.dtype("float32"), sinfo_args=(R.Tensor((n, m), dtype="float32"),))
        tile = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(1), R.prim_value(0), R.prim_value(8), sinfo_args=(R.Shape(ndim=2),))
        count = R.call_packed("vm.builtin.make_prim_value", shape_heap, R.prim_value(1), R.prim_value(3), R.dtype("int64"), sinfo_args=(R.Prim("int64"),))
        _ = R.call_packed("fill", x, y, tile, count)
        _ = R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(2), R.dtype("float32"), R.str($RET))
        _ = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(3), R.prim_value(1), R.str($RET))
        return y

    @T.prim_func(private=True)
    def main_shape_func(H: T.Buffer((4,), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[2] = H[0] * H[1] * 4
        H[3] = H[0] + 1
)py",
                 {{"X", "main: argument 'x' (in.py:4:14), expected " + kNM},
                  {"RET", "main: return value (in.py:11:9), expected " + kNM}});
}

// A match_cast stores its new variable k, asserts the computed n * 2, then a second
// host function computes what needs k; the variable is bound to the value, and
// StructInfo that mentions k (sinfo_args) loses it: only parameters define variables now.
TEST(VmShapeLower, MatchCastBindsNewVariables) {
  expect_lowered(
      R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        k = T.int64()
        R.func_attr({"relax.force_pure": True})
        y = R.call_packed("produce", x, sinfo_args=(R.Tensor(ndim=2, dtype="float32"),))
        z = R.match_cast(y, R.Tensor((k, n * 2), dtype="float32"))
        storage = R.call_packed("vm.builtin.alloc_storage", R.shape([k * n * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"), sinfo_args=(R.Object,))
        w = R.call_packed("vm.builtin.alloc_tensor", storage, R.prim_value(0), R.shape([k, n]), R.dtype("float32"), sinfo_args=(R.Tensor((k, n), dtype="float32"),))
        _ = R.call_packed("consume", z, w)
        return x
)py",
      R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        shape_heap = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(4), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str($X))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str($X))
        _ = cls.main_shape_func(shape_heap)
        y = R.call_packed("produce", x, sinfo_args=(R.Tensor(ndim=2, dtype="float32"),))
        _ = R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(2), R.dtype("float32"), R.str($Z))
        _ = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(1), R.prim_value(3), R.prim_value(2), R.str($Z))
        _ = cls.main_shape_func_1(shape_heap)
        z = y
        bytes = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(3), sinfo_args=(R.Shape(ndim=1),))
        storage = R.call_packed("vm.builtin.alloc_storage", bytes, R.prim_value(0), R.str("global"), R.dtype("uint8"), sinfo_args=(R.Object,))
        shape = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(1), R.prim_value(1), R.prim_value(0), sinfo_args=(R.Shape(ndim=2),))
        w = R.call_packed("vm.builtin.alloc_tensor", storage, R.prim_value(0), shape, R.dtype("float32"), sinfo_args=(R.Tensor(ndim=2, dtype="float32"),))
        _ = R.call_packed("consume", z, w)
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str($RET))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(0), R.str($RET))
        return x

    @T.prim_func(private=True)
    def main_shape_func(H: T.Buffer((4,), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[2] = H[0] * 2

    @T.prim_func(private=True)
    def main_shape_func_1(H: T.Buffer((4,), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[3] = H[1] * H[0] * 4
)py",
      {{"X", "main: argument 'x' (in.py:4:14), expected R.Tensor((n,), dtype=\"float32\")"},
       {"Z",
        "main: match_cast 'z' (in.py:9:9), expected "
        "R.Tensor((k, n * 2), dtype=\"float32\")"},
       {"RET", "main: return value (in.py:13:9), expected R.Tensor((n,), dtype=\"float32\")"}});
}

// Without shape variables there is no heap: only the checks are added (a pure function
// without relax.force_pure gets it, as the checks are impure calls). Constant
// dimensions are still asserted, with an empty heap.
TEST(VmShapeLower, FunctionWithoutShapeVariables) {
  // print_node writes a tensor of unknown shape dtype first, as TVM does, and a
  // Callable with its purity.
  const std::string t2 = "R.Tensor(dtype=\"float32\", ndim=2)";
  const std::string t44 = "R.Tensor((4, 4), dtype=\"float32\")";
  expect_lowered(R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(ndim=2, dtype="float32"), o: R.Object, f: R.Callable((R.Tensor(ndim=2, dtype="float32"),), R.Tensor(ndim=2, dtype="float32"))) -> R.Tensor(ndim=2, dtype="float32"):
        return x

    @R.function
    def fixed(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        return x
)py",
                 R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(ndim=2, dtype="float32"), o: R.Object, f: R.Callable((R.Tensor(ndim=2, dtype="float32"),), R.Tensor(ndim=2, dtype="float32"))) -> R.Tensor(ndim=2, dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($X))
        _ = R.call_packed("vm.builtin.check_func_info", f, R.str($F))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($RET))
        return x

    @R.function
    def fixed(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        shape_heap = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(0), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($FX))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(2), R.prim_value(4), R.prim_value(2), R.prim_value(4), R.str($FX))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str($FRET))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(2), R.prim_value(4), R.prim_value(2), R.prim_value(4), R.str($FRET))
        return x
)py",
                 {{"X", "main: argument 'x' (in.py:4:14), expected " + t2},
                  {"F", "main: argument 'f' (in.py:4:65), expected R.Callable((" + t2 + ",), " +
                            t2 + ", True)"},
                  {"RET", "main: return value (in.py:5:9), expected " + t2},
                  {"FX", "fixed: argument 'x' (in.py:8:15), expected " + t44},
                  {"FRET", "fixed: return value (in.py:10:9), expected " + t44}});
}

// A tuple is checked, then each field that has something to check through an item of
// it; shapes and PrimValues are matched like tensors' shapes.
TEST(VmShapeLower, TupleShapeAndPrimParameters) {
  const std::string shape = "R.Shape([n, 3])";
  expect_lowered(R"py(@I.ir_module
class Module:
    @R.function
    def main(t: R.Tuple(R.Tensor(("n",), dtype="float32"), R.Object), s: R.Shape(["n", 3]), p: R.Prim(value="m")) -> R.Shape(["n", 3]):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        return s
)py",
                 R"py(@I.ir_module
class Module:
    @R.function
    def main(t: R.Tuple(R.Tensor(("n",), dtype="float32"), R.Object), s: R.Shape(["n", 3]), p: R.Prim(value="m")) -> R.Shape(["n", 3]):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(2), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        _ = R.call_packed("vm.builtin.check_tuple_info", t, R.prim_value(2), R.str($T))
        t_0 = t[0]
        _ = R.call_packed("vm.builtin.check_tensor_info", t_0, R.prim_value(1), R.dtype("float32"), R.str($T0))
        _ = R.call_packed("vm.builtin.match_shape", t_0, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str($T0))
        _ = R.call_packed("vm.builtin.check_shape_info", s, R.prim_value(2), R.str($S))
        _ = R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(2), R.prim_value(3), R.str($S))
        _ = R.call_packed("vm.builtin.check_prim_value_info", p, R.dtype("int64"), R.str($P))
        _ = R.call_packed("vm.builtin.match_prim_value", p, shape_heap, R.prim_value(1), R.prim_value(1), R.str($P))
        _ = R.call_packed("vm.builtin.check_shape_info", s, R.prim_value(2), R.str($RET))
        _ = R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(2), R.prim_value(3), R.str($RET))
        return s
)py",
                 {{"T",
                   "main: argument 't' (in.py:4:14), expected "
                   "R.Tuple(R.Tensor((n,), dtype=\"float32\"), R.Object)"},
                  {"T0",
                   "main: field 0 of argument 't' (in.py:4:14), expected "
                   "R.Tensor((n,), dtype=\"float32\")"},
                  {"S", "main: argument 's' (in.py:4:71), expected " + shape},
                  {"P", "main: argument 'p' (in.py:4:93), expected R.Prim(value=m)"},
                  {"RET", "main: return value (in.py:8:9), expected " + shape}});
}

// A returned tuple literal is a tuple of its size: its fields are checked directly.
TEST(VmShapeLower, ReturnedTupleLiteralChecksItsFields) {
  expect_lowered(
      R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), s: R.Shape(["n"])) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Shape(["n"])):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        return (x, s)
)py",
      R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), s: R.Shape(["n"])) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Shape(["n"])):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(1), sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str($X))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str($X))
        _ = R.call_packed("vm.builtin.check_shape_info", s, R.prim_value(1), R.str($S))
        _ = R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(0), R.str($S))
        _ = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str($R0))
        _ = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(0), R.str($R0))
        _ = R.call_packed("vm.builtin.check_shape_info", s, R.prim_value(1), R.str($R1))
        _ = R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(0), R.str($R1))
        return (x, s)
)py",
      {{"X", "main: argument 'x' (in.py:4:14), expected R.Tensor((n,), dtype=\"float32\")"},
       {"S", "main: argument 's' (in.py:4:52), expected R.Shape([n])"},
       {"R0",
        "main: field 0 of return value (in.py:7:9), expected "
        "R.Tensor((n,), dtype=\"float32\")"},
       {"R1", "main: field 1 of return value (in.py:7:9), expected R.Shape([n])"}});
}

// ---------------------------------------------------------------- Host functions

// The (code, value) pairs of the make_shape binding in `func`'s body.
std::vector<std::pair<int64_t, int64_t>> make_shape_codes(const Function& func) {
  for (const BindingBlock& block : func->body.as<SeqExprNode>()->blocks) {
    for (const Binding& b : block->bindings) {
      const auto* call = b->value.as<CallNode>();
      if (call == nullptr || call->args.empty()) continue;
      const auto* callee = call->args[0].as<ExternFuncNode>();
      if (callee == nullptr || callee->global_symbol != "vm.builtin.make_shape") continue;
      auto imm = [&](size_t i) {
        return *tir::as_const_int(call->args[i].as<PrimValueNode>()->value);
      };
      std::vector<std::pair<int64_t, int64_t>> codes;
      for (size_t i = 3; i + 1 < call->args.size(); i += 2) codes.emplace_back(imm(i), imm(i + 1));
      return codes;
    }
  }
  ADD_FAILURE() << "no make_shape";
  return {};
}

int64_t floordiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }
int64_t floormod(int64_t a, int64_t b) { return a - floordiv(a, b) * b; }

// The host function computes each dimension of a shape for several (n, m); make_shape
// reads each from the slot the host function wrote.
TEST(VmShapeLower, HostFunctionComputesTheDimensions) {
  IRModule lowered = lower(R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Object:
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        _ = R.call_packed("use", R.shape([n * m * 4, (n - 10) // 4, (n - 10) % 4, T.max(n, m) - 1, T.Select(n < m, n, m), m, 5]))
        return x
)py");
  tir::PrimFunc host = lowered->prim_func("main_shape_func");
  ASSERT_TRUE(host.defined()) << text::print_module(lowered);
  const AttrValue* is_host = host->attrs.find("tir.is_host_func");
  ASSERT_TRUE(is_host != nullptr && is_host->kind == AttrValue::Kind::Bool && is_host->b);
  std::vector<std::pair<int64_t, int64_t>> codes =
      make_shape_codes(lowered->relax_function("main"));
  ASSERT_EQ(codes.size(), 7u);
  // x's match_shape stores n and m in the first two slots.
  for (auto [n, m] :
       std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {7, 3}, {1024, 5}, {5, 1024}}) {
    testing::HostArray heap = testing::zeros(DataType::Int(64), {7});
    heap.data[0] = static_cast<double>(n);
    heap.data[1] = static_cast<double>(m);
    testing::interpret(host, {&heap});
    const std::vector<int64_t> expected = {
        n * m * 4, floordiv(n - 10, 4), floormod(n - 10, 4), std::max(n, m) - 1, n < m ? n : m, m,
        5};
    for (size_t i = 0; i < expected.size(); ++i) {
      auto [code, value] = codes[i];
      int64_t got = code == 1 ? static_cast<int64_t>(heap.data[value]) : value;
      EXPECT_EQ(got, expected[i]) << "dimension " << i << " for n=" << n << " m=" << m;
    }
  }
}

// ---------------------------------------------------------------- Diagnostics

TEST(VmShapeLower, DataflowBlockIsRefused) {
  EXPECT_EQ(
      error_of(R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            y = x
            R.output(y)
        return y
)py"),
      "7:13: vm-shape-lower: function 'main' has a dataflow block; run to-non-dataflow first");
}

TEST(VmShapeLower, NonIntegerShapeArithmeticIsRefused) {
  EXPECT_EQ(error_of(R"py(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        _ = R.call_packed("use", R.prim_value(T.Cast("float32", n) * T.float32(0.5)))
        return x
)py"),
            "7:68: vm-shape-lower: function 'main': the shape expression 'T.Cast(\"float32\", n) * "
            "T.float32(0.5)' cannot be computed on the host; only integer arithmetic, "
            "comparisons and select on shape variables can");
}

// A tensor condition whose dimensions are not known to be 1 is asserted before its If
// with the If's place, on an empty heap where the function has none (allocated in the
// branch that holds the If, so well formed).
TEST(VmShapeLower, TensorConditionOfAnIfIsAssertedWithItsPlace) {
  IRModule lowered = lower(R"py(@I.ir_module
class Module:
    @R.function
    def pick(c: R.Tensor(dtype="int32", ndim=2), d: R.Prim("bool"), x: R.Tensor(dtype="float32", ndim=1)) -> R.Tensor(dtype="float32", ndim=1):
        R.func_attr({"relax.force_pure": True})
        if d:
            if c:
                y = x
            else:
                y = x
            z = y
        else:
            z = x
        return z
)py");
  const std::string printed = text::print_module(lowered);
  auto i64 = [](int v) { return "R.prim_value(T.int64(" + std::to_string(v) + "))"; };
  const size_t branch = printed.find("if d:");
  const size_t heap = printed.find("R.call_packed(\"vm.builtin.alloc_shape_heap\", " + i64(0));
  const size_t check = printed.find(
      "R.call_packed(\"vm.builtin.match_shape\", c, shape_heap, " + i64(2) + ", " + i64(2) + ", " +
      i64(1) + ", " + i64(2) + ", " + i64(1) +
      ", R.str(\"pick: the condition of If (in.py:7:13), expected a tensor of one element\"))");
  EXPECT_TRUE(branch < heap && heap < check && check != std::string::npos) << printed;
  DiagnosticList wf = check_well_formed(lowered);
  EXPECT_FALSE(wf.has_errors()) << wf.render() << "\n" << printed;
}

}  // namespace
}  // namespace relaxc::relax
