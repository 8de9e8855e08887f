// The TensorIR printer: PrimExprs, statements, blocks and PrimFuncs as TVM 0.23 writes them.
//
// Expressions are printed bottom-up as (text, precedence) pairs; a child is wrapped in
// parentheses only where Python's precedence would read it differently (a right operand
// of equal precedence, any comparison operand of a comparison, which Python would chain).
// Statements are printed top-down with the enclosing loops kept on a stack, so that a
// block can print `T.axis.remap` when its iteration variables are bound to loop variables
// over the same domain. A LetStmt or Allocate is printed as a plain assignment when it
// is the last statement of its body (its scope then ends where the body does), and as a
// `with` scope otherwise; such tails are followed in a loop, so that a long chain of them
// prints flat without deep recursion. Before a PrimFunc's body is printed, one walk over
// the function finds its free variables (declared at the top, `n = T.int64()`) and the
// parameters whose buffer can be written in the signature as `A: T.Buffer(...)`.
#include "ir/text/tir_printer.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "ir/text/printer_common.h"
#include "ir/tir/functor.h"
#include "ir/tir/intrinsics.h"

namespace relaxc::text {

namespace {

// Python's operator precedence (higher binds tighter).
constexpr int kOr = 3;
constexpr int kAnd = 4;
constexpr int kNot = 5;
constexpr int kCompare = 6;
constexpr int kAdd = 11;
constexpr int kMul = 12;
constexpr int kUnary = 13;
constexpr int kAtom = 15;

std::string wrap(const std::string& text, bool parenthesize) {
  return parenthesize ? "(" + text + ")" : text;
}

// The free variables of a PrimFunc in order of first appearance (in the buffer_map's
// buffers, then the body), and the variables the body and those buffers refer to.
struct FuncVariables {
  std::vector<const tir::VarNode*> free;
  std::unordered_set<const Object*> referenced;
};

FuncVariables analyze_variables(const tir::PrimFuncNode* func) {
  std::unordered_set<const Object*> bound;
  for (const tir::Var& param : func->params) bound.insert(param.get());
  std::vector<const tir::VarNode*> in_order;
  FuncVariables result;
  auto visit = [&](const Object* node) {
    switch (node->kind()) {
      case NodeKind::TirVar: {
        const auto* var = static_cast<const tir::VarNode*>(node);
        in_order.push_back(var);
        result.referenced.insert(var);
        break;
      }
      case NodeKind::TirFor:
        bound.insert(static_cast<const tir::ForNode*>(node)->loop_var.get());
        break;
      case NodeKind::TirLetStmt:
        bound.insert(static_cast<const tir::LetStmtNode*>(node)->var.get());
        break;
      // A Let's variable is declared at the top, as TVM prints it (T.Let(body, where=...)
      // names a variable in scope).
      case NodeKind::TirIterVar:
        bound.insert(static_cast<const tir::IterVarNode*>(node)->var.get());
        break;
      case NodeKind::TirBuffer:
        bound.insert(static_cast<const tir::BufferNode*>(node)->data.get());
        break;
      default:
        break;
    }
    return true;
  };
  for (const auto& [param, buffer] : func->buffer_map) walk(buffer.get(), visit);
  walk(func->body.get(), visit);
  std::unordered_set<const tir::VarNode*> listed;
  for (const tir::VarNode* var : in_order) {
    if (bound.count(var) == 0 && listed.insert(var).second) result.free.push_back(var);
  }
  return result;
}

bool contains_block(const tir::Stmt& stmt) {
  bool found = false;
  walk(stmt.get(), [&](const Object* node) {
    if (node->kind() == NodeKind::TirBlockRealize) found = true;
    return !found;
  });
  return found;
}

// The root block the parser adds around a function body with blocks, printed as a
// comment (TVM's condition: an otherwise empty root that holds buffers or blocks).
const tir::BlockNode* implicit_root_block(const tir::Stmt& body) {
  const auto* realize = body.as<tir::BlockRealizeNode>();
  if (realize == nullptr || !realize->iter_values.empty() ||
      !tir::is_const_int(realize->predicate, 1) || !realize->block.defined()) {
    return nullptr;
  }
  const tir::BlockNode* root = realize->block.get();
  if (root->name != "root" || !root->iter_vars.empty() || !root->annotations.empty() ||
      !root->match_buffers.empty() || !root->reads.empty() || !root->writes.empty() ||
      root->init.defined()) {
    return nullptr;
  }
  // A single block child without iteration variables would read back as the root
  // itself, so such a root is printed explicitly.
  const auto* child = root->body.as<tir::BlockRealizeNode>();
  bool holds_blocks = child != nullptr ? child->block.defined() && !child->block->iter_vars.empty()
                                       : contains_block(root->body);
  return !root->alloc_buffers.empty() || holds_blocks ? root : nullptr;
}

bool uses_any_var(const tir::PrimExpr& e, const std::unordered_set<const Object*>& vars) {
  bool found = false;
  walk(e.get(), [&](const Object* node) {
    if (vars.count(node) != 0) found = true;
    return !found;
  });
  return found;
}

}  // namespace

// ---------------------------------------------------------------- Names

std::string TirPrinter::t(const char* name) {
  ctx_.uses_tir = true;
  return std::string("T.") + name;
}

std::string TirPrinter::define_var(const tir::VarNode* var) {
  return ctx_.names.define(var, var->name, "v");
}

std::string TirPrinter::var_name(const tir::VarNode* var) {
  if (const std::string* name = ctx_.names.find(var)) return *name;
  // A variable used outside its scope (or in a lone node): named at the outermost
  // scope so that it keeps one name.
  return ctx_.names.define(var, var->name, "v", /*outermost=*/true);
}

std::string TirPrinter::define_buffer(const tir::BufferNode* buffer) {
  std::string name = ctx_.names.define(buffer, buffer->name, "buf");
  if (buffer->data.defined()) ctx_.names.alias(buffer->data.get(), name + ".data");
  return name;
}

std::string TirPrinter::buffer_name(const tir::BufferNode* buffer) {
  if (buffer == nullptr) return "None";
  if (const std::string* name = ctx_.names.find(buffer)) return *name;
  return ctx_.names.define(buffer, buffer->name, "buf", /*outermost=*/true);
}

std::string TirPrinter::var_declaration(const tir::VarNode* var) {
  std::string type = t(dtype_name(var->dtype).c_str());
  return type + (var->is_size_var ? "(is_size_var=True)" : "()");
}

std::string TirPrinter::type_annotation(DataType dtype) { return t(dtype_name(dtype).c_str()); }

// ---------------------------------------------------------------- Expressions

std::string TirPrinter::expr(const tir::PrimExpr& e, LiteralStyle style) {
  LiteralStyle saved = style_;
  style_ = style;
  std::string text = print(e).text;
  style_ = saved;
  return text;
}

TirPrinter::Doc TirPrinter::int_literal(DataType dtype, int64_t value) {
  // The least int64 has no literal: its magnitude does not fit in 64 bits.
  if (value == std::numeric_limits<int64_t>::min() && dtype == DataType::Int(64)) {
    return {t("min_value") + "(\"int64\")", kAtom};
  }
  DataType bare = style_ == LiteralStyle::Tir ? DataType::Int(32) : DataType::Int(64);
  if (dtype == bare && style_ != LiteralStyle::RelaxValue) {
    return {std::to_string(value), value < 0 ? kUnary : kAtom};
  }
  if (dtype.is_bool()) return {value != 0 ? "True" : "False", kAtom};
  return {t(dtype_name(dtype).c_str()) + "(" + std::to_string(value) + ")", kAtom};
}

TirPrinter::Doc TirPrinter::binary(const tir::PrimExpr& a, const tir::PrimExpr& b, const char* op,
                                   int precedence) {
  Doc left = print(a);
  Doc right = print(b);
  // Python chains comparisons (a < b == c), so a comparison operand of a comparison
  // keeps its parentheses on either side.
  bool compare = precedence == kCompare;
  bool wrap_left = left.precedence < precedence || (compare && left.precedence == precedence);
  bool wrap_right = right.precedence <= precedence;
  return {wrap(left.text, wrap_left) + " " + op + " " + wrap(right.text, wrap_right), precedence};
}

TirPrinter::Doc TirPrinter::end_of(const tir::PrimExpr& min, const tir::PrimExpr& extent) {
  const auto* lo = min.as<tir::IntImmNode>();
  const auto* ext = extent.as<tir::IntImmNode>();
  int64_t sum = 0;
  if (lo != nullptr && ext != nullptr && lo->dtype == ext->dtype &&
      !__builtin_add_overflow(lo->value, ext->value, &sum)) {
    return int_literal(lo->dtype, sum);
  }
  if (ext != nullptr && ext->value == 0) return print(min);
  // From 0 the end is the extent (`0:n`): the parser reads a slice from a literal 0 as
  // extent = upper bound, so `0:0 + n` would read back as another expression.
  if (lo != nullptr && lo->value == 0 && lo->dtype == extent->dtype) return print(extent);
  return binary(min, extent, "+", kAdd);
}

TirPrinter::Doc TirPrinter::call(const tir::CallNode* call) {
  const tir::Intrinsic* intrinsic = tir::find_intrinsic(call->op);
  std::string name = call->op;
  if (intrinsic != nullptr) {
    name = intrinsic->script_name;
  } else if (name.rfind("tir.", 0) == 0) {
    name = name.substr(4);
  }
  std::vector<std::string> args;
  // Intrinsics whose result type the caller gives take it first: T.call_extern("float32", ...).
  if (intrinsic != nullptr && intrinsic->result == tir::Intrinsic::ResultType::Explicit) {
    args.push_back(quote(dtype_name(call->dtype)));
  }
  for (const tir::PrimExpr& arg : call->args) args.push_back(print(arg).text);
  return {t(name.c_str()) + "(" + join(args) + ")", kAtom};
}

TirPrinter::Doc TirPrinter::print(const tir::PrimExpr& e) {
  if (!e.defined()) return {"None", kAtom};
  NestingGuard guard(ctx_.depth, e.get());
  switch (e->kind()) {
    case NodeKind::TirVar:
      return {var_name(e.as<tir::VarNode>()), kAtom};
    case NodeKind::TirIntImm: {
      const auto* imm = e.as<tir::IntImmNode>();
      return int_literal(imm->dtype, imm->value);
    }
    case NodeKind::TirFloatImm: {
      const auto* imm = e.as<tir::FloatImmNode>();
      return {t(dtype_name(imm->dtype).c_str()) + "(" +
                  format_float(imm->value, FloatStyle::TypedLiteral) + ")",
              kAtom};
    }
    case NodeKind::TirStringImm:
      return {quote(e.as<tir::StringImmNode>()->value), kAtom};
    case NodeKind::TirCast: {
      const auto* cast = e.as<tir::CastNode>();
      return {
          t("Cast") + "(" + quote(dtype_name(cast->dtype)) + ", " + print(cast->value).text + ")",
          kAtom};
    }
    case NodeKind::TirAdd:
      return binary(e.as<tir::AddNode>()->a, e.as<tir::AddNode>()->b, "+", kAdd);
    case NodeKind::TirSub:
      return binary(e.as<tir::SubNode>()->a, e.as<tir::SubNode>()->b, "-", kAdd);
    case NodeKind::TirMul:
      return binary(e.as<tir::MulNode>()->a, e.as<tir::MulNode>()->b, "*", kMul);
    case NodeKind::TirDiv: {
      const auto* div = e.as<tir::DivNode>();
      // Division of floats is Python's `/`; of integers it truncates: T.truncdiv.
      if (e->dtype.is_float()) return binary(div->a, div->b, "/", kMul);
      return {t("truncdiv") + "(" + print(div->a).text + ", " + print(div->b).text + ")", kAtom};
    }
    case NodeKind::TirMod: {
      const auto* mod = e.as<tir::ModNode>();
      return {t("truncmod") + "(" + print(mod->a).text + ", " + print(mod->b).text + ")", kAtom};
    }
    case NodeKind::TirFloorDiv:
      return binary(e.as<tir::FloorDivNode>()->a, e.as<tir::FloorDivNode>()->b, "//", kMul);
    case NodeKind::TirFloorMod:
      return binary(e.as<tir::FloorModNode>()->a, e.as<tir::FloorModNode>()->b, "%", kMul);
    case NodeKind::TirMin: {
      const auto* n = e.as<tir::MinNode>();
      return {t("min") + "(" + print(n->a).text + ", " + print(n->b).text + ")", kAtom};
    }
    case NodeKind::TirMax: {
      const auto* n = e.as<tir::MaxNode>();
      return {t("max") + "(" + print(n->a).text + ", " + print(n->b).text + ")", kAtom};
    }
    case NodeKind::TirEQ:
      return binary(e.as<tir::EQNode>()->a, e.as<tir::EQNode>()->b, "==", kCompare);
    case NodeKind::TirNE:
      return binary(e.as<tir::NENode>()->a, e.as<tir::NENode>()->b, "!=", kCompare);
    case NodeKind::TirLT:
      return binary(e.as<tir::LTNode>()->a, e.as<tir::LTNode>()->b, "<", kCompare);
    case NodeKind::TirLE:
      return binary(e.as<tir::LENode>()->a, e.as<tir::LENode>()->b, "<=", kCompare);
    case NodeKind::TirGT:
      return binary(e.as<tir::GTNode>()->a, e.as<tir::GTNode>()->b, ">", kCompare);
    case NodeKind::TirGE:
      return binary(e.as<tir::GENode>()->a, e.as<tir::GENode>()->b, ">=", kCompare);
    case NodeKind::TirAnd:
      return binary(e.as<tir::AndNode>()->a, e.as<tir::AndNode>()->b, "and", kAnd);
    case NodeKind::TirOr:
      return binary(e.as<tir::OrNode>()->a, e.as<tir::OrNode>()->b, "or", kOr);
    case NodeKind::TirNot: {
      Doc operand = print(e.as<tir::NotNode>()->a);
      return {"not " + wrap(operand.text, operand.precedence < kNot), kNot};
    }
    case NodeKind::TirSelect: {
      const auto* n = e.as<tir::SelectNode>();
      return {t("Select") + "(" + print(n->condition).text + ", " + print(n->true_value).text +
                  ", " + print(n->false_value).text + ")",
              kAtom};
    }
    case NodeKind::TirBufferLoad: {
      const auto* load = e.as<tir::BufferLoadNode>();
      std::vector<std::string> indices;
      for (const tir::PrimExpr& index : load->indices) indices.push_back(print(index).text);
      std::string subscript = indices.empty() ? "()" : join(indices);
      return {buffer_name(load->buffer.get()) + "[" + subscript + "]", kAtom};
    }
    case NodeKind::TirRamp: {
      const auto* ramp = e.as<tir::RampNode>();
      return {t("Ramp") + "(" + print(ramp->base).text + ", " + print(ramp->stride).text + ", " +
                  std::to_string(ramp->lanes) + ")",
              kAtom};
    }
    case NodeKind::TirBroadcast: {
      const auto* broadcast = e.as<tir::BroadcastNode>();
      return {t("Broadcast") + "(" + print(broadcast->value).text + ", " +
                  std::to_string(broadcast->lanes) + ")",
              kAtom};
    }
    case NodeKind::TirLet: {
      const auto* let = e.as<tir::LetNode>();
      std::string var = let->var.defined() ? print(let->var).text : "None";
      return {t("Let") + "(" + print(let->body).text + ", where={" + var + ": " +
                  print(let->value).text + "})",
              kAtom};
    }
    case NodeKind::TirCall:
      return call(e.as<tir::CallNode>());
    default:
      break;
  }
  return {std::string("<") + node_kind_name(e->kind()) + ">", kAtom};
}

// ---------------------------------------------------------------- Buffers and regions

std::string TirPrinter::buffer_arguments(const tir::BufferNode* buffer,
                                         std::vector<std::string> leading) {
  std::vector<std::string> args = std::move(leading);
  std::vector<std::string> shape;
  for (const tir::PrimExpr& dim : buffer->shape) shape.push_back(print(dim).text);
  args.push_back(tuple_text(shape));
  if (buffer->dtype != DataType::Float(32)) args.push_back(quote(dtype_name(buffer->dtype)));
  if (!buffer->strides.empty()) {
    std::vector<std::string> strides;
    for (const tir::PrimExpr& stride : buffer->strides) strides.push_back(print(stride).text);
    args.push_back("strides=" + tuple_text(strides));
  }
  if (buffer->elem_offset.defined() && !tir::is_const_int(buffer->elem_offset, 0)) {
    args.push_back("elem_offset=" + print(buffer->elem_offset).text);
  }
  if (buffer->scope != "global") args.push_back("scope=" + quote(buffer->scope));
  return join(args);
}

std::string TirPrinter::buffer_annotation(const tir::BufferNode* buffer) {
  std::string args = buffer_arguments(buffer, {});
  return define_buffer(buffer) + ": " + t("Buffer") + "(" + args + ")";
}

std::string TirPrinter::range(const tir::RangeNode* range) {
  return print(range->min).text + ":" + end_of(range->min, range->extent).text;
}

std::string TirPrinter::buffer_region(const tir::BufferRegionNode* region) {
  std::vector<std::string> indices;
  for (const tir::Range& r : region->region) {
    if (!r.defined()) {
      indices.push_back("None");
    } else if (tir::is_const_int(r->extent, 1)) {
      indices.push_back(print(r->min).text);
    } else {
      indices.push_back(range(r.get()));
    }
  }
  return buffer_name(region->buffer.get()) + "[" + (indices.empty() ? "()" : join(indices)) + "]";
}

std::string TirPrinter::match_buffer(const tir::MatchBufferRegionNode* match) {
  std::string source = match->source.defined() ? buffer_region(match->source.get()) : "None";
  if (!match->buffer.defined()) return "None";
  std::string args = buffer_arguments(match->buffer.get(), {source});
  return define_buffer(match->buffer.get()) + " = " + t("match_buffer") + "(" + args + ")";
}

// ---------------------------------------------------------------- Statements

void TirPrinter::body(const tir::Stmt& stmt, int indent, std::string& out) {
  size_t before = out.size();
  this->stmt(stmt, indent, /*last=*/true, out);
  if (out.size() == before) emit_line(out, indent, "pass");
}

void TirPrinter::stmt(const tir::Stmt& first, int indent, bool last, std::string& out) {
  // The last statement of a sequence, and the body of a LetStmt or Allocate written as
  // an assignment, continue at this indentation: they are followed in this loop rather
  // than by recursion, so that a long chain of them cannot exhaust the stack.
  std::deque<NameScope> open_scopes;
  tir::Stmt s = first;
  while (s.defined()) {
    if (const auto* seq = s.as<tir::SeqStmtNode>()) {
      if (seq->seq.empty()) break;
      for (size_t i = 0; i + 1 < seq->seq.size(); ++i) stmt(seq->seq[i], indent, false, out);
      s = seq->seq.back();
    } else if (const auto* let = s.as<tir::LetStmtNode>(); last && let != nullptr) {
      std::string value = print(let->value).text;
      open_scopes.emplace_back(ctx_.names);
      if (let->var.defined()) {
        std::string var = define_var(let->var.get());
        emit_line(out, indent, var + ": " + type_annotation(let->var->dtype) + " = " + value);
      }
      s = let->body;
    } else if (const auto* alloc = s.as<tir::AllocateNode>(); last && alloc != nullptr) {
      std::string args =
          alloc->buffer.defined() ? buffer_arguments(alloc->buffer.get(), {}) : std::string();
      open_scopes.emplace_back(ctx_.names);
      if (alloc->buffer.defined()) {
        std::string name = define_buffer(alloc->buffer.get());
        emit_line(out, indent, name + " = " + t("alloc_buffer") + "(" + args + ")");
      }
      s = alloc->body;
    } else {
      single_stmt(s, indent, out);
      break;
    }
  }
}

void TirPrinter::single_stmt(const tir::Stmt& s, int indent, std::string& out) {
  NestingGuard guard(ctx_.depth, s.get());
  switch (s->kind()) {
    case NodeKind::TirBufferStore: {
      const auto* store = s.as<tir::BufferStoreNode>();
      std::vector<std::string> indices;
      for (const tir::PrimExpr& index : store->indices) indices.push_back(print(index).text);
      std::string target =
          buffer_name(store->buffer.get()) + "[" + (indices.empty() ? "()" : join(indices)) + "]";
      emit_line(out, indent, target + " = " + print(store->value).text);
      return;
    }
    case NodeKind::TirEvaluate:
      emit_line(out, indent,
                t("evaluate") + "(" + print(s.as<tir::EvaluateNode>()->value).text + ")");
      return;
    case NodeKind::TirLetStmt: {
      // Not last in its sequence: the scope of the variable ends before what follows.
      const auto* let = s.as<tir::LetStmtNode>();
      std::string value = print(let->value).text;
      NameScope scope(ctx_.names);
      std::string var = let->var.defined() ? define_var(let->var.get()) : "_";
      emit_line(out, indent, "with " + t("LetStmt") + "(" + value + ") as " + var + ":");
      body(let->body, indent + 1, out);
      return;
    }
    case NodeKind::TirAllocate: {
      const auto* alloc = s.as<tir::AllocateNode>();
      if (!alloc->buffer.defined()) return;
      std::string args = buffer_arguments(alloc->buffer.get(), {});
      NameScope scope(ctx_.names);
      std::string name = define_buffer(alloc->buffer.get());
      emit_line(out, indent, "with " + t("decl_buffer") + "(" + args + ") as " + name + ":");
      body(alloc->body, indent + 1, out);
      return;
    }
    case NodeKind::TirIfThenElse: {
      const auto* branch = s.as<tir::IfThenElseNode>();
      emit_line(out, indent, "if " + print(branch->condition).text + ":");
      {
        NameScope scope(ctx_.names);
        body(branch->then_case, indent + 1, out);
      }
      if (branch->else_case.defined()) {
        emit_line(out, indent, "else:");
        NameScope scope(ctx_.names);
        body(branch->else_case, indent + 1, out);
      }
      return;
    }
    case NodeKind::TirFor:
      for_loop(s.as<tir::ForNode>(), indent, out);
      return;
    case NodeKind::TirWhile: {
      const auto* loop = s.as<tir::WhileNode>();
      emit_line(out, indent, "while " + print(loop->condition).text + ":");
      NameScope scope(ctx_.names);
      body(loop->body, indent + 1, out);
      return;
    }
    case NodeKind::TirBlock:
      block(s.as<tir::BlockNode>(), nullptr, indent, out);
      return;
    case NodeKind::TirBlockRealize: {
      const auto* realize = s.as<tir::BlockRealizeNode>();
      if (realize->block.defined()) block(realize->block.get(), realize, indent, out);
      return;
    }
    default:
      break;
  }
  emit_line(out, indent, std::string("<") + node_kind_name(s->kind()) + ">");
}

void TirPrinter::for_loop(const tir::ForNode* loop, int indent, std::string& out) {
  // Perfectly nested serial loops from 0, whose extents do not depend on one another,
  // print as one T.grid.
  std::vector<const tir::ForNode*> grid;
  std::unordered_set<const Object*> grid_vars;
  for (const tir::ForNode* l = loop; l != nullptr; l = l->body.as<tir::ForNode>()) {
    if (l->kind != tir::ForKind::Serial || !tir::is_const_int(l->min, 0) ||
        !l->annotations.empty() || !l->loop_var.defined() || uses_any_var(l->extent, grid_vars)) {
      break;
    }
    grid.push_back(l);
    grid_vars.insert(l->loop_var.get());
  }
  NameScope scope(ctx_.names);
  size_t loops_before = loops_.size();
  if (grid.size() > 1) {
    std::vector<std::string> extents;
    std::vector<std::string> vars;
    for (const tir::ForNode* l : grid) extents.push_back(print(l->extent).text);
    for (const tir::ForNode* l : grid) vars.push_back(define_var(l->loop_var.get()));
    emit_line(out, indent, "for " + join(vars) + " in " + t("grid") + "(" + join(extents) + "):");
    loops_.insert(loops_.end(), grid.begin(), grid.end());
    body(grid.back()->body, indent + 1, out);
    loops_.resize(loops_before);
    return;
  }
  std::vector<std::string> args;
  if (!tir::is_const_int(loop->min, 0)) args.push_back(print(loop->min).text);
  args.push_back(tir::is_const_int(loop->min, 0) ? print(loop->extent).text
                                                 : end_of(loop->min, loop->extent).text);
  std::string prefix;
  switch (loop->kind) {
    case tir::ForKind::Serial:
      prefix = loop->annotations.empty() ? "range" : t("serial");
      break;
    case tir::ForKind::Parallel:
      prefix = t("parallel");
      break;
    case tir::ForKind::Vectorized:
      prefix = t("vectorized");
      break;
    case tir::ForKind::Unrolled:
      prefix = t("unroll");
      break;
    case tir::ForKind::ThreadBinding:
      prefix = t("thread_binding");
      args.push_back("thread=" + quote(loop->thread_tag));
      break;
  }
  if (!loop->annotations.empty()) {
    args.push_back("annotations=" + format_attr_dict(loop->annotations));
  }
  std::string var = loop->loop_var.defined() ? define_var(loop->loop_var.get()) : "_";
  emit_line(out, indent, "for " + var + " in " + prefix + "(" + join(args) + "):");
  loops_.push_back(loop);
  body(loop->body, indent + 1, out);
  loops_.resize(loops_before);
}

// ---------------------------------------------------------------- Blocks

std::string TirPrinter::domain(const tir::RangeNode* dom) {
  if (dom == nullptr) return "None";
  if (tir::is_const_int(dom->min, 0)) return print(dom->extent).text;
  return "(" + print(dom->min).text + ", " + end_of(dom->min, dom->extent).text + ")";
}

bool TirPrinter::remappable(const tir::IterVarNode* iter_var, const tir::PrimExpr& binding) {
  if (iter_var->kind != tir::IterKind::Spatial && iter_var->kind != tir::IterKind::Reduce)
    return false;
  const auto* var = binding.as<tir::VarNode>();
  if (var == nullptr || !iter_var->dom.defined()) return false;
  for (auto it = loops_.rbegin(); it != loops_.rend(); ++it) {
    const tir::ForNode* loop = *it;
    if (loop->loop_var.get() != var) continue;
    // Printed text compares two expressions of one scope exactly: names are unique
    // there and literals carry their type.
    return print(loop->min).text == print(iter_var->dom->min).text &&
           print(loop->extent).text == print(iter_var->dom->extent).text;
  }
  return false;
}

std::string TirPrinter::iter_var(const tir::IterVarNode* iter_var) {
  std::string rhs =
      t("axis.") + tir::iter_kind_name(iter_var->kind) + "(" + domain(iter_var->dom.get()) + ")";
  std::string name = iter_var->var.defined() ? define_var(iter_var->var.get()) : "_";
  return name + " = " + rhs;
}

void TirPrinter::iter_vars(const tir::BlockNode* block, const tir::BlockRealizeNode* realize,
                           int indent, std::string& out) {
  const std::vector<tir::IterVar>& vars = block->iter_vars;
  auto binding = [&](size_t i) -> tir::PrimExpr {
    return realize != nullptr && i < realize->iter_values.size() ? realize->iter_values[i]
                                                                 : tir::PrimExpr();
  };
  auto print_single = [&](size_t i) {
    const tir::IterVarNode* iv = vars[i].get();
    std::string args = domain(iv->dom.get());
    if (tir::PrimExpr value = binding(i); value.defined()) args += ", " + print(value).text;
    std::string rhs = t("axis.") + tir::iter_kind_name(iv->kind) + "(" + args + ")";
    std::string name = iv->var.defined() ? define_var(iv->var.get()) : "_";
    emit_line(out, indent, name + " = " + rhs);
  };
  // Consecutive iteration variables bound to loop variables over their own domain print
  // as one T.axis.remap; a run of one prints in the long form, as TVM does.
  std::vector<size_t> run;
  auto flush = [&] {
    if (run.size() == 1) {
      print_single(run[0]);
    } else if (run.size() > 1) {
      std::string kinds;
      std::vector<std::string> loop_vars;
      for (size_t i : run) {
        kinds += vars[i]->kind == tir::IterKind::Spatial ? "S" : "R";
        loop_vars.push_back(print(binding(i)).text);
      }
      std::vector<std::string> names;
      for (size_t i : run) names.push_back(define_var(vars[i]->var.get()));
      emit_line(out, indent,
                join(names) + " = " + t("axis.remap") + "(" + quote(kinds) + ", [" +
                    join(loop_vars) + "])");
    }
    run.clear();
  };
  for (size_t i = 0; i < vars.size(); ++i) {
    if (!vars[i].defined()) continue;
    if (realize != nullptr && vars[i]->var.defined() && remappable(vars[i].get(), binding(i))) {
      run.push_back(i);
    } else {
      flush();
      print_single(i);
    }
  }
  flush();
}

void TirPrinter::block(const tir::BlockNode* block, const tir::BlockRealizeNode* realize,
                       int indent, std::string& out) {
  std::string header = "with " + t("block") + "(" + quote(block->name);
  if (realize == nullptr) header += ", no_realize=True";
  emit_line(out, indent, header + "):");
  NameScope scope(ctx_.names);
  int inner = indent + 1;
  iter_vars(block, realize, inner, out);
  if (realize != nullptr && realize->predicate.defined() &&
      !tir::is_const_int(realize->predicate, 1)) {
    emit_line(out, inner, t("where") + "(" + print(realize->predicate).text + ")");
  }
  std::vector<std::string> reads;
  for (const tir::BufferRegion& region : block->reads) {
    if (region.defined()) reads.push_back(buffer_region(region.get()));
  }
  emit_line(out, inner, t("reads") + "(" + join(reads) + ")");
  std::vector<std::string> writes;
  for (const tir::BufferRegion& region : block->writes) {
    if (region.defined()) writes.push_back(buffer_region(region.get()));
  }
  emit_line(out, inner, t("writes") + "(" + join(writes) + ")");
  if (!block->annotations.empty()) {
    emit_line(out, inner, t("block_attr") + "(" + format_attr_dict(block->annotations) + ")");
  }
  for (const tir::Buffer& buffer : block->alloc_buffers) {
    if (!buffer.defined()) continue;
    std::string args = buffer_arguments(buffer.get(), {});
    emit_line(out, inner,
              define_buffer(buffer.get()) + " = " + t("alloc_buffer") + "(" + args + ")");
  }
  for (const tir::MatchBufferRegion& match : block->match_buffers) {
    if (match.defined()) emit_line(out, inner, match_buffer(match.get()));
  }
  if (block->init.defined()) {
    emit_line(out, inner, "with " + t("init") + "():");
    NameScope init_scope(ctx_.names);
    body(block->init, inner + 1, out);
  }
  body(block->body, inner, out);
}

// ---------------------------------------------------------------- PrimFunc

void TirPrinter::prim_func(const tir::PrimFuncNode* func, const std::string& name, int indent,
                           std::string& out) {
  NameScope scope(ctx_.names);
  FuncVariables variables = analyze_variables(func);
  std::unordered_map<const Object*, int> buffers_per_data;
  for (const auto& [param, buffer] : func->buffer_map) {
    if (buffer.defined()) ++buffers_per_data[buffer->data.get()];
  }
  // A parameter is written `A: T.Buffer(...)` when its buffer is a plain global buffer
  // of constant shape, the only one on its data, and the handle is not used otherwise.
  auto inline_buffer = [&](const tir::Var& param) -> const tir::BufferNode* {
    const tir::BufferNode* buffer = func->buffer_of(param).get();
    if (buffer == nullptr || variables.referenced.count(param.get()) != 0 ||
        buffers_per_data[buffer->data.get()] != 1 || !buffer->strides.empty() ||
        buffer->scope != "global" ||
        (buffer->elem_offset.defined() && !tir::is_const_int(buffer->elem_offset, 0))) {
      return nullptr;
    }
    bool constant_shape =
        std::all_of(buffer->shape.begin(), buffer->shape.end(),
                    [](const tir::PrimExpr& dim) { return dim.is<tir::IntImmNode>(); });
    return constant_shape ? buffer : nullptr;
  };

  const AttrValue* symbol = func->attrs.find("global_symbol");
  emit_line(out, indent, "@" + t("prim_func") + (symbol == nullptr ? "(private=True)" : ""));
  std::vector<std::string> params;
  std::unordered_set<const tir::BufferNode*> inlined;
  for (const tir::Var& param : func->params) {
    if (!param.defined()) continue;
    if (const tir::BufferNode* buffer = inline_buffer(param)) {
      params.push_back(buffer_annotation(buffer));
      inlined.insert(buffer);
    } else {
      params.push_back(define_var(param.get()) + ": " + type_annotation(param->dtype));
    }
  }
  emit_line(out, indent, "def " + name + "(" + join(params) + "):");

  int inner = indent + 1;
  size_t body_start = out.size();
  Attrs attrs = func->attrs;
  if (symbol != nullptr && symbol->kind == AttrValue::Kind::String && symbol->s == name) {
    attrs = attrs.without("global_symbol");
  }
  if (!attrs.empty()) emit_line(out, inner, t("func_attr") + "(" + format_attr_dict(attrs) + ")");
  for (const tir::VarNode* var : variables.free) {
    std::string declaration = var_declaration(var);
    emit_line(out, inner, define_var(var) + " = " + declaration);
  }
  for (const auto& [param, buffer] : func->buffer_map) {
    if (!buffer.defined() || inlined.count(buffer.get()) != 0) continue;
    std::string args = buffer_arguments(buffer.get(), {var_name(param.get())});
    emit_line(out, inner,
              define_buffer(buffer.get()) + " = " + t("match_buffer") + "(" + args + ")");
  }
  if (const tir::BlockNode* root = implicit_root_block(func->body)) {
    emit_line(out, inner, "# with T.block(\"root\"):");
    for (const tir::Buffer& buffer : root->alloc_buffers) {
      if (!buffer.defined()) continue;
      std::string args = buffer_arguments(buffer.get(), {});
      emit_line(out, inner,
                define_buffer(buffer.get()) + " = " + t("alloc_buffer") + "(" + args + ")");
    }
    stmt(root->body, inner, /*last=*/true, out);
  } else {
    stmt(func->body, inner, /*last=*/true, out);
  }
  if (out.size() == body_start) emit_line(out, inner, "pass");
}

}  // namespace relaxc::text
