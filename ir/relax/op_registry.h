// The operator registry: each Relax operator's name, arguments, attributes, purity and
// StructInfo inference.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/relax/expr.h"

namespace relaxc::relax {

class BlockBuilder;

// One attribute an operator takes as a keyword argument, with its default (a None
// default with required=false means "absent unless given").
struct OpAttrSpec {
  std::string name;
  AttrValue default_value;
  bool required = false;
};

// Infers the StructInfo of a call of the operator. The call's arguments are already
// normalized (leaves with StructInfo). A statically detectable error (adding (2, 3)
// to (4, 5)) is a UserError at call->span that names the operator, the argument and
// the dimension.
using InferStructInfoFn = std::function<StructInfo(const CallNode* call, const BlockBuilder& bb)>;

// Rewrites a call being built (not yet shared, its arguments normalized) into the
// operator's canonical form before inference: reshape resolves a -1 dimension, the
// packed-call operators turn a function name (StringImm) into an ExternFunc.
using CanonicalizeFn = std::function<void(CallNode* call, const BlockBuilder& bb)>;

struct OpInfo {
  std::string name;                    // "relax.nn.softmax"; printed R.nn.softmax
  std::vector<std::string> arg_names;  // positional arguments, in order
  int num_required_args = 0;           // the first this-many of arg_names are required
  std::vector<OpAttrSpec> attrs;       // keyword attributes, in canonical order
  // The keyword that gives sinfo_args in the text format ("out_sinfo" for call_tir,
  // "sinfo_args" for call_packed); empty if the operator takes none.
  std::string sinfo_args_keyword;
  bool pure = true;
  InferStructInfoFn infer;
  // The last of arg_names stands for any number (zero or more) of trailing arguments
  // (call_packed's "args", print's "values").
  bool variadic = false;
  CanonicalizeFn canonicalize;  // may be empty
};

// Registers `info`; internal error if the name is taken.
void register_op(OpInfo info);
// The operator named `name` ("relax.add") or nullptr.
const OpInfo* find_op(const std::string& name);
const std::vector<const OpInfo*>& all_ops();

// The script name of an operator: "relax.nn.relu" -> "nn.relu" (printed R.nn.relu).
std::string op_script_name(const std::string& op_name);

}  // namespace relaxc::relax
