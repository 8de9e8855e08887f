// A text module in a file with its weights side file: model.py, whose large constants
// are `metadata["relax.expr.Constant"][i]`, and model.safetensors next to it holding
// them as tensors "relax.expr.Constant.<i>" (docs/text_format.md, "Weights").
#pragma once
#include <string>
#include <string_view>

#include "ir/module.h"

namespace relaxc::driver {

// The side file of `py_path`: its extension replaced by ".safetensors" (model.py ->
// model.safetensors; added when there is none).
std::string weights_path(const std::string& py_path);

// Writes `module` to `py_path` as text; when it has constants of more than
// text::kInlineConstantElements elements (or ones whose elements cannot be written as
// numbers), they go to weights_path(py_path) and the text refers to them. A module
// without such constants writes no side file. UserError naming the file when one cannot
// be written (or a constant's data type has no safetensors name).
void write_module_with_weights(const IRModule& module, const std::string& py_path);

// Parses `text`, read from `path`; its metadata references, if any, read
// weights_path(path) once (a module read from standard input has no side file). A
// missing or damaged side file is a UserError naming the file and the tensor.
IRModule parse_module_with_weights(std::string_view text, const std::string& path);

}  // namespace relaxc::driver
