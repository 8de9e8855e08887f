// ONNX tensors as relaxc sees them: element types as DataTypes, and TensorProtos
// (initializers, Constant values, tensor attributes) as HostTensors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/support/host_tensor.h"

namespace onnx {
class TensorProto;
}

namespace relaxc::onnx_import {

// The DataType of an ONNX element type (TensorProto::DataType), or nullopt for those
// relaxc has no tensors of (string, complex, the float8 kinds).
std::optional<DataType> dtype_of(int32_t onnx_type);
// The element type's ONNX name ("FLOAT", "STRING"), for messages.
std::string onnx_type_name(int32_t onnx_type);

// Why a TensorProto cannot be read: `unsupported` for what ONNX allows and relaxc does
// not read (external data, strings), otherwise a tensor that contradicts itself.
struct TensorProtoError {
  bool unsupported = false;
  std::string message;
};

// The tensor's contents from raw_data or the typed field of its element type.
// TensorProtoError when they cannot be read.
HostTensor host_tensor_of(const onnx::TensorProto& proto);

}  // namespace relaxc::onnx_import
