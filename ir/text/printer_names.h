// The printer's name table: scoped, unique Python names for the variables and buffers of
// the function being printed.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/support/object.h"

namespace relaxc::text {

// Relax vars, shape vars, TensorIR vars and buffers of one function share this table.
// A name is the node's hint made a Python identifier, suffixed `_1`, `_2`, ... when a
// live name already holds it (as TVM's printer does). Names live in scopes: closing a
// scope (a loop, a block, an If branch) releases its names, so sibling scopes may reuse
// them, and a name never shadows one that is visible where it is defined.
class NameTable {
 public:
  NameTable();

  // Names `node` in the innermost scope (or the outermost, for declarations hoisted to
  // the top of a function) and returns the name. `fallback` replaces an empty hint. A
  // node that already has a name keeps it. The hint "_" (a discarded Relax binding) is
  // printed as is and never made unique, as the text format writes every such binding.
  std::string define(const Object* node, std::string_view hint, std::string_view fallback,
                     bool outermost = false);
  // Records `text` as the way `node` is written (a buffer's data pointer `A.data`)
  // without taking a name.
  void alias(const Object* node, std::string text);
  // The name of `node`, or nullptr if it has none yet.
  const std::string* find(const Object* node) const;

 private:
  struct Entry {
    const Object* node;
    std::string name;
    bool holds_name;  // false for aliases and "_"
  };

  bool taken(const std::string& name) const;
  // The smallest free name among base, base_1, base_2, ...
  std::string unique_name(const std::string& base);
  void release(const std::string& name);

  std::unordered_map<const Object*, std::string> names_;
  std::unordered_set<std::string> taken_;
  std::unordered_set<std::string> reserved_;
  // Per base name, a suffix below which every `base_k` is taken: where the search for a
  // free one starts, so that many variables of one hint are named in linear time.
  std::unordered_map<std::string, int64_t> first_free_suffix_;
  std::vector<std::vector<Entry>> scopes_;

  // Scopes open and close only through NameScope, so that every pop has its push and
  // the outermost scope is never popped.
  friend class NameScope;
  void push_scope();
  void pop_scope();
};

// Opens a name scope for the lifetime of the guard. Guards close innermost scopes, so
// several open at once may be destroyed in any order.
class NameScope {
 public:
  explicit NameScope(NameTable& names) : names_(names) { names_.push_scope(); }
  ~NameScope() { names_.pop_scope(); }
  NameScope(const NameScope&) = delete;
  NameScope& operator=(const NameScope&) = delete;

 private:
  NameTable& names_;
};

}  // namespace relaxc::text
