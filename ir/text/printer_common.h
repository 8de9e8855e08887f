// Pieces the TensorIR and Relax printers share: Python spellings of literals and
// attribute values, indented output, and a walk over IR nodes.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "ir/node_dispatch.h"
#include "ir/support/attrs.h"

namespace relaxc::text {

// ---------------------------------------------------------------- Literals

// A Python string literal: "text", with quotes, backslashes and control characters
// escaped.
std::string quote(std::string_view text);

// TVM's spelling of a data type, "void" for Relax's unknown dtype.
std::string dtype_name(DataType dtype);

// How a float is written. Both styles print the shortest decimal that reads back as
// the same double ("0.1", "1e-05"). TypedLiteral writes integral values without a
// fraction, as TVM prints `T.float32(0)`; PythonFloat always writes a float literal
// (`R.const(1.0, "float32")`). Infinities and NaN are strings ("inf"), as in TVM.
enum class FloatStyle { TypedLiteral, PythonFloat };
std::string format_float(double value, FloatStyle style);
// An element of a tensor of float type `dtype` (float16, bfloat16, float32, float64):
// the shortest decimal that converts back to the same value of that type ("0.1" for the
// float16 nearest to 0.1, not the digits of the double it widens to).
std::string format_float_of_type(double value, DataType dtype, FloatStyle style);

// An attribute value as a Python literal: None, True, 3, 1.5, "text", "float32", [1, 2].
std::string format_attr_value(const AttrValue& value);
// Attributes as a Python dict with keys sorted: {"a": 1, "b": True}.
std::string format_attr_dict(const Attrs& attrs);

// ", "-joined items.
std::string join(const std::vector<std::string>& items);
// A Python tuple display: "()", "(a,)", "(a, b)".
std::string tuple_text(const std::vector<std::string>& items);

// ---------------------------------------------------------------- Output

// Appends one line at `indent` levels of four spaces.
void emit_line(std::string& out, int indent, std::string_view text);

// ---------------------------------------------------------------- Walk

// Calls visit(node) on every node reachable from `root` through the declared fields,
// in pre-order (fields in declaration order), each node once; children are visited only
// when visit returns true. Iterative, so deep IR cannot overflow the stack.
template <typename F>
void walk(const Object* root, F&& visit) {
  std::vector<const Object*> stack{root};
  std::unordered_set<const Object*> seen;
  std::vector<const Object*> children;
  while (!stack.empty()) {
    const Object* node = stack.back();
    stack.pop_back();
    if (node == nullptr || !seen.insert(node).second) continue;
    if (!visit(node)) continue;
    children.clear();
    dispatch(node, [&](const auto* typed) {
      for_each_field(typed, [&](const auto& field) {
        for_each_ref(field, [&](const auto& ref) {
          if (ref.defined()) children.push_back(ref.get());
        });
      });
    });
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
}

}  // namespace relaxc::text
