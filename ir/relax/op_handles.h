// Handles of the registered operators that passes single out, so that a pass tests
// `call->op.same_as(ops::call_tir())` (one pointer comparison, and a misspelled name is
// a compile error) rather than comparing name strings.
#pragma once

#include "ir/relax/expr.h"

namespace relaxc::relax::ops {

const Op& call_tir();
const Op& call_dps_packed();
const Op& call_packed();
const Op& call_pure_packed();
const Op& make_closure();
const Op& invoke_closure();
const Op& invoke_pure_closure();
const Op& alloc_storage();  // relax.memory.alloc_storage
const Op& alloc_tensor();   // relax.memory.alloc_tensor
const Op& kill_storage();   // relax.memory.kill_storage
const Op& kill_tensor();    // relax.memory.kill_tensor
const Op& kill_object();    // relax.vm.kill_object
const Op& reshape();
const Op& flatten();
const Op& shape_of();
const Op& tensor_to_shape();
const Op& null_value();
const Op& print();

}  // namespace relaxc::relax::ops
