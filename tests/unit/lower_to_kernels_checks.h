// Checks of lowered kernels shared by the kernel lowering tests: parsing and lowering
// a function, running the launches on the reference interpreter, comparing with an
// expected kernel, round trips through the text format, barriers, allocations.
#pragma once
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/module.h"
#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"
#include "passes/tir/lower_to_kernels.h"
#include "tests/support/host_array.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc::lowering_checks {

using testing::HostArray;

inline tir::PrimFunc parse_func(const std::string& source, const std::string& name) {
  IRModule m = text::parse_module(source, name + ".py");
  tir::PrimFunc f = m->prim_func(name);
  EXPECT_TRUE(f.defined()) << "no PrimFunc " << name;
  return f;
}

inline tir::LoweredFunc lower(const std::string& source, const std::string& name,
                              const std::string& target = "vulkan") {
  return tir::lower_to_kernels(parse_func(source, name), name, parse_target(target));
}

// The value of a host expression for the given values of its vars (by name).
inline int64_t evaluate(const tir::PrimExpr& e, const std::map<std::string, int64_t>& values) {
  tir::PrimExpr bound = tir::substitute(e, [&](const tir::Var& v) -> tir::PrimExpr {
    auto it = values.find(v->name);
    return it != values.end() ? tir::int_imm(v->dtype, it->second) : tir::PrimExpr();
  });
  tir::PrimExpr value = arith::simplify(bound);
  const int64_t* c = tir::as_const_int(value);
  EXPECT_NE(c, nullptr) << "not a constant: " << text::print_node(value);
  return c != nullptr ? *c : -1;
}

inline std::string param_names(const tir::PrimFunc& f) {
  std::string out;
  for (const tir::Var& p : f->params) {
    tir::Buffer b = f->buffer_of(p);
    out += (out.empty() ? "" : ", ") + (b.defined() ? b->name : p->name + ":" + p->dtype.str());
  }
  return out;
}

inline std::string error_of(const std::string& source, const std::string& name,
                            const std::string& target = "vulkan") {
  try {
    lower(source, name, target);
  } catch (const UserError& e) {
    return e.diagnostics().front().message;
  }
  return "";
}

// Runs every launch of `lowered` on the interpreter, on `params` (the function's buffer
// params) and fresh workspaces, with the host vars' values.
inline void run_lowered(const tir::LoweredFunc& lowered, std::vector<HostArray*> params,
                        const std::map<std::string, int64_t>& host_values) {
  std::vector<HostArray> flat;
  flat.reserve(params.size() + lowered.workspaces.size());
  for (HostArray* p : params) {
    HostArray view = *p;
    view.shape = {p->size()};
    flat.push_back(view);
  }
  for (const tir::Buffer& w : lowered.workspaces) {
    int64_t count = 1;
    for (const tir::PrimExpr& d : w->shape) count *= evaluate(d, host_values);
    flat.push_back(testing::zeros(w->dtype, {count}));
  }
  for (const tir::KernelLaunch& launch : lowered.launches) {
    if (launch.condition.defined() && evaluate(launch.condition, host_values) == 0) continue;
    std::vector<HostArray*> args;
    for (int index : launch.buffer_args) args.push_back(&flat[static_cast<size_t>(index)]);
    std::map<std::string, int64_t> scalars;
    const tir::PrimFunc& f = launch.kernel.func;
    size_t scalar = 0;
    for (const tir::Var& p : f->params) {
      if (f->buffer_of(p).defined()) continue;
      scalars[p->name] = evaluate(launch.scalar_args.at(scalar++), host_values);
    }
    testing::interpret(f, args, scalars);
  }
  for (size_t i = 0; i < params.size(); ++i) params[i]->data = flat[i].data;
}

// The kernel named `name` in `source`, in arith's canonical form, for comparing with a
// lowered kernel.
inline tir::PrimFunc expected_kernel(const std::string& source, const std::string& name) {
  return tir::simplify_kernel(parse_func(source, name));
}

inline void expect_same(const tir::PrimFunc& expected, const tir::PrimFunc& actual) {
  std::optional<std::string> diff = structural_mismatch(expected, actual);
  EXPECT_FALSE(diff.has_value()) << *diff << "\nexpected:\n"
                                 << text::print_node(expected) << "\nactual:\n"
                                 << text::print_node(actual);
}

// The kernel printed in a module parses back to a structurally equal function.
inline void expect_round_trip(const tir::DeviceKernel& kernel) {
  IRModule m = make_module({{relax::make_global_var(kernel.name), kernel.func}});
  std::string text = text::print_module(m);
  IRModule parsed = text::parse_module(text, kernel.name + ".py");
  tir::PrimFunc back = parsed->prim_func(kernel.name);
  ASSERT_TRUE(back.defined()) << text;
  std::optional<std::string> diff = structural_mismatch(back, kernel.func);
  EXPECT_FALSE(diff.has_value()) << *diff << "\n" << text;
}

inline int count_barriers(const tir::PrimFunc& f) {
  int count = 0;
  tir::post_order_visit(f->body, [&](const Ref<Object>& n) {
    if (const auto* s = n.as<tir::EvaluateNode>();
        s != nullptr && tir::is_storage_sync(tir::Stmt(s))) {
      ++count;
    }
  });
  return count;
}

// The "shared"/"local" allocations of a kernel: name -> (scope, element count).
inline std::map<std::string, std::pair<std::string, int64_t>> allocations(const tir::PrimFunc& f) {
  std::map<std::string, std::pair<std::string, int64_t>> out;
  tir::post_order_visit(f->body, [&](const Ref<Object>& n) {
    if (const auto* a = n.as<tir::AllocateNode>()) {
      const int64_t* size = tir::as_const_int(a->buffer->shape.at(0));
      out[a->buffer->name] = {a->buffer->scope, size != nullptr ? *size : -1};
    }
  });
  return out;
}

// The threadIdx vars of a kernel's outermost thread-bound loops.
inline std::set<const tir::VarNode*> thread_vars(const tir::PrimFunc& f) {
  std::set<const tir::VarNode*> vars;
  const tir::ForNode* loop = f->body.as<tir::ForNode>();
  for (; loop != nullptr && loop->kind == tir::ForKind::ThreadBinding;
       loop = loop->body.as<tir::ForNode>()) {
    if (loop->thread_tag.rfind("threadIdx.", 0) == 0) vars.insert(loop->loop_var.get());
  }
  return vars;
}

inline bool uses_any(const tir::PrimExpr& e, const std::set<const tir::VarNode*>& vars) {
  bool found = false;
  tir::post_order_visit(e, [&](const Ref<Object>& n) {
    if (const auto* v = n.as<tir::VarNode>(); v != nullptr && vars.count(v) != 0) found = true;
  });
  return found;
}

// Barriers under a condition that depends on a threadIdx var, and barriers right after a
// barrier: both wrong (a deadlock, a wasted wait).
struct MisplacedBarriers {
  int under_thread_condition = 0;
  int adjacent = 0;
};

inline void find_misplaced(const tir::Stmt& stmt, const std::set<const tir::VarNode*>& threads,
                           bool under_condition, MisplacedBarriers& out) {
  if (!stmt.defined()) return;
  if (tir::is_storage_sync(stmt)) {
    out.under_thread_condition += under_condition ? 1 : 0;
  } else if (const auto* seq = stmt.as<tir::SeqStmtNode>()) {
    for (size_t i = 0; i < seq->seq.size(); ++i) {
      if (i > 0 && tir::is_storage_sync(seq->seq[i]) && tir::is_storage_sync(seq->seq[i - 1])) {
        ++out.adjacent;
      }
      find_misplaced(seq->seq[i], threads, under_condition, out);
    }
  } else if (const auto* branch = stmt.as<tir::IfThenElseNode>()) {
    bool varying = under_condition || uses_any(branch->condition, threads);
    find_misplaced(branch->then_case, threads, varying, out);
    find_misplaced(branch->else_case, threads, varying, out);
  } else if (const auto* loop = stmt.as<tir::ForNode>()) {
    find_misplaced(loop->body, threads, under_condition, out);
  } else if (const auto* alloc = stmt.as<tir::AllocateNode>()) {
    find_misplaced(alloc->body, threads, under_condition, out);
  } else if (const auto* let = stmt.as<tir::LetStmtNode>()) {
    find_misplaced(let->body, threads, under_condition, out);
  }
}

inline void expect_barriers_well_placed(const tir::PrimFunc& f) {
  MisplacedBarriers misplaced;
  find_misplaced(f->body, thread_vars(f), false, misplaced);
  EXPECT_EQ(misplaced.under_thread_condition, 0) << text::print_node(f);
  EXPECT_EQ(misplaced.adjacent, 0) << text::print_node(f);
}

inline const tir::ForNode* find_loop(const tir::PrimFunc& f, const std::string& var_name) {
  const tir::ForNode* found = nullptr;
  tir::post_order_visit(f->body, [&](const Ref<Object>& n) {
    if (const auto* loop = n.as<tir::ForNode>(); loop && loop->loop_var->name == var_name) {
      found = loop;
    }
  });
  return found;
}

// The items of a sequence, one word each: "for <var>", "if", "barrier", "store".
inline std::string outline(const tir::Stmt& stmt) {
  std::vector<tir::Stmt> items = {stmt};
  if (const auto* seq = stmt.as<tir::SeqStmtNode>()) items = seq->seq;
  std::string out;
  for (const tir::Stmt& item : items) {
    std::string word = "other";
    if (tir::is_storage_sync(item)) {
      word = "barrier";
    } else if (const auto* loop = item.as<tir::ForNode>()) {
      word = "for " + loop->loop_var->name;
    } else if (item.is<tir::IfThenElseNode>()) {
      word = "if";
    } else if (item.is<tir::BufferStoreNode>()) {
      word = "store";
    }
    out += (out.empty() ? "" : ", ") + word;
  }
  return out;
}

}  // namespace relaxc::lowering_checks
