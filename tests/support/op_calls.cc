// Operator calls in tests (op_calls.h).
#include "tests/support/op_calls.h"

#include "ir/module.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "tests/support/errors.h"

namespace relaxc::testing {

std::string op_call_module(const std::string& params, const std::string& call) {
  return "@R.function\ndef main(" + params +
         "):\n    n = T.int64()\n    m = T.int64()\n    gv = " + call + "\n    return gv\n";
}

namespace {

const relax::VarBindingNode& call_binding(const IRModule& module) {
  const auto* seq = module->relax_function("main")->body.as<relax::SeqExprNode>();
  return *seq->blocks.back()->bindings.back().as<relax::VarBindingNode>();
}

}  // namespace

std::string inferred_struct_info(const std::string& params, const std::string& call) {
  IRModule m = text::parse_module(op_call_module(params, call), "ops.py");
  return text::print_node(call_binding(m).var->struct_info);
}

std::string printed_op_call(const std::string& params, const std::string& call) {
  IRModule m = text::parse_module(op_call_module(params, call), "ops.py");
  return text::print_node(call_binding(m).value);
}

std::string op_call_error(const std::string& params, const std::string& call) {
  return error_of([&] { text::parse_module(op_call_module(params, call), "ops.py"); });
}

}  // namespace relaxc::testing
