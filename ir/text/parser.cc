// The parser of the text format: source text to an IRModule.
//
// Two stages: the Python subset is tokenized and parsed to a small AST
// (python_parser.cc), then the AST is built into IR. The module is built in two
// passes so that functions can refer to each other in any order: first every
// function gets its GlobalVar, and every Relax function its signature's
// FuncStructInfo (declared to the BlockBuilder); then the bodies are built, TensorIR
// functions first (they depend on nothing else in the module).
#include "ir/text/parser.h"

#include <set>

#include "ir/text/parser_internal.h"

namespace relaxc::text {

namespace {

enum class FunctionKind { TensorIR, Relax };

struct FunctionEntry {
  const PyFunctionDef* def;
  FunctionKind kind;
};

FunctionKind function_kind(const PyFunctionDef& def) {
  std::string decorator = decorator_name(def);
  if (decorator == "T.prim_func") return FunctionKind::TensorIR;
  if (decorator == "R.function") return FunctionKind::Relax;
  Span span = def.decorators.empty() ? def.span : def.decorators.front()->span;
  user_error(span) << "a function of the module needs the decorator @T.prim_func or @R.function";
}

// The module's class: its name, attributes and function definitions. A file may also
// hold decorated functions without a class (a module of those functions).
struct ModuleSource {
  std::string class_name;
  Span span;
  const PyExpr* attrs = nullptr;  // I.module_attrs({...})
  std::vector<FunctionEntry> functions;
  std::set<std::string> names;
};

void add_function(const PyFunctionDef& def, ModuleSource& source) {
  FunctionKind kind = function_kind(def);
  if (!source.names.insert(def.name).second) {
    user_error(def.name_span) << "function '" << def.name << "' is defined twice";
  }
  source.functions.push_back({&def, kind});
}

bool is_docstring(const PyStmt& s) {
  const auto* e = s.as<PyExprStmt>();
  return e != nullptr && e->value->as<PyString>();
}

void read_class(const PyClassDef& cls, ModuleSource& source) {
  if (cls.decorators.empty()) user_error(cls.span) << "expected @I.ir_module before the class";
  const PyExpr& decorator = *cls.decorators.front();
  const auto* call = decorator.as<PyCall>();
  // TVM's tests also spell the decorator by its full path, @tvm.script.ir_module.
  const std::string name = dotted_name(call != nullptr ? *call->func : decorator);
  if ((name != "I.ir_module" && name != "tvm.script.ir_module" &&
       name != "tvm.script.ir.ir_module") ||
      cls.decorators.size() > 1) {
    user_error(decorator.span) << "a module class is decorated with @I.ir_module only";
  }
  if (call != nullptr) {
    auto args = bind_arguments(*call, "@I.ir_module", {"check_well_formed", "s_tir"}, 0);
    if (args[0] != nullptr) expect_bool(*args[0], "check_well_formed");
    if (args[1] != nullptr) expect_bool(*args[1], "s_tir");  // as for @T.prim_func
  }
  if (!cls.bases.empty())
    user_error(cls.bases.front()->span) << "a module class has no base classes";
  source.class_name = cls.name;
  source.span = cls.name_span;
  for (const PyStmtPtr& s : cls.body) {
    if (const auto* def = s->as<PyFunctionDef>()) {
      add_function(*def, source);
    } else if (const auto* e = s->as<PyExprStmt>();
               e != nullptr && called_name(*e->value) == "I.module_attrs") {
      if (source.attrs != nullptr) user_error(s->span) << "I.module_attrs given twice";
      source.attrs = bind_arguments(*e->value->as<PyCall>(), "I.module_attrs", {"attrs"}, 1)[0];
    } else if (!is_docstring(*s) && !s->as<PyPass>() && !s->as<PyImport>()) {
      user_error(s->span) << "a module class holds only function definitions";
    }
  }
}

ModuleSource read_module(const PyBody& body, const SourceFile* file) {
  ModuleSource source;
  const PyClassDef* cls = nullptr;
  for (const PyStmtPtr& s : body) {
    if (s->as<PyImport>() || s->as<PyPass>() || is_docstring(*s)) continue;
    if (const auto* c = s->as<PyClassDef>()) {
      if (cls != nullptr || !source.functions.empty()) {
        user_error(c->span) << "a file holds one module";
      }
      cls = c;
      read_class(*c, source);
    } else if (const auto* def = s->as<PyFunctionDef>()) {
      if (cls != nullptr) user_error(def->span) << "a file holds one module";
      add_function(*def, source);
    } else {
      user_error(s->span) << "expected a module: '@I.ir_module' and 'class Module:'";
    }
  }
  if (cls == nullptr && source.functions.empty()) {
    user_error(Span{file, 1, 1}) << "the file holds no module";
  }
  if (cls == nullptr) source.span = source.functions.front().def->name_span;
  return source;
}

// The text as Python reads a source file: without a UTF-8 byte-order mark at its start
// (editors on Windows write one) and with every line ending a '\n' or "\r\n" (a lone
// '\r', the old Mac line end, becomes '\n'; the lexer and the diagnostics know "\r\n").
std::string universal_newlines(std::string_view text) {
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    text.remove_prefix(kByteOrderMark.size());
  }
  std::string out(text);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\r' && (i + 1 == out.size() || out[i + 1] != '\n')) out[i] = '\n';
  }
  return out;
}

}  // namespace

IRModule parse_module(std::string_view text, const std::string& filename) {
  return parse_module(text, filename, nullptr);
}

IRModule parse_module(std::string_view text, const std::string& filename,
                      MetadataLoader load_metadata) {
  MetadataTable metadata{std::move(load_metadata), std::nullopt};
  const SourceFile* file = SourceFile::add(filename, universal_newlines(text));
  PyBody body = parse_python_file(file);
  ModuleSource source = read_module(body, file);

  ModuleContext context;
  context.class_name = source.class_name;
  context.metadata = &metadata;
  for (const FunctionEntry& f : source.functions) {
    context.globals[f.def->name] = relax::make_global_var(f.def->name, f.def->name_span);
  }

  std::map<std::string, Ref<Object>> built;
  std::vector<std::pair<relax::GlobalVar, Ref<Object>>> prim_funcs;
  for (const FunctionEntry& f : source.functions) {
    if (f.kind != FunctionKind::TensorIR) continue;
    tir::PrimFunc func = parse_prim_func(*f.def);
    built[f.def->name] = func;
    prim_funcs.emplace_back(context.globals[f.def->name], func);
  }

  relax::BlockBuilder builder(make_module(std::move(prim_funcs)));
  RelaxParser relax(context, builder);
  for (const FunctionEntry& f : source.functions) {
    if (f.kind == FunctionKind::Relax) {
      builder.declare_global(context.globals[f.def->name], relax.signature(*f.def));
    }
  }
  for (const FunctionEntry& f : source.functions) {
    if (f.kind == FunctionKind::Relax) built[f.def->name] = relax.function(*f.def);
  }

  std::vector<std::pair<relax::GlobalVar, Ref<Object>>> functions;
  for (const FunctionEntry& f : source.functions) {
    functions.emplace_back(context.globals[f.def->name], built[f.def->name]);
  }
  Attrs attrs = source.attrs != nullptr ? parse_attr_dict(*source.attrs) : Attrs();
  return make_module(std::move(functions), std::move(attrs), source.span);
}

}  // namespace relaxc::text
