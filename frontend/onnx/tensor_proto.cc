// TensorProto -> HostTensor: the element bytes of raw_data (little-endian, as ONNX
// stores them) or of the typed field that holds the element type.
#include "frontend/onnx/tensor_proto.h"

#include <cstring>
#include <memory>
#include <vector>

#include "onnx/onnx_pb.h"

namespace relaxc::onnx_import {

std::optional<DataType> dtype_of(int32_t onnx_type) {
  switch (onnx_type) {
    case onnx::TensorProto::FLOAT:
      return DataType::Float(32);
    case onnx::TensorProto::DOUBLE:
      return DataType::Float(64);
    case onnx::TensorProto::FLOAT16:
      return DataType::Float(16);
    case onnx::TensorProto::BFLOAT16:
      return DataType::BFloat(16);
    case onnx::TensorProto::INT8:
      return DataType::Int(8);
    case onnx::TensorProto::INT16:
      return DataType::Int(16);
    case onnx::TensorProto::INT32:
      return DataType::Int(32);
    case onnx::TensorProto::INT64:
      return DataType::Int(64);
    case onnx::TensorProto::UINT8:
      return DataType::UInt(8);
    case onnx::TensorProto::UINT16:
      return DataType::UInt(16);
    case onnx::TensorProto::UINT32:
      return DataType::UInt(32);
    case onnx::TensorProto::UINT64:
      return DataType::UInt(64);
    case onnx::TensorProto::BOOL:
      return DataType::Bool();
    default:
      return std::nullopt;
  }
}

std::string onnx_type_name(int32_t onnx_type) {
  if (!onnx::TensorProto::DataType_IsValid(onnx_type)) {
    return "unknown element type " + std::to_string(onnx_type);
  }
  return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(onnx_type));
}

namespace {

[[noreturn]] void fail(bool unsupported, std::string message) {
  throw TensorProtoError{unsupported, std::move(message)};
}

// The elements of a typed field, each narrowed to the element type's bytes.
template <typename Element, typename Field>
std::vector<uint8_t> typed_bytes(const Field& field, size_t count, int element_bytes) {
  if (static_cast<size_t>(field.size()) != count) {
    fail(false, "has " + std::to_string(count) + " elements but its data field holds " +
                    std::to_string(field.size()));
  }
  std::vector<uint8_t> bytes(count * static_cast<size_t>(element_bytes));
  for (size_t i = 0; i < count; ++i) {
    auto value = static_cast<Element>(field.Get(static_cast<int>(i)));
    std::memcpy(bytes.data() + i * static_cast<size_t>(element_bytes), &value, sizeof(value));
  }
  return bytes;
}

}  // namespace

HostTensor host_tensor_of(const onnx::TensorProto& proto) {
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    fail(true,
         "is stored in an external file, which relaxc does not read; save the model with "
         "its weights inside (onnx.save_model(model, path, save_as_external_data=False))");
  }
  std::optional<DataType> dtype = dtype_of(proto.data_type());
  if (!dtype) fail(true, "has element type " + onnx_type_name(proto.data_type()));
  HostTensor tensor;
  tensor.dtype = *dtype;
  uint64_t count = 1;
  for (int64_t dim : proto.dims()) {
    if (dim < 0) fail(false, "has a negative dimension " + std::to_string(dim));
    if (dim != 0 && count > (uint64_t{1} << 40) / static_cast<uint64_t>(dim)) {
      fail(false, "has more than 2^40 elements");
    }
    count *= static_cast<uint64_t>(dim);
    tensor.shape.push_back(dim);
  }
  const int element_bytes = dtype->bytes();
  std::vector<uint8_t> bytes;
  if (proto.has_raw_data()) {
    const std::string& raw = proto.raw_data();
    if (raw.size() != count * static_cast<uint64_t>(element_bytes)) {
      fail(false, "has " + std::to_string(count) + " elements of " + std::to_string(element_bytes) +
                      " bytes but " + std::to_string(raw.size()) + " bytes of raw_data");
    }
    bytes.assign(raw.begin(), raw.end());
  } else {
    switch (proto.data_type()) {
      case onnx::TensorProto::FLOAT:
        bytes = typed_bytes<float>(proto.float_data(), count, element_bytes);
        break;
      case onnx::TensorProto::DOUBLE:
        bytes = typed_bytes<double>(proto.double_data(), count, element_bytes);
        break;
      case onnx::TensorProto::INT64:
        bytes = typed_bytes<int64_t>(proto.int64_data(), count, element_bytes);
        break;
      case onnx::TensorProto::UINT32:
        bytes = typed_bytes<uint32_t>(proto.uint64_data(), count, element_bytes);
        break;
      case onnx::TensorProto::UINT64:
        bytes = typed_bytes<uint64_t>(proto.uint64_data(), count, element_bytes);
        break;
      case onnx::TensorProto::INT32:
        bytes = typed_bytes<int32_t>(proto.int32_data(), count, element_bytes);
        break;
      case onnx::TensorProto::INT16:
        bytes = typed_bytes<int16_t>(proto.int32_data(), count, element_bytes);
        break;
      case onnx::TensorProto::INT8:
        bytes = typed_bytes<int8_t>(proto.int32_data(), count, element_bytes);
        break;
      case onnx::TensorProto::UINT16:
      case onnx::TensorProto::FLOAT16:  // the half's bits, one per int32
      case onnx::TensorProto::BFLOAT16:
        bytes = typed_bytes<uint16_t>(proto.int32_data(), count, element_bytes);
        break;
      case onnx::TensorProto::UINT8:
        bytes = typed_bytes<uint8_t>(proto.int32_data(), count, element_bytes);
        break;
      case onnx::TensorProto::BOOL:
        bytes = typed_bytes<bool>(proto.int32_data(), count, element_bytes);
        break;
      default:
        fail(true, "has element type " + onnx_type_name(proto.data_type()));
    }
  }
  tensor.data = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  return tensor;
}

}  // namespace relaxc::onnx_import
