// Handles of the registered operators that passes single out. Each is looked up once,
// on first use (the registry registers the built-in operators on its first lookup).
#include "ir/relax/op_handles.h"

namespace relaxc::relax::ops {

const Op& call_tir() {
  static const Op op = get_op("relax.call_tir");
  return op;
}
const Op& call_dps_packed() {
  static const Op op = get_op("relax.call_dps_packed");
  return op;
}
const Op& call_packed() {
  static const Op op = get_op("relax.call_packed");
  return op;
}
const Op& call_pure_packed() {
  static const Op op = get_op("relax.call_pure_packed");
  return op;
}
const Op& make_closure() {
  static const Op op = get_op("relax.make_closure");
  return op;
}
const Op& invoke_closure() {
  static const Op op = get_op("relax.invoke_closure");
  return op;
}
const Op& invoke_pure_closure() {
  static const Op op = get_op("relax.invoke_pure_closure");
  return op;
}
const Op& alloc_storage() {
  static const Op op = get_op("relax.memory.alloc_storage");
  return op;
}
const Op& alloc_tensor() {
  static const Op op = get_op("relax.memory.alloc_tensor");
  return op;
}
const Op& kill_storage() {
  static const Op op = get_op("relax.memory.kill_storage");
  return op;
}
const Op& kill_tensor() {
  static const Op op = get_op("relax.memory.kill_tensor");
  return op;
}
const Op& kill_object() {
  static const Op op = get_op("relax.vm.kill_object");
  return op;
}
const Op& reshape() {
  static const Op op = get_op("relax.reshape");
  return op;
}
const Op& flatten() {
  static const Op op = get_op("relax.flatten");
  return op;
}
const Op& shape_of() {
  static const Op op = get_op("relax.shape_of");
  return op;
}
const Op& tensor_to_shape() {
  static const Op op = get_op("relax.tensor_to_shape");
  return op;
}
const Op& null_value() {
  static const Op op = get_op("relax.null_value");
  return op;
}
const Op& print() {
  static const Op op = get_op("relax.print");
  return op;
}

}  // namespace relaxc::relax::ops
