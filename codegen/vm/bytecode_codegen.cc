// Relax -> bytecode: one walk over a function's bindings in order. Each expression
// becomes an Arg: leaves (constants, immediates, function references) need no code and
// aliases reuse their value's Arg; calls, tuples and field reads become Call
// instructions writing a fresh register; R.If becomes If/Goto around the two branches,
// each of which copies its result into one shared register.
#include "codegen/vm/bytecode_codegen.h"

#include <cstring>
#include <utility>
#include <vector>

#include "codegen/vm/int_program_codegen.h"
#include "ir/relax/ops/op_common.h"
#include "ir/tir/functor.h"
#include "runtime/crc32c.h"
#include "runtime/vm/builtin_abi.h"

namespace relaxc::codegen {

using runtime::vm::Arg;
using runtime::vm::Constant;
using runtime::vm::Instruction;
using runtime::vm::Opcode;

namespace {

namespace builtin = runtime::vm::builtin;

void append_bytes(std::string& key, const void* data, size_t n) {
  key.append(static_cast<const char*>(data), n);
}

template <typename T>
void append_value(std::string& key, const T& v) {
  append_bytes(key, &v, sizeof(v));
}

// Equal constants have equal keys (every field is written with its length; a tensor's
// bytes by their CRC-32C, so that a model's weights are hashed, not copied, and equal
// keys are compared in full).
std::string constant_key(const Constant& c) {
  std::string key;
  append_value(key, c.kind);
  append_value(key, c.dtype.code);
  append_value(key, c.dtype.bits);
  append_value(key, c.dtype.lanes);
  append_value(key, c.shape.size());
  append_bytes(key, c.shape.data(), c.shape.size() * sizeof(int64_t));
  append_value(key, c.bytes.size());
  append_value(key, runtime::crc32c(c.bytes.span()));
  append_value(key, c.str.size());
  key += c.str;
  append_value(key, c.int_value);
  uint64_t float_bits = 0;
  std::memcpy(&float_bits, &c.float_value, sizeof(float_bits));
  append_value(key, float_bits);
  return key;
}

class FunctionCodegen {
 public:
  FunctionCodegen(const std::string& name, ExecutableTables& tables)
      : name_(name), tables_(tables) {}

  runtime::vm::FunctionEntry run(const relax::Function& func) {
    runtime::vm::FunctionEntry entry;
    entry.kind = runtime::vm::FunctionKind::Bytecode;
    entry.name = name_;
    for (const relax::Var& param : func->params) {
      entry.param_names.push_back(param->name);
      vars_[param.get()] = Arg{Arg::Kind::Register, new_register()};
    }
    location_ = func->span.location();
    Arg result = visit(func->body);
    emit_ret(result);
    entry.num_registers = num_registers_;
    entry.code = std::move(code_);
    entry.memory_plan = memory_plan(func);
    entry.sources = std::move(sources_);
    return entry;
  }

 private:
  int64_t new_register() { return num_registers_++; }

  // Appends `in`, starting a source range where the location changes.
  void append(Instruction in) {
    if (sources_.empty() ? !location_.empty() : sources_.back().location != location_) {
      sources_.push_back({static_cast<int64_t>(code_.size()), location_});
    }
    code_.push_back(std::move(in));
  }

  // The lines static-plan-block-memory left in the attribute "relaxc.memory_plan".
  std::vector<std::string> memory_plan(const relax::Function& func) const {
    std::vector<std::string> lines;
    const AttrValue* plan = func->attrs.find("relaxc.memory_plan");
    if (plan == nullptr) return lines;
    for (const AttrValue& line : plan->list) {
      if (plan->kind != AttrValue::Kind::List || line.kind != AttrValue::Kind::String) break;
      lines.push_back(line.s);
    }
    if (plan->kind != AttrValue::Kind::List || lines.size() != plan->list.size()) {
      user_error(func->span) << name_ << ": attribute relaxc.memory_plan must be a list of strings";
    }
    return lines;
  }

  static Arg reg(int64_t r) { return Arg{Arg::Kind::Register, r}; }

  Arg constant(Constant c) { return Arg{Arg::Kind::Constant, tables_.constant(std::move(c))}; }

  // dst = func(args...): a fresh register unless `dst` is given.
  Arg emit_call(int64_t func, std::vector<Arg> args, int64_t dst = -1) {
    Instruction call;
    call.opcode = Opcode::Call;
    call.dst = dst >= 0 ? dst : new_register();
    call.func = func;
    call.args = std::move(args);
    append(std::move(call));
    return reg(code_.back().dst);
  }

  Arg emit_builtin(const std::string& name, std::vector<Arg> args, int64_t dst = -1) {
    return emit_call(tables_.packed(name), std::move(args), dst);
  }

  // The register holding `a`: itself, or a copy of the constant or immediate.
  int64_t in_register(const Arg& a) {
    if (a.kind == Arg::Kind::Register) return a.value;
    return emit_builtin(builtin::kCopy, {a}).value;
  }

  void emit_ret(const Arg& result) {
    Instruction ret;
    ret.opcode = Opcode::Ret;
    ret.reg = in_register(result);
    append(std::move(ret));
  }

  // The user-facing place of an error: the function and the binding being compiled.
  std::string where() const {
    std::string w = name_;
    if (!binding_.empty()) w += " (binding '" + binding_ + "')";
    return w;
  }

  Arg visit(const relax::Expr& e) {
    NestingGuard guard(depth_, e.get());
    switch (e->kind()) {
      case NodeKind::RelaxVar:
      case NodeKind::RelaxDataflowVar: {
        auto it = vars_.find(e.as<relax::VarNode>());
        if (it == vars_.end()) {
          user_error(e->span) << where() << ": variable '" << e.as<relax::VarNode>()->name
                              << "' is used outside the scope that binds it";
        }
        return it->second;
      }
      case NodeKind::RelaxConstant:
        return constant_tensor(*e.as<relax::ConstantNode>());
      case NodeKind::RelaxPrimValue:
        return prim_value(*e.as<relax::PrimValueNode>());
      case NodeKind::RelaxStringImm: {
        Constant c;
        c.kind = Constant::Kind::String;
        c.str = e.as<relax::StringImmNode>()->value;
        return constant(std::move(c));
      }
      case NodeKind::RelaxDataTypeImm: {
        Constant c;
        c.kind = Constant::Kind::DataType;
        c.dtype = runtime_dtype(e.as<relax::DataTypeImmNode>()->value, where());
        return constant(std::move(c));
      }
      case NodeKind::RelaxShapeExpr:
        return shape(*e.as<relax::ShapeExprNode>());
      case NodeKind::RelaxGlobalVar:
        return Arg{Arg::Kind::Function, global(*e.as<relax::GlobalVarNode>())};
      case NodeKind::RelaxExternFunc:
        return Arg{Arg::Kind::Function,
                   tables_.packed(e.as<relax::ExternFuncNode>()->global_symbol)};
      case NodeKind::RelaxTuple: {
        std::vector<Arg> fields;
        for (const relax::Expr& f : e.as<relax::TupleNode>()->fields) fields.push_back(visit(f));
        return emit_builtin(builtin::kMakeTuple, std::move(fields));
      }
      case NodeKind::RelaxTupleGetItem: {
        const auto* get = e.as<relax::TupleGetItemNode>();
        Arg tuple = visit(get->tuple);
        return emit_builtin(builtin::kTupleGetitem, {tuple, Arg{Arg::Kind::Immediate, get->index}});
      }
      case NodeKind::RelaxCall:
        return call(*e.as<relax::CallNode>());
      case NodeKind::RelaxIf:
        return if_else(*e.as<relax::IfNode>());
      case NodeKind::RelaxSeqExpr:
        return seq(*e.as<relax::SeqExprNode>());
      case NodeKind::RelaxFunction:
        user_error(e->span) << where()
                            << ": a local function is not in VM form (lambda-lift makes it a "
                               "module function)";
      default:
        user_error(e->span) << where() << ": a " << node_kind_name(e->kind())
                            << " is not in VM form";
    }
  }

  Arg seq(const relax::SeqExprNode& s) {
    for (const relax::BindingBlock& block : s.blocks) {
      for (const relax::Binding& b : block->bindings) {
        binding_ = b->var->name;
        std::string outer = location_;
        Span span = b->span.defined() ? b->span : b->value->span;
        if (span.defined()) location_ = span.location();
        if (b.is<relax::MatchCastNode>()) {
          user_error(b->span) << where()
                              << ": R.match_cast is not in VM form (vm-shape-lower turns it "
                                 "into run-time checks)";
        }
        vars_[b->var.get()] = visit(b->value);
        binding_.clear();
        location_ = outer;
      }
    }
    return visit(s.body);
  }

  Arg constant_tensor(const relax::ConstantNode& c) {
    Constant out;
    out.kind = Constant::Kind::Tensor;
    out.dtype = runtime_dtype(c.data.dtype, where());
    out.shape = c.data.shape;
    // The executable shares the IR's bytes: a model's weights are not copied here.
    if (c.data.data != nullptr) out.bytes = runtime::vm::ConstantBytes(*c.data.data, c.data.data);
    return constant(std::move(out));
  }

  Arg prim_value(const relax::PrimValueNode& p) {
    const tir::PrimExpr& v = p.value;
    Constant out;
    if (const auto* i = v.as<tir::IntImmNode>()) {
      if (v->dtype == DataType::Int(64)) return Arg{Arg::Kind::Immediate, i->value};
      out.kind = Constant::Kind::Int;
      out.int_value = i->value;
    } else if (const auto* f = v.as<tir::FloatImmNode>()) {
      out.kind = Constant::Kind::Float;
      out.float_value = f->value;
    } else {
      user_error(p.span) << where()
                         << ": a PrimValue computed from shape variables is not in VM form "
                            "(vm-shape-lower builds it from the shape heap)";
    }
    out.dtype = runtime_dtype(v->dtype, where());
    return constant(std::move(out));
  }

  Arg shape(const relax::ShapeExprNode& s) {
    Constant out;
    out.kind = Constant::Kind::Shape;
    for (const tir::PrimExpr& dim : s.values) {
      const int64_t* value = tir::as_const_int(dim);
      if (value == nullptr) {
        user_error(s.span) << where()
                           << ": a shape with symbolic dimensions is not in VM form "
                              "(vm-shape-lower builds it from the shape heap)";
      }
      out.shape.push_back(*value);
    }
    return constant(std::move(out));
  }

  int64_t global(const relax::GlobalVarNode& gv) {
    int64_t index = tables_.function(gv.name);
    if (index < 0) {
      user_error(gv.span) << where() << ": the module has no function '" << gv.name << "'";
    }
    return index;
  }

  std::vector<Arg> visit_args(const std::vector<relax::Expr>& args, size_t first) {
    std::vector<Arg> out;
    for (size_t i = first; i < args.size(); ++i) out.push_back(visit(args[i]));
    return out;
  }

  Arg call(const relax::CallNode& c) {
    switch (c.op->kind()) {
      case NodeKind::RelaxExternFunc:
        return emit_call(tables_.packed(c.op.as<relax::ExternFuncNode>()->global_symbol),
                         visit_args(c.args, 0));
      case NodeKind::RelaxGlobalVar:
        return emit_call(global(*c.op.as<relax::GlobalVarNode>()), visit_args(c.args, 0));
      case NodeKind::RelaxVar:
      case NodeKind::RelaxDataflowVar: {
        // A closure held in a register: the VM calls it through the builtin.
        std::vector<Arg> args{visit(c.op)};
        for (Arg& a : visit_args(c.args, 0)) args.push_back(a);
        return emit_builtin(builtin::kInvokeClosure, std::move(args));
      }
      case NodeKind::RelaxOp:
        return call_op(c);
      default:
        user_error(c.span) << where() << ": a call of a " << node_kind_name(c.op->kind())
                           << " is not in VM form";
    }
  }

  Arg call_op(const relax::CallNode& c) {
    const std::string& op = c.op.as<relax::OpNode>()->name;
    if (op == "relax.call_packed" || op == "relax.call_pure_packed") {
      const auto* callee = c.args.empty() ? nullptr : c.args[0].as<relax::ExternFuncNode>();
      if (callee == nullptr) {
        user_error(c.span) << where() << ": " << relax::op_display_name(&c)
                           << " must name its packed function";
      }
      return emit_call(tables_.packed(callee->global_symbol), visit_args(c.args, 1));
    }
    if (op == "relax.memory.kill_storage" || op == "relax.memory.kill_tensor" ||
        op == "relax.vm.kill_object") {
      // Killing drops the register's reference, so the storage returns to the pool now
      // rather than when the frame ends.
      Arg killed = c.args.size() == 1 ? visit(c.args[0]) : Arg{};
      if (c.args.size() != 1 || killed.kind != Arg::Kind::Register) {
        user_error(c.span) << where() << ": " << relax::op_display_name(&c)
                           << " must name a variable holding the value to free";
      }
      return emit_builtin(builtin::kNullValue, {}, killed.value);
    }
    user_error(c.span) << where() << ": " << relax::op_display_name(&c)
                       << " is not in VM form (vm-builtin-lower turns VM operators into "
                          "builtins; a computing operator must be written as R.call_tir)";
  }

  // If cond: pc + 1 (the true branch); else: pc + offset (the false branch). The true
  // branch ends with a Goto past the false branch; both leave their value in `result`.
  Arg if_else(const relax::IfNode& node) {
    int64_t cond = in_register(visit(node.cond));
    int64_t result = new_register();
    size_t if_pc = code_.size();
    Instruction branch;
    branch.opcode = Opcode::If;
    branch.reg = cond;
    append(std::move(branch));
    std::string binding = binding_;
    emit_builtin(builtin::kCopy, {visit(node.true_branch)}, result);
    size_t goto_pc = code_.size();
    Instruction jump;
    jump.opcode = Opcode::Goto;
    append(std::move(jump));
    code_[if_pc].offset = static_cast<int64_t>(code_.size() - if_pc);
    binding_ = binding;
    emit_builtin(builtin::kCopy, {visit(node.false_branch)}, result);
    code_[goto_pc].offset = static_cast<int64_t>(code_.size() - goto_pc);
    binding_ = binding;
    return reg(result);
  }

  const std::string& name_;
  ExecutableTables& tables_;
  std::unordered_map<const relax::VarNode*, Arg> vars_;
  std::vector<Instruction> code_;
  std::vector<runtime::vm::SourceRange> sources_;
  std::string location_;  // of the binding being compiled, else of the function
  int64_t num_registers_ = 0;
  std::string binding_;  // the variable of the binding being compiled, for messages
  int depth_ = 0;
};

}  // namespace

int64_t ExecutableTables::add_function(runtime::vm::FunctionEntry entry) {
  int64_t index = static_cast<int64_t>(exe_.functions.size());
  functions_.emplace(entry.name, index);
  exe_.functions.push_back(std::move(entry));
  return index;
}

int64_t ExecutableTables::function(const std::string& name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? -1 : it->second;
}

int64_t ExecutableTables::packed(const std::string& name) {
  auto [it, inserted] = packed_.emplace(name, static_cast<int64_t>(exe_.functions.size()));
  if (inserted) {
    runtime::vm::FunctionEntry entry;
    entry.kind = runtime::vm::FunctionKind::Packed;
    entry.name = name;
    exe_.functions.push_back(std::move(entry));
  }
  return it->second;
}

int64_t ExecutableTables::constant(Constant c) {
  std::vector<int64_t>& same_key = constants_[constant_key(c)];
  for (int64_t index : same_key) {
    if (exe_.constants[static_cast<size_t>(index)] == c) return index;
  }
  same_key.push_back(static_cast<int64_t>(exe_.constants.size()));
  exe_.constants.push_back(std::move(c));
  return same_key.back();
}

runtime::vm::FunctionEntry bytecode_codegen(const relax::Function& func, const std::string& name,
                                            ExecutableTables& tables) {
  return FunctionCodegen(name, tables).run(func);
}

}  // namespace relaxc::codegen
