// insert_shared_barriers: barriers between the shared-memory accesses of a kernel's threads.
//
// The buffers through which the threads of a block exchange values: every "shared" one,
// and a "global" one written at an element that does not depend on the thread (a
// per-block result, such as a cross-thread reduction's final write by thread 0) and read
// in the kernel. Other global buffers are taken to be accessed by each thread at its own
// elements, as a schedule maps them.
//
// Algorithm: one bottom-up walk of the kernel body (below its thread-bound loops) that
// returns, per statement, a summary of its accesses to those buffers, by buffer and
// conservatively (any element, by any thread): `first`, those that may run before any barrier of
// the statement; `last`, those that may run after its last barrier; `syncs`, whether every path
// through it passes a barrier. Sequencing composes summaries (A;B: first = A.first plus B.first
// unless A syncs, and symmetrically for last), a branch joins them.
// - In a sequence, an item whose `first` conflicts with the accesses since the last
//   barrier (read after write, write after read, write after write on one buffer) gets a
//   barrier before it;
// - a loop whose body's `last` conflicts with its `first` through the back edge (read
//   after write or write after read: a store repeated by a loop is taken to write other
//   elements each iteration, as cooperative copies do) gets a barrier at the end of its
//   body, so that iteration i + 1 does not overwrite what other threads still read.
// Conflicts with what comes before a statement are left to the enclosing sequence, so a
// barrier goes as far out as it can (before a loop rather than into every iteration).
// Barriers only go where every thread of a block arrives: a condition, loop bound or let
// value that depends on a threadIdx var (or on a "local" value) makes its statement
// opaque: its accesses join the summary as a whole and barriers go around it, never into
// it, except that a thread-dependent `if` over a sequence whose items conflict is split
// into one `if` per run of items, with the barriers between them. Existing barriers (the
// cross-thread reduction's) count as they are, so no barrier is added next to one.
#include <algorithm>
#include <set>
#include <unordered_set>

#include "ir/arith/analyzer.h"
#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

using BufferSet = std::set<const VarNode*>;  // buffers by their data var

// The exchange buffers some statements read and write.
struct Accesses {
  BufferSet reads, writes;

  void add(const Accesses& other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
  }
  // Whether `later`, run after these by other threads, needs a barrier in between.
  bool conflicts_with(const Accesses& later, bool count_write_after_write) const {
    auto meets = [](const BufferSet& a, const BufferSet& b) {
      return std::any_of(a.begin(), a.end(), [&](const VarNode* v) { return b.count(v) != 0; });
    };
    return meets(writes, later.reads) || meets(reads, later.writes) ||
           (count_write_after_write && meets(writes, later.writes));
  }
};

// What a statement does to the exchange buffers, as its surroundings see it.
struct Summary {
  Accesses first;      // may run before any barrier of the statement
  Accesses last;       // may run after its last barrier
  bool syncs = false;  // every path through it passes a barrier

  static Summary barrier() { return {{}, {}, true}; }
  static Summary opaque(const Accesses& all) { return {all, all, false}; }
};

// `a` then `b`.
Summary then(const Summary& a, const Summary& b) {
  Summary s;
  s.first = a.first;
  if (!a.syncs) s.first.add(b.first);
  s.last = b.last;
  if (!b.syncs) s.last.add(a.last);
  s.syncs = a.syncs || b.syncs;
  return s;
}

// `before` (a condition, loop bounds) evaluated ahead of `body`.
Summary preceded_by(const Accesses& before, Summary body) {
  body.first.add(before);
  if (!body.syncs) body.last.add(before);
  return body;
}

class BarrierPlacer {
 public:
  // The kernel body below its thread-bound loops; the threadIdx vars vary per thread.
  Stmt run(const Stmt& stmt) {
    if (const auto* loop = stmt.as<ForNode>(); loop && loop->kind == ForKind::ThreadBinding) {
      if (is_thread_index(loop->thread_tag)) varying_.insert(loop->loop_var.get());
      Stmt body = run(loop->body);
      return with_body(loop, body);
    }
    find_exchange_buffers(stmt);
    Summary ignored;
    return place(stmt, ignored);
  }

 private:
  void find_exchange_buffers(const Stmt& body) {
    BufferSet read, written_per_block;
    post_order_visit(body, [&](const Ref<Object>& n) {
      if (const auto* load = n.as<BufferLoadNode>()) {
        read.insert(load->buffer->data.get());
      } else if (const auto* store = n.as<BufferStoreNode>()) {
        const Buffer& buf = store->buffer;
        if (buf->scope == "shared") {
          exchange_.insert(buf->data.get());
        } else if (buf->scope == "global" &&
                   std::none_of(store->indices.begin(), store->indices.end(),
                                [&](const PrimExpr& i) { return varies(i); })) {
          written_per_block.insert(buf->data.get());
        }
      }
    });
    for (const VarNode* data : written_per_block) {
      if (read.count(data) != 0) exchange_.insert(data);
    }
  }

  Accesses accesses_of(const Ref<Object>& node) const {
    Accesses acc;
    if (!node.defined()) return acc;
    post_order_visit(node, [&](const Ref<Object>& n) {
      if (const auto* load = n.as<BufferLoadNode>()) {
        if (exchange_.count(load->buffer->data.get()) != 0) {
          acc.reads.insert(load->buffer->data.get());
        }
      } else if (const auto* store = n.as<BufferStoreNode>()) {
        if (exchange_.count(store->buffer->data.get()) != 0) {
          acc.writes.insert(store->buffer->data.get());
        }
      }
    });
    return acc;
  }

  // Whether `node` may take different values in the threads of one block.
  bool varies(const Ref<Object>& node) const {
    bool found = false;
    post_order_visit(node, [&](const Ref<Object>& n) {
      if (const auto* v = n.as<VarNode>(); v != nullptr && varying_.count(v) != 0) found = true;
      if (const auto* load = n.as<BufferLoadNode>(); load && load->buffer->scope == "local") {
        found = true;
      }
    });
    return found;
  }

  static Stmt with_body(const ForNode* loop, const Stmt& body) {
    if (body.same_as(loop->body)) return Stmt(loop);
    auto* copy = copy_node(*loop);
    copy->body = body;
    return Stmt(copy);
  }

  // `stmt` with the barriers it needs inside; `summary` is set to its summary. Every
  // thread of a block reaches `stmt`.
  Stmt place(const Stmt& stmt, Summary& summary) {
    if (is_storage_sync(stmt)) {
      summary = Summary::barrier();
      return stmt;
    }
    if (const auto* seq = stmt.as<SeqStmtNode>()) return place_seq(seq, summary);
    if (const auto* loop = stmt.as<ForNode>()) return place_loop(loop, summary);
    if (const auto* branch = stmt.as<IfThenElseNode>()) return place_branch(branch, summary);
    if (const auto* let = stmt.as<LetStmtNode>()) {
      if (varies(let->value)) varying_.insert(let->var.get());
      Stmt body = place(let->body, summary);
      summary = preceded_by(accesses_of(let->value), summary);
      return body.same_as(let->body) ? stmt : let_stmt(let->var, let->value, body, let->span);
    }
    if (const auto* alloc = stmt.as<AllocateNode>()) {
      Stmt body = place(alloc->body, summary);
      return body.same_as(alloc->body) ? stmt : allocate(alloc->buffer, body, alloc->span);
    }
    // A store, an evaluation, or a while loop (whose trip count may differ per thread).
    summary = Summary::opaque(accesses_of(stmt));
    return stmt;
  }

  Stmt place_seq(const SeqStmtNode* seq, Summary& summary) {
    std::vector<Stmt> items;
    Summary so_far;
    bool changed = false;
    for (const Stmt& item : seq->seq) {
      Summary s;
      Stmt placed = place(item, s);
      if (so_far.last.conflicts_with(s.first, true)) {
        items.push_back(storage_sync());
        so_far = then(so_far, Summary::barrier());
        changed = true;
      }
      changed = changed || !placed.same_as(item);
      items.push_back(placed);
      so_far = then(so_far, s);
    }
    summary = so_far;
    return changed ? seq_stmt(items, seq->span) : Stmt(seq);
  }

  Stmt place_loop(const ForNode* loop, Summary& summary) {
    Accesses bounds = accesses_of(loop->min);
    bounds.add(accesses_of(loop->extent));
    if (varies(loop->min) || varies(loop->extent)) {
      summary = Summary::opaque(accesses_of(Stmt(loop)));
      return Stmt(loop);
    }
    Summary body_summary;
    Stmt body = place(loop->body, body_summary);
    // A vectorized loop's iterations are lanes of one thread: no barrier between them.
    if (loop->kind != ForKind::Vectorized &&
        body_summary.last.conflicts_with(body_summary.first, false)) {
      body = seq_stmt({body, storage_sync()});
      body_summary = then(body_summary, Summary::barrier());
    }
    // A loop that may not run passes no barrier.
    arith::Analyzer analyzer;
    bool runs = analyzer.can_prove(gt(loop->extent, int_imm(loop->extent->dtype, 0)));
    body_summary.syncs = body_summary.syncs && runs;
    summary = preceded_by(bounds, body_summary);
    return with_body(loop, body);
  }

  Stmt place_branch(const IfThenElseNode* branch, Summary& summary) {
    if (varies(branch->condition)) return split_thread_condition(branch, summary);
    Summary then_summary, else_summary;
    Stmt then_case = place(branch->then_case, then_summary);
    Stmt else_case;
    if (branch->else_case.defined()) else_case = place(branch->else_case, else_summary);
    Summary joined;
    joined.first = then_summary.first;
    joined.first.add(else_summary.first);
    joined.last = then_summary.last;
    joined.last.add(else_summary.last);
    joined.syncs = then_summary.syncs && else_summary.syncs;
    summary = preceded_by(accesses_of(branch->condition), joined);
    if (then_case.same_as(branch->then_case) && else_case.same_as(branch->else_case)) {
      return Stmt(branch);
    }
    return if_then_else(branch->condition, then_case, else_case, branch->span);
  }

  // `if c: s1; s2` with a thread-dependent c and a conflict between s1 and s2 becomes
  // `if c: s1`, barrier, `if c: s2`: the same work where every thread arrives. Only
  // where c reads no memory (it must mean the same when evaluated again) and there is no
  // else; otherwise the condition is one opaque statement.
  Stmt split_thread_condition(const IfThenElseNode* branch, Summary& summary) {
    const auto* seq = branch->then_case.as<SeqStmtNode>();
    bool reads_memory = false;
    post_order_visit(branch->condition, [&](const Ref<Object>& n) {
      reads_memory = reads_memory || n.is<BufferLoadNode>();
    });
    if (seq == nullptr || branch->else_case.defined() || reads_memory) {
      summary = Summary::opaque(accesses_of(Stmt(branch)));
      return Stmt(branch);
    }
    std::vector<Stmt> items, group;
    auto close_group = [&]() {
      if (!group.empty()) items.push_back(if_then_else(branch->condition, seq_stmt(group)));
      group.clear();
    };
    Summary so_far;
    for (const Stmt& item : seq->seq) {
      Summary s = Summary::opaque(accesses_of(item));
      if (so_far.last.conflicts_with(s.first, true)) {
        close_group();
        items.push_back(storage_sync());
        so_far = then(so_far, Summary::barrier());
      }
      group.push_back(item);
      so_far = then(so_far, s);
    }
    if (items.empty()) {
      summary = Summary::opaque(accesses_of(Stmt(branch)));
      return Stmt(branch);
    }
    close_group();
    summary = so_far;
    return seq_stmt(items, branch->span);
  }

  std::unordered_set<const VarNode*> varying_;
  BufferSet exchange_;
};

}  // namespace

PrimFunc insert_shared_barriers(const PrimFunc& kernel) {
  Stmt body = BarrierPlacer().run(kernel->body);
  if (body.same_as(kernel->body)) return kernel;
  auto* result = copy_node(*kernel);
  result->body = body;
  return PrimFunc(result);
}

}  // namespace relaxc::tir
