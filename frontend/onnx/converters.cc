// The converter table: every family's converters, registered once, looked up by op
// type and opset.
#include <utility>

#include "frontend/onnx/converter.h"
#include "ir/support/diagnostics.h"

namespace relaxc::onnx_import {

void ConverterTable::add(const std::string& op_type, int64_t since_version, Converter convert) {
  bool added = table_[op_type].emplace(since_version, std::move(convert)).second;
  RELAXC_ICHECK(added) << "ONNX converter of " << op_type << " since opset " << since_version
                       << " registered twice";
}

const Converter* ConverterTable::find(const std::string& op_type, int64_t opset) const {
  auto versions = table_.find(op_type);
  if (versions == table_.end()) return nullptr;
  // The first converter past `opset`; the one before it is the newest that applies.
  auto after = versions->second.upper_bound(opset);
  if (after == versions->second.begin()) return nullptr;
  return &std::prev(after)->second;
}

std::vector<std::string> ConverterTable::op_types() const {
  std::vector<std::string> names;
  for (const auto& [name, versions] : table_) names.push_back(name);
  return names;
}

const ConverterTable& converter_table() {
  static const ConverterTable table = [] {
    ConverterTable t;
    register_core_converters(t);
    register_elementwise_converters(t);
    register_nn_converters(t);
    register_reduce_converters(t);
    register_shape_converters(t);
    register_index_converters(t);
    register_data_dependent_converters(t);
    register_loss_converters(t);
    register_rnn_converters(t);
    register_signal_converters(t);
    return t;
  }();
  return table;
}

}  // namespace relaxc::onnx_import
