// Parser pieces shared by the TensorIR and Relax builders: scopes, argument binding,
// literals and attributes.
#include <algorithm>
#include <unordered_set>

#include "ir/text/parser_internal.h"

namespace relaxc::text {

Symbol Symbol::of_prim_var(tir::Var v) {
  Symbol s;
  s.kind = Kind::PrimVar;
  s.prim_var = std::move(v);
  return s;
}

Symbol Symbol::of_buffer(tir::Buffer b) {
  Symbol s;
  s.kind = Kind::Buffer;
  s.buffer = std::move(b);
  return s;
}

Symbol Symbol::of_relax(relax::Expr e) {
  Symbol s;
  s.kind = Kind::RelaxValue;
  s.relax_value = std::move(e);
  return s;
}

Symbol Symbol::of_module() {
  Symbol s;
  s.kind = Kind::Module;
  return s;
}

const Symbol* Scope::lookup(const std::string& name) const {
  for (auto frame = frames_.rbegin(); frame != frames_.rend(); ++frame) {
    auto it = frame->find(name);
    if (it != frame->end()) return &it->second;
  }
  return nullptr;
}

std::vector<const PyExpr*> bind_arguments(const PyCall& call, const std::string& callee,
                                          const std::vector<std::string>& names, size_t required) {
  std::vector<const PyExpr*> bound(names.size(), nullptr);
  if (call.args.size() > names.size()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    auto err = user_error(call.args[names.size()]->span);
    err << callee << " takes " << (required == names.size() ? "" : "at most ") << names.size()
        << " argument" << (names.size() == 1 ? "" : "s");
    if (!names.empty()) err << " (" << list << ")";
    err << ", got " << call.args.size();
  }
  for (size_t i = 0; i < call.args.size(); ++i) bound[i] = call.args[i].get();
  for (const PyKeyword& kw : call.keywords) {
    auto it = std::find(names.begin(), names.end(), kw.name);
    if (it == names.end()) {
      user_error(kw.span) << callee << " got an unknown keyword argument '" << kw.name << "'";
    }
    size_t index = static_cast<size_t>(it - names.begin());
    if (bound[index] != nullptr) {
      user_error(kw.span) << callee << " got two values for argument '" << kw.name << "'";
    }
    bound[index] = kw.value.get();
  }
  for (size_t i = 0; i < required && i < names.size(); ++i) {
    if (bound[i] == nullptr) {
      user_error(call.span) << callee << " is missing argument '" << names[i] << "'";
    }
  }
  return bound;
}

const PyExpr* keyword_argument(const PyCall& call, const std::string& name) {
  for (const PyKeyword& kw : call.keywords) {
    if (kw.name == name) return kw.value.get();
  }
  return nullptr;
}

const PyCall* as_call_of(const PyExpr& e, const std::string& callee) {
  const auto* call = e.as<PyCall>();
  if (call == nullptr || dotted_name(*call->func) != callee) return nullptr;
  return call;
}

std::string called_name(const PyExpr& e) {
  const auto* call = e.as<PyCall>();
  return call == nullptr ? "" : dotted_name(*call->func);
}

std::vector<std::pair<const PyName*, const PyExpr*>> parallel_assignment(const PyAssign& a) {
  const auto* names = a.target->as<PyTuple>();
  const auto* values = a.value != nullptr ? a.value->as<PyTuple>() : nullptr;
  if (names == nullptr || values == nullptr || names->items.size() != values->items.size()) {
    return {};
  }
  std::vector<std::pair<const PyName*, const PyExpr*>> pairs;
  for (size_t i = 0; i < names->items.size(); ++i) {
    const auto* name = names->items[i]->as<PyName>();
    if (name == nullptr) return {};
    pairs.emplace_back(name, values->items[i].get());
  }
  return pairs;
}

std::vector<const PyExpr*> buffer_indices(const PySubscript& s) {
  if (s.indices.size() == 1) {
    const auto* empty = s.indices[0]->as<PyTuple>();
    if (empty != nullptr && empty->items.empty()) return {};
  }
  std::vector<const PyExpr*> indices;
  for (const PyExprPtr& index : s.indices) indices.push_back(index.get());
  return indices;
}

DataType parse_dtype(const PyExpr& e, bool allow_void) {
  const auto* s = e.as<PyString>();
  if (s == nullptr) user_error(e.span) << "expected a data type string such as \"float32\"";
  std::optional<DataType> dtype = DataType::parse(s->value);
  if (!dtype || (dtype->is_void() && !allow_void)) {
    user_error(e.span) << "unknown data type '" << s->value << "'";
  }
  return *dtype;
}

std::string expect_string(const PyExpr& e, const std::string& what) {
  const auto* s = e.as<PyString>();
  if (s == nullptr) user_error(e.span) << what << " must be a string";
  return s->value;
}

std::optional<double> number_literal(const PyExpr& e, bool* is_int) {
  const PyExpr* cur = &e;
  bool negate = false;
  while (const auto* u = cur->as<PyUnary>()) {
    if (u->op == "-") {
      negate = !negate;
    } else if (u->op != "+") {
      return std::nullopt;
    }
    cur = u->operand.get();
  }
  double value = 0;
  if (const auto* i = cur->as<PyInt>()) {
    *is_int = true;
    value = static_cast<double>(i->value);
  } else if (const auto* f = cur->as<PyFloat>()) {
    *is_int = false;
    value = f->value;
  } else {
    return std::nullopt;
  }
  return negate ? -value : value;
}

int64_t expect_int(const PyExpr& e, const std::string& what) {
  const PyExpr* cur = &e;
  bool negate = false;
  while (const auto* u = cur->as<PyUnary>()) {
    if (u->op != "-" && u->op != "+") break;
    if (u->op == "-") negate = !negate;
    cur = u->operand.get();
  }
  const auto* i = cur->as<PyInt>();
  if (i == nullptr) user_error(e.span) << what << " must be an integer";
  return negate ? -i->value : i->value;
}

bool expect_bool(const PyExpr& e, const std::string& what) {
  const auto* b = e.as<PyBool>();
  if (b == nullptr) user_error(e.span) << what << " must be True or False";
  return b->value;
}

AttrValue parse_attr_value(const PyExpr& e) {
  if (e.as<PyNone>()) return AttrValue::none();
  if (const auto* b = e.as<PyBool>()) return AttrValue::boolean(b->value);
  if (const auto* s = e.as<PyString>()) return AttrValue::string(s->value);
  bool is_int = false;
  if (std::optional<double> number = number_literal(e, &is_int)) {
    return is_int ? AttrValue::integer(expect_int(e, "an attribute"))
                  : AttrValue::floating(*number);
  }
  auto items_of = [](const std::vector<PyExprPtr>& items) {
    std::vector<AttrValue> values;
    for (const PyExprPtr& item : items) values.push_back(parse_attr_value(*item));
    return AttrValue::list_of(std::move(values));
  };
  if (const auto* list = e.as<PyList>()) return items_of(list->items);
  if (const auto* tuple = e.as<PyTuple>()) return items_of(tuple->items);
  if (const auto* dict = e.as<PyDict>()) {
    std::vector<std::pair<std::string, AttrValue>> entries;
    std::unordered_set<std::string> keys;
    for (size_t i = 0; i < dict->keys.size() && i < dict->values.size(); ++i) {
      std::string key = expect_string(*dict->keys[i], "a dictionary key of an attribute");
      if (!keys.insert(key).second)
        user_error(dict->keys[i]->span) << "key '" << key << "' repeated";
      entries.emplace_back(std::move(key), parse_attr_value(*dict->values[i]));
    }
    return AttrValue::dict_of(std::move(entries));
  }
  // Typed literals: T.int32(4), T.float32(0.5), T.bool(True).
  std::string callee = called_name(e);
  if (callee.rfind("T.", 0) == 0) {
    std::optional<DataType> dtype = DataType::parse(callee.substr(2));
    const auto* call = e.as<PyCall>();
    if (dtype && !dtype->is_void() && !dtype->is_handle() && call->args.size() == 1 &&
        call->keywords.empty()) {
      const PyExpr& arg = *call->args[0];
      if (dtype->is_bool()) return AttrValue::boolean(expect_bool(arg, "the value of " + callee));
      if (dtype->is_float()) {
        std::optional<double> v = number_literal(arg, &is_int);
        if (!v) user_error(arg.span) << "the value of " << callee << " must be a number";
        return AttrValue::floating(*v);
      }
      return AttrValue::integer(expect_int(arg, "the value of " + callee));
    }
  }
  user_error(e.span) << "an attribute value must be a literal (None, a bool, a number, a "
                        "string), a list of them or a dict from strings to them";
}

Attrs parse_attr_dict(const PyExpr& e) {
  const auto* dict = e.as<PyDict>();
  if (dict == nullptr) user_error(e.span) << "expected a dictionary {\"name\": value, ...}";
  std::vector<Attrs::Entry> entries;
  std::unordered_set<std::string> keys;
  for (size_t i = 0; i < dict->keys.size() && i < dict->values.size(); ++i) {
    std::string key = expect_string(*dict->keys[i], "an attribute name");
    if (!keys.insert(key).second) {
      user_error(dict->keys[i]->span) << "attribute '" << key << "' repeated";
    }
    entries.emplace_back(std::move(key), parse_attr_value(*dict->values[i]));
  }
  std::sort(entries.begin(), entries.end(),
            [](const Attrs::Entry& a, const Attrs::Entry& b) { return a.first < b.first; });
  return Attrs(std::move(entries));
}

std::string decorator_name(const PyFunctionDef& def) {
  if (def.decorators.empty()) return "";
  const PyExpr& d = *def.decorators.front();
  const auto* call = d.as<PyCall>();
  return dotted_name(call != nullptr ? *call->func : d);
}

DecoratorFlags parse_decorator(const PyFunctionDef& def, const std::string& name) {
  DecoratorFlags flags;
  if (def.decorators.size() > 1) {
    user_error(def.decorators[1]->span) << "a function takes exactly one decorator";
  }
  const auto* call = def.decorators.front()->as<PyCall>();
  if (call == nullptr) return flags;
  // s_tir=True (TVM after 0.23 marks a function whose blocks are T.sblock) changes nothing
  // here: both block spellings are read the same.
  std::vector<std::string> names = {"private", "check_well_formed", "s_tir"};
  if (name == "R.function") names = {"private", "check_well_formed", "pure"};
  if (!call->args.empty()) {
    user_error(call->args.front()->span) << "@" << name << " takes only keyword arguments";
  }
  auto args = bind_arguments(*call, "@" + name, names, 0);
  if (args[0] != nullptr) flags.is_private = expect_bool(*args[0], "private");
  if (args[1] != nullptr) expect_bool(*args[1], "check_well_formed");
  if (args[2] != nullptr) {
    bool value = expect_bool(*args[2], names[2]);
    if (names[2] == "pure") flags.pure = value;
  }
  return flags;
}

}  // namespace relaxc::text
