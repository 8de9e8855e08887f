// The printer's scoped name table.
#include "ir/text/printer_names.h"

#include <algorithm>
#include <cctype>

#include "ir/support/diagnostics.h"

namespace relaxc::text {

namespace {

// Words a name may not be: Python's keywords, and the names the printed text itself
// uses (the dialect prefixes, the module alias, the module class, the loop builtin).
constexpr const char* kReservedWords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield",    "I",
    "T",     "R",        "cls",   "Module", "range"};

// The hint as a Python identifier: other characters become '_', and a leading digit
// gets a '_' in front.
std::string sanitize(std::string_view hint) {
  std::string name;
  name.reserve(hint.size() + 1);
  for (char c : hint) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    name.push_back(ok ? c : '_');
  }
  if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) != 0) {
    name.insert(name.begin(), '_');
  }
  return name;
}

}  // namespace

NameTable::NameTable() {
  for (const char* word : kReservedWords) reserved_.insert(word);
  scopes_.emplace_back();
}

void NameTable::push_scope() { scopes_.emplace_back(); }

void NameTable::pop_scope() {
  for (const Entry& entry : scopes_.back()) {
    names_.erase(entry.node);
    if (entry.holds_name) release(entry.name);
  }
  scopes_.pop_back();
}

bool NameTable::taken(const std::string& name) const {
  return taken_.count(name) != 0 || reserved_.count(name) != 0;
}

std::string NameTable::unique_name(const std::string& base) {
  if (!taken(base)) return base;
  int64_t& suffix = first_free_suffix_[base];
  suffix = std::max<int64_t>(suffix, 1);
  while (taken(base + "_" + std::to_string(suffix))) ++suffix;
  return base + "_" + std::to_string(suffix++);
}

void NameTable::release(const std::string& name) {
  taken_.erase(name);
  // A released `base_k` lowers where the search for base's next suffix starts.
  size_t underscore = name.rfind('_');
  if (underscore == std::string::npos || underscore + 1 >= name.size() ||
      name[underscore + 1] == '0' || name.size() - underscore > 18) {
    return;
  }
  for (size_t i = underscore + 1; i < name.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(name[i])) == 0) return;
  }
  auto it = first_free_suffix_.find(name.substr(0, underscore));
  int64_t suffix = std::stoll(name.substr(underscore + 1));
  if (it != first_free_suffix_.end() && suffix < it->second) it->second = suffix;
}

std::string NameTable::define(const Object* node, std::string_view hint, std::string_view fallback,
                              bool outermost) {
  auto it = names_.find(node);
  if (it != names_.end()) return it->second;
  std::vector<Entry>& scope = outermost ? scopes_.front() : scopes_.back();
  if (hint == "_") {
    scope.push_back({node, "_", false});
    return names_.emplace(node, "_").first->second;
  }
  std::string base = sanitize(hint);
  if (base.empty()) base = std::string(fallback);
  std::string name = unique_name(base);
  taken_.insert(name);
  scope.push_back({node, name, true});
  return names_.emplace(node, std::move(name)).first->second;
}

void NameTable::alias(const Object* node, std::string text) {
  if (names_.count(node) != 0) return;
  scopes_.back().push_back({node, text, false});
  names_.emplace(node, std::move(text));
}

const std::string* NameTable::find(const Object* node) const {
  auto it = names_.find(node);
  return it == names_.end() ? nullptr : &it->second;
}

}  // namespace relaxc::text
