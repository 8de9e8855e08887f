// The ONNX importer: a model file (or its bytes) to an IRModule whose one function
// `main` computes the graph's outputs from its inputs in a dataflow block.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/module.h"

namespace relaxc::onnx_import {

// The largest model file read: protobuf cannot parse a message of 2 GiB or more.
inline constexpr uint64_t kMaxModelBytes = (uint64_t{2} << 30) - 1;

// The function attribute of `main` that keeps the graph outputs' ONNX names, in order
// (a list of strings), so that `relaxc run` can print them.
inline constexpr const char* kOutputNamesAttr = "onnx_output_names";

// Whether `path` names an ONNX model (by its extension, `.onnx`).
bool is_onnx_path(const std::string& path);

// Imports the serialized model `bytes`; `name` (the file) starts every error message.
// UserError when the model cannot be parsed, fails the ONNX checker, uses an opset or
// domain relaxc does not import, or has a node that cannot be converted (naming the
// node, its op type and opset).
IRModule import_model(std::span<const uint8_t> bytes, const std::string& name);
// The same for the model file at `path` ("-": standard input), at most kMaxModelBytes.
IRModule import_model_file(const std::string& path);

// The ONNX names of `main`'s outputs (kOutputNamesAttr), or empty when the module was
// not imported from ONNX.
std::vector<std::string> output_names(const IRModule& module);

}  // namespace relaxc::onnx_import
