// cache_read and cache_write: stage a buffer through a copy in another storage scope.
//
// cache_read adds a block that copies the whole buffer into a new buffer `<name>_<scope>`
// at the root, before the first block reading the buffer (and after any block writing it
// earlier), and makes the given block (and any consumer blocks named) read the copy. cache_write
// makes the block write a new buffer instead and adds a block right after the root statement
// holding it that copies the result back. Both copies cover the whole buffer; compute_at and
// reverse_compute_at then shrink them to the tile a loop needs. The root block allocates
// the new buffer.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/tir/functor.h"
#include "passes/tir/schedule/block_scope.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

// What both caching primitives find first: the block at the root scope and the root.
struct CacheSite {
  StmtPath path;  // to the block's realize
  BlockRealize realize;
  const BlockNode* root = nullptr;
  std::vector<Stmt> root_stmts;           // the root block's body statements
  size_t root_stmt = 0;                   // the one holding the block
  std::vector<BlockRealize> root_blocks;  // the root scope's blocks, in program order
  size_t order = 0;                       // the block's index among them
};

CacheSite find_site(const PrimFunc& func, const BlockRef& ref, const std::string& scope,
                    const char* primitive) {
  if (scope != "shared" && scope != "local" && scope != "global") {
    user_error(func->span) << primitive << ": unknown storage scope '" << scope
                           << "' (expected \"shared\", \"local\" or \"global\")";
  }
  CacheSite site;
  site.path = find_block_path(func->body, ref.name);
  if (site.path.empty()) {
    user_error(func->span) << primitive << ": no block named '" << ref.name << "' in the function";
  }
  site.realize = site.path.back().cast<BlockRealizeNode>();
  if (is_root(func, site.realize.get())) {
    user_error(func->span) << primitive << " cannot cache a buffer of the root block";
  }
  site.root = root_block(func);
  const BlockNode* scope_block = innermost_block(site.path);
  if (site.root == nullptr || scope_block != site.root) {
    user_error(site.realize->block->span)
        << primitive << ": block '" << ref.name << "' is nested inside block '"
        << (scope_block != nullptr ? scope_block->name : std::string("?"))
        << "'; only blocks directly under the root block can be cached";
  }
  site.root_stmts = stmts_of(site.root->body);
  // The root's body statement on the path is the one right after the root Block.
  for (size_t i = 0; i + 1 < site.path.size(); ++i) {
    if (site.path[i].get() != site.root) continue;
    const Stmt& top = site.path[i + 1].is<SeqStmtNode>() && i + 2 < site.path.size()
                          ? site.path[i + 2]
                          : site.path[i + 1];
    for (size_t j = 0; j < site.root_stmts.size(); ++j) {
      if (site.root_stmts[j].same_as(top)) site.root_stmt = j;
    }
  }
  site.root_blocks = child_blocks(site.root->body);
  for (size_t i = 0; i < site.root_blocks.size(); ++i) {
    if (site.root_blocks[i].same_as(site.realize)) site.order = i;
  }
  return site;
}

// The root statement index that holds the root-scope block `realize`.
size_t root_stmt_of(const CacheSite& site, const BlockRealize& realize) {
  for (size_t j = 0; j < site.root_stmts.size(); ++j) {
    for (const BlockRealize& r : child_blocks(site.root_stmts[j])) {
      if (r.same_as(realize)) return j;
    }
  }
  RELAXC_UNREACHABLE() << "a root-scope block is outside the root's statements";
  return 0;
}

// `func` with `realize` replaced by `new_realize`, `nest` inserted into the root body at
// `position`, and `buffer` allocated by the root block.
PrimFunc rebuild(const PrimFunc& func, const CacheSite& site, const Stmt& new_realize,
                 const Stmt& nest, size_t position, const Buffer& buffer) {
  Stmt body = replace_in_path(site.path, new_realize);
  const auto* root_realize = body.as<BlockRealizeNode>();
  RELAXC_ICHECK(root_realize != nullptr) << "the root block vanished while caching";
  std::vector<Stmt> stmts = stmts_of(root_realize->block->body);
  stmts.insert(stmts.begin() + static_cast<long>(position), nest);
  auto* root = copy_node(*root_realize->block);
  root->body = seq_stmt(std::move(stmts));
  root->alloc_buffers.push_back(buffer);
  auto* realize = copy_node(*root_realize);
  realize->block = Block(root);
  return with_body(func, Stmt(realize));
}

Stmt with_block(const BlockRealize& realize, Block block) {
  auto* copy = copy_node(*realize);
  copy->block = std::move(block);
  return Stmt(copy);
}

bool loads_buffer(const Stmt& stmt, const BufferNode* buffer) {
  bool found = false;
  post_order_visit(stmt, [&](const Ref<Object>& node) {
    if (const auto* load = node.as<BufferLoadNode>()) found = found || load->buffer.get() == buffer;
  });
  return found;
}

}  // namespace

BlockRef Schedule::cache_read(const BlockRef& block, int read_index, const std::string& scope,
                              const std::vector<BlockRef>& consumers) {
  CacheSite site = find_site(func_, block, scope, "cache_read");
  const Block& target = site.realize->block;
  if (read_index < 0 || static_cast<size_t>(read_index) >= target->reads.size()) {
    user_error(target->span) << "cache_read: block '" << block.name << "' has "
                             << target->reads.size() << " read regions; read_index " << read_index
                             << " is out of range";
  }
  Buffer source = target->reads[static_cast<size_t>(read_index)]->buffer;
  BufferSet source_set{source.get()};
  // The blocks that read the copy: `block`, then `consumers`, as their root-scope indices.
  std::vector<size_t> readers = {site.order};
  for (const BlockRef& consumer : consumers) {
    auto it = std::find_if(site.root_blocks.begin(), site.root_blocks.end(),
                           [&](const BlockRealize& r) { return r->block->name == consumer.name; });
    if (it == site.root_blocks.end()) {
      user_error(target->span) << "cache_read: consumer block '" << consumer.name
                               << "' is not a block directly under the root block";
    }
    if (!touches_any((*it)->block->reads, source_set)) {
      user_error((*it)->block->span) << "cache_read: consumer block '" << consumer.name
                                     << "' does not read '" << source->name << "'";
    }
    readers.push_back(static_cast<size_t>(it - site.root_blocks.begin()));
  }
  size_t first_reader_stmt = site.root_stmt, last_reader = 0;
  for (size_t r : readers) {
    const BlockNode& reader = *site.root_blocks[r]->block;
    if (touches_any(reader.writes, source_set)) {
      user_error(reader.span) << "cache_read: block '" << reader.name << "' also writes '"
                              << source->name << "'; it cannot read it from a copy";
    }
    first_reader_stmt = std::min(first_reader_stmt, root_stmt_of(site, site.root_blocks[r]));
    last_reader = std::max(last_reader, r);
  }
  // Before the first reader, but after every block that writes the buffer before the
  // last one that reads the copy.
  size_t position = first_reader_stmt;
  for (size_t i = 0; i < site.root_blocks.size(); ++i) {
    const BlockNode& other = *site.root_blocks[i]->block;
    if (touches_any(other.reads, source_set)) {
      position = std::min(position, root_stmt_of(site, site.root_blocks[i]));
    }
  }
  for (size_t i = 0; i < last_reader; ++i) {
    const BlockNode& other = *site.root_blocks[i]->block;
    if (!touches_any(other.writes, source_set)) continue;
    size_t after_writer = root_stmt_of(site, site.root_blocks[i]) + 1;
    if (after_writer > first_reader_stmt) {
      // The writer shares a loop nest with a reader, or sits between two readers.
      bool same_nest = std::any_of(readers.begin(), readers.end(), [&](size_t r) {
        return root_stmt_of(site, site.root_blocks[r]) == after_writer - 1;
      });
      const std::string& reader = site.root_blocks[last_reader]->block->name;
      if (same_nest) {
        user_error(target->span) << "cache_read: block '" << other.name << "' writes '"
                                 << source->name << "' before block '" << reader
                                 << "' in the same loop nest; there is no place at the root for "
                                    "the copy between them";
      }
      user_error(target->span) << "cache_read: block '" << other.name << "' writes '"
                               << source->name << "' between blocks that read it; one copy "
                               << "cannot serve the readers on both sides";
    }
    position = std::max(position, after_writer);
  }
  std::string name = unique_name(func_, source->name + "_" + scope);
  Buffer cache = buffer(name, source->dtype, source->shape, scope, source->span);
  BufferReplacer redirect(source, cache);
  Stmt nest = copy_nest(name, source, cache, source->shape);
  func_ = rebuild(func_, site, with_block(site.realize, redirect.mutate(target)), nest, position,
                  cache);
  for (const BlockRef& consumer : consumers) {
    StmtPath path = find_block_path(func_->body, consumer.name);
    const auto& realize = path.back().cast<BlockRealizeNode>();
    func_ = with_body(func_,
                      replace_in_path(path, with_block(realize, redirect.mutate(realize->block))));
  }
  return BlockRef{name};
}

BlockRef Schedule::cache_write(const BlockRef& block, int write_index, const std::string& scope) {
  CacheSite site = find_site(func_, block, scope, "cache_write");
  const Block& target = site.realize->block;
  if (write_index < 0 || static_cast<size_t>(write_index) >= target->writes.size()) {
    user_error(target->span) << "cache_write: block '" << block.name << "' has "
                             << target->writes.size() << " write regions; write_index "
                             << write_index << " is out of range";
  }
  Buffer dest = target->writes[static_cast<size_t>(write_index)]->buffer;
  BufferSet dest_set{dest.get()};
  bool reads_dest = touches_any(target->reads, dest_set) || loads_buffer(target->body, dest.get());
  if (reads_dest && !target->init.defined()) {
    user_error(target->span) << "cache_write: block '" << block.name << "' reads '" << dest->name
                             << "' without a T.init; the cache would not hold the values it "
                                "reads";
  }
  for (size_t i = 0; i < site.root_blocks.size(); ++i) {
    const BlockNode& other = *site.root_blocks[i]->block;
    if (i == site.order) continue;
    if (touches_any(other.writes, dest_set)) {
      user_error(target->span) << "cache_write: '" << dest->name << "' is also written by block '"
                               << other.name
                               << "'; copying the cache back would overwrite its values";
    }
    bool same_nest = root_stmt_of(site, site.root_blocks[i]) == site.root_stmt;
    if (i > site.order && same_nest && touches_any(other.reads, dest_set)) {
      user_error(target->span) << "cache_write: block '" << other.name << "' reads '" << dest->name
                               << "' after block '" << block.name
                               << "' in the same loop nest, before the copy back could run";
    }
  }
  std::string name = unique_name(func_, dest->name + "_" + scope);
  Buffer cache = buffer(name, dest->dtype, dest->shape, scope, dest->span);
  Block redirected = BufferReplacer(dest, cache).mutate(target);
  Stmt nest = copy_nest(name, cache, dest, dest->shape);
  func_ =
      rebuild(func_, site, with_block(site.realize, redirected), nest, site.root_stmt + 1, cache);
  return BlockRef{name};
}

}  // namespace relaxc::tir
