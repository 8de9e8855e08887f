// Tests of the text parser's front half: the tokenizer, the Python AST parser, the
// module level (decorators, classes, function order), syntax errors with their exact
// locations, and robustness against garbage input. TensorIR and Relax bodies are tested
// in tir_parser_test.cc and relax_parser_test.cc.
#include "ir/text/parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/text/lexer.h"
#include "ir/text/python_ast.h"
#include "tests/support/errors.h"

namespace relaxc {
namespace {

using text::TokenKind;

std::vector<text::Token> lex(const std::string& source) {
  text::LexerInput input;
  input.file = SourceFile::add("lex.py", source);
  input.text = input.file->text;
  return text::tokenize(input);
}

// "kind:text@line:col" for each token, to compare token streams at a glance.
std::vector<std::string> describe(const std::vector<text::Token>& tokens) {
  std::vector<std::string> out;
  for (const text::Token& t : tokens) {
    std::string kind;
    switch (t.kind) {
      case TokenKind::Name:
        kind = "name";
        break;
      case TokenKind::Int:
        kind = "int";
        break;
      case TokenKind::Float:
        kind = "float";
        break;
      case TokenKind::String:
        kind = "str";
        break;
      case TokenKind::Op:
        kind = "op";
        break;
      case TokenKind::Newline:
        kind = "NL";
        break;
      case TokenKind::Indent:
        kind = "IN";
        break;
      case TokenKind::Dedent:
        kind = "DE";
        break;
      case TokenKind::End:
        kind = "END";
        break;
    }
    out.push_back(kind + ":" + t.text + "@" + std::to_string(t.span.line) + ":" +
                  std::to_string(t.span.col));
  }
  return out;
}

std::string lex_error(const std::string& source) {
  return located_error_of([&] { lex(source); });
}

std::string module_error(const std::string& source) {
  return located_error_of([&] { text::parse_module(source, "test.py"); });
}

// ---------------------------------------------------------------- Tokenizer

TEST(Lexer, TokensCarryLineAndColumn) {
  EXPECT_EQ(
      describe(lex("x = f(a, 12)\n")),
      (std::vector<std::string>{"name:x@1:1", "op:=@1:3", "name:f@1:5", "op:(@1:6", "name:a@1:7",
                                "op:,@1:8", "int:12@1:10", "op:)@1:12", "NL:@1:13", "END:@2:1"}));
}

TEST(Lexer, IndentationGivesIndentAndDedent) {
  std::vector<std::string> tokens = describe(lex("if a:\n    b\n\n    # comment\n    c\nd\n"));
  EXPECT_EQ(tokens,
            (std::vector<std::string>{"name:if@1:1", "name:a@1:4", "op::@1:5", "NL:@1:6", "IN:@2:5",
                                      "name:b@2:5", "NL:@2:6", "name:c@5:5", "NL:@5:6", "DE:@6:1",
                                      "name:d@6:1", "NL:@6:2", "END:@7:1"}));
}

TEST(Lexer, DedentsCloseEveryLevelAtTheEnd) {
  std::vector<std::string> tokens = describe(lex("a:\n  b:\n    c"));
  ASSERT_GE(tokens.size(), 4u);
  // c, NEWLINE (added at the end of the text), two DEDENTs, END.
  EXPECT_EQ(std::vector<std::string>(tokens.end() - 5, tokens.end()),
            (std::vector<std::string>{"name:c@3:5", "NL:@3:6", "DE:@3:6", "DE:@3:6", "END:@3:6"}));
}

TEST(Lexer, BracketsAndBackslashJoinLines) {
  std::vector<std::string> tokens = describe(lex("f(a,\n      b) + \\\n  c\n"));
  EXPECT_EQ(tokens, (std::vector<std::string>{"name:f@1:1", "op:(@1:2", "name:a@1:3", "op:,@1:4",
                                              "name:b@2:7", "op:)@2:8", "op:+@2:10", "name:c@3:3",
                                              "NL:@3:4", "END:@4:1"}));
}

TEST(Lexer, NumberLiterals) {
  std::vector<text::Token> tokens = lex("7 0x1F 1_000 2.5 1e-3 .5 3. 9223372036854775807\n");
  ASSERT_EQ(tokens.size(), 10u);
  EXPECT_EQ(tokens[0].int_value, 7);
  EXPECT_EQ(tokens[1].int_value, 31);
  EXPECT_EQ(tokens[2].int_value, 1000);
  EXPECT_EQ(tokens[3].kind, TokenKind::Float);
  EXPECT_DOUBLE_EQ(tokens[3].float_value, 2.5);
  EXPECT_DOUBLE_EQ(tokens[4].float_value, 0.001);
  EXPECT_DOUBLE_EQ(tokens[5].float_value, 0.5);
  EXPECT_DOUBLE_EQ(tokens[6].float_value, 3.0);
  EXPECT_EQ(tokens[7].int_value, 9223372036854775807);
}

TEST(Lexer, StringLiteralsWithEscapes) {
  std::vector<text::Token> tokens = lex(R"(s = "a\tb\n\"q\" \x41\u00e9" + 'it''s' + r"raw\n")"
                                        "\n");
  ASSERT_EQ(tokens[2].kind, TokenKind::String);
  EXPECT_EQ(tokens[2].text, "a\tb\n\"q\" A\xC3\xA9");
  EXPECT_FALSE(tokens[2].verbatim);
  EXPECT_EQ(tokens[4].text, "it");
  EXPECT_TRUE(tokens[4].verbatim);
  EXPECT_EQ(tokens[5].text, "s");
  EXPECT_EQ(tokens[7].text, "raw\\n");
  std::vector<text::Token> triple = lex("\"\"\"doc\nstring\"\"\"\n");
  EXPECT_EQ(triple[0].text, "doc\nstring");
}

TEST(Lexer, Errors) {
  EXPECT_EQ(lex_error("x = 'abc\n"), "1:5: unterminated string literal");
  EXPECT_EQ(lex_error("x = (1,\n  2\n"), "1:5: '(' was never closed");
  EXPECT_EQ(lex_error("x = 1)\n"), "1:6: unmatched ')'");
  EXPECT_EQ(lex_error("x = [1)\n"), "1:7: closing ')' does not match opening '[' at line 1");
  EXPECT_EQ(lex_error("if a:\n        b\n    c\n"),
            "3:5: unindent does not match any outer indentation level");
  EXPECT_EQ(lex_error("x = $\n"), "1:5: unexpected character '$'");
  EXPECT_EQ(lex_error("x = 1 \\ 2\n"),
            "1:7: unexpected character after line continuation character");
  EXPECT_EQ(lex_error("x = 99999999999999999999\n"),
            "1:5: integer literal 99999999999999999999 does not fit in 64 bits");
  EXPECT_EQ(lex_error("x = 12abc\n"), "1:5: invalid number literal");
  EXPECT_EQ(lex_error("x = '\\x4'\n"), "1:6: truncated \\x escape: expected 2 hex digits");
  EXPECT_EQ(lex_error("x = é\n"), "1:5: unexpected character 'é'");
}

TEST(Lexer, NulAndInvalidUtf8AreSyntaxErrors) {
  EXPECT_EQ(lex_error(std::string("x = 1\ny = \0\n", 11)), "2:5: unexpected NUL character");
  EXPECT_EQ(lex_error("x = 1\n# \xff\n"), "2:3: invalid UTF-8 byte 0xff");
  EXPECT_EQ(lex_error("s = '\xc3'\n"), "1:6: invalid UTF-8 byte 0xc3");
  // An overlong encoding of '/' is not valid UTF-8 either.
  EXPECT_EQ(lex_error("s = '\xc0\xaf'\n"), "1:6: invalid UTF-8 byte 0xc0");
  EXPECT_EQ(lex_error("s = 'ok \xe2\x9c\x93'\n"), "");
}

// ---------------------------------------------------------------- Python AST

text::PyExprPtr expression(const std::string& source) {
  text::LexerInput input;
  input.file = SourceFile::add("expr.py", source);
  input.text = input.file->text;
  input.expression_only = true;
  return text::parse_python_expression(input);
}

// The expression tree in prefix form, for checking precedence.
std::string shape_of(const text::PyExpr& e) {
  using text::PyExprKind;
  switch (e.kind) {
    case PyExprKind::Name:
      return e.as<text::PyName>()->id;
    case PyExprKind::Int:
      return std::to_string(e.as<text::PyInt>()->value);
    case PyExprKind::Unary: {
      const auto& u = *e.as<text::PyUnary>();
      return "(" + u.op + " " + shape_of(*u.operand) + ")";
    }
    case PyExprKind::Binary: {
      const auto& b = *e.as<text::PyBinary>();
      return "(" + b.op + " " + shape_of(*b.lhs) + " " + shape_of(*b.rhs) + ")";
    }
    case PyExprKind::Compare: {
      const auto& c = *e.as<text::PyCompare>();
      std::string out = "(cmp " + shape_of(*c.operands[0]);
      for (size_t i = 0; i < c.ops.size(); ++i)
        out += " " + c.ops[i] + " " + shape_of(*c.operands[i + 1]);
      return out + ")";
    }
    case PyExprKind::BoolOp: {
      const auto& b = *e.as<text::PyBoolOp>();
      std::string out = "(" + b.op;
      for (const auto& operand : b.operands) out += " " + shape_of(*operand);
      return out + ")";
    }
    case PyExprKind::Attribute:
      return text::dotted_name(e);
    case PyExprKind::Call: {
      const auto& c = *e.as<text::PyCall>();
      std::string out = "(call " + shape_of(*c.func);
      for (const auto& a : c.args) out += " " + shape_of(*a);
      for (const auto& k : c.keywords) out += " " + k.name + "=" + shape_of(*k.value);
      return out + ")";
    }
    case PyExprKind::Subscript: {
      const auto& s = *e.as<text::PySubscript>();
      std::string out = "(index " + shape_of(*s.value);
      for (const auto& i : s.indices) out += " " + shape_of(*i);
      return out + ")";
    }
    case PyExprKind::Slice: {
      const auto& s = *e.as<text::PySlice>();
      return "(slice " + (s.lower ? shape_of(*s.lower) : "_") + " " +
             (s.upper ? shape_of(*s.upper) : "_") + ")";
    }
    case PyExprKind::Tuple: {
      std::string out = "(tuple";
      for (const auto& i : e.as<text::PyTuple>()->items) out += " " + shape_of(*i);
      return out + ")";
    }
    case PyExprKind::List: {
      std::string out = "[list";
      for (const auto& i : e.as<text::PyList>()->items) out += " " + shape_of(*i);
      return out + "]";
    }
    case PyExprKind::String:
      return "'" + e.as<text::PyString>()->value + "'";
    case PyExprKind::Bool:
      return e.as<text::PyBool>()->value ? "True" : "False";
    case PyExprKind::None:
      return "None";
    default:
      return "?";
  }
}

TEST(PythonParser, OperatorPrecedenceFollowsPython) {
  EXPECT_EQ(shape_of(*expression("a + b * c - d")), "(- (+ a (* b c)) d)");
  EXPECT_EQ(shape_of(*expression("-a ** 2")), "(- (** a 2))");
  EXPECT_EQ(shape_of(*expression("a ** -b ** c")), "(** a (- (** b c)))");
  EXPECT_EQ(shape_of(*expression("a // b % c")), "(% (// a b) c)");
  EXPECT_EQ(shape_of(*expression("not a < b and c or d")), "(or (and (not (cmp a < b)) c) d)");
  EXPECT_EQ(shape_of(*expression("a < b <= c != d")), "(cmp a < b <= c != d)");
  EXPECT_EQ(shape_of(*expression("a not in b is not c")), "(cmp a not in b is not c)");
  EXPECT_EQ(shape_of(*expression("a | b ^ c & d << 1 + 2")), "(| a (^ b (& c (<< d (+ 1 2)))))");
}

TEST(PythonParser, PrimariesTuplesAndLiterals) {
  EXPECT_EQ(shape_of(*expression("R.nn.relu(x, axis=[1, 2], keep=True)")),
            "(call R.nn.relu x axis=[list 1 2] keep=True)");
  EXPECT_EQ(shape_of(*expression("A[i, 0:4, :n]")), "(index A i (slice 0 4) (slice _ n))");
  EXPECT_EQ(shape_of(*expression("(a,)")), "(tuple a)");
  EXPECT_EQ(shape_of(*expression("()")), "(tuple)");
  EXPECT_EQ(shape_of(*expression("(a)")), "a");
  EXPECT_EQ(shape_of(*expression("f(x)(y)[0]")), "(index (call (call f x) y) 0)");
  EXPECT_EQ(shape_of(*expression("'a' \"b\"")), "'ab'");
  EXPECT_EQ(shape_of(*expression("None")), "None");
}

TEST(PythonParser, Statements) {
  const SourceFile* file = SourceFile::add("stmts.py", R"(import tvm
from tvm.script import relax as R

@R.function(pure=False)
@other
def f(x: R.Tensor((2,), "float32"), n = 3) -> R.Object:
    a, b = g(x)
    c: R.Object = a
    A[i] = 1; pass
    with R.dataflow():
        d = c
    for i, j in T.grid(2, 3):
        pass
    if a:
        return a
    elif b:
        return b
    else:
        while c:
            c = c
    return c
)");
  text::PyBody body = text::parse_python_file(file);
  ASSERT_EQ(body.size(), 3u);
  EXPECT_TRUE(body[0]->as<text::PyImport>());
  EXPECT_TRUE(body[1]->as<text::PyImport>());
  const auto* f = body[2]->as<text::PyFunctionDef>();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->span.line, 4u);  // the first decorator
  EXPECT_EQ(f->decorators.size(), 2u);
  EXPECT_EQ(f->name, "f");
  EXPECT_EQ(f->name_span.line, 6u);
  EXPECT_EQ(f->name_span.col, 5u);
  ASSERT_EQ(f->params.size(), 2u);
  EXPECT_EQ(shape_of(*f->params[0].annotation), "(call R.Tensor (tuple 2) 'float32')");
  EXPECT_EQ(shape_of(*f->params[1].default_value), "3");
  EXPECT_EQ(shape_of(*f->returns), "R.Object");
  const text::PyBody& b = f->body;
  ASSERT_EQ(b.size(), 8u);
  EXPECT_EQ(shape_of(*b[0]->as<text::PyAssign>()->target), "(tuple a b)");
  EXPECT_EQ(shape_of(*b[1]->as<text::PyAssign>()->annotation), "R.Object");
  EXPECT_EQ(shape_of(*b[2]->as<text::PyAssign>()->target), "(index A i)");
  EXPECT_TRUE(b[3]->as<text::PyPass>());
  EXPECT_EQ(b[4]->as<text::PyWith>()->body.size(), 1u);
  EXPECT_EQ(shape_of(*b[5]->as<text::PyFor>()->target), "(tuple i j)");
  const auto* if_stmt = b[6]->as<text::PyIf>();
  ASSERT_NE(if_stmt, nullptr);
  ASSERT_EQ(if_stmt->orelse.size(), 1u);
  const auto* elif = if_stmt->orelse[0]->as<text::PyIf>();
  ASSERT_NE(elif, nullptr);
  EXPECT_EQ(elif->span.line, 16u);
  ASSERT_EQ(elif->orelse.size(), 1u);
  EXPECT_TRUE(elif->orelse[0]->as<text::PyWhile>());
  EXPECT_TRUE(b[7]->as<text::PyReturn>());
}

std::string python_error(const std::string& source) {
  return located_error_of([&] { text::parse_python_file(SourceFile::add("syntax.py", source)); });
}

TEST(PythonParser, SyntaxErrorsPointAtTheOffendingToken) {
  EXPECT_EQ(python_error("y = f(x x)\n"), "1:9: expected ')' after arguments");
  EXPECT_EQ(python_error("y = A[1 2]\n"), "1:9: expected ']' after subscript");
  EXPECT_EQ(python_error("x = 1\n    y = 2\n"), "2:5: unexpected indent");
  EXPECT_EQ(python_error("def f():\nx = 1\n"),
            "2:1: expected an indented block after function definition");
  EXPECT_EQ(python_error("def f(1):\n  pass\n"), "1:7: expected a parameter name");
  EXPECT_EQ(python_error("def f() pass\n"), "1:9: expected ':' after function signature");
  EXPECT_EQ(python_error("if x\n  pass\n"), "1:5: expected ':' after condition");
  EXPECT_EQ(python_error("for i range(3):\n  pass\n"), "1:7: expected 'in' after loop variables");
  EXPECT_EQ(python_error("f(a=1, b)\n"), "1:8: positional argument follows keyword argument");
  EXPECT_EQ(python_error("f(a=1, a=2)\n"), "1:8: keyword argument 'a' repeated");
  EXPECT_EQ(python_error("x = = 1\n"), "1:5: expected an expression, found '='");
  EXPECT_EQ(python_error("x = 1 2\n"), "1:7: unexpected number 2 after statement");
  EXPECT_EQ(python_error("x **= 1\n"), "1:3: augmented assignment ('**=') is not supported");
  EXPECT_EQ(python_error("f() = 1\n"), "1:1: cannot assign to this expression");
  EXPECT_EQ(python_error("@dec\nx = 1\n"), "2:1: expected 'def' or 'class' after decorators");
  EXPECT_EQ(python_error("x = {1: 2, 3}\n"), "1:13: expected ':' after dictionary key");
  EXPECT_EQ(python_error("x = lambda: 1\n"), "1:5: expected an expression, found 'lambda'");
  EXPECT_EQ(python_error("try:\n  pass\n"), "1:1: 'try' statements are not supported");
  EXPECT_EQ(python_error("def f(a, a):\n  pass\n"), "1:10: duplicate parameter 'a'");
  // With "\r\n" line ends, the end of a line is where its text ends.
  EXPECT_EQ(python_error("x = \r\ny = 1\r\n"), "1:5: expected an expression, found end of line");
  EXPECT_EQ(python_error("x = (1 +\r\n"), "1:5: '(' was never closed");
}

TEST(PythonParser, NestingIsBounded) {
  // Deep brackets, long operator chains, chained unary operators and deep blocks all
  // end in an error instead of exhausting the stack.
  // The statement's expression is level 1; each '(' opens one more, so the 201st level
  // starts after the 200th '(' (column 5 + 200).
  std::string parens = "x = " + std::string(300, '(') + "1" + std::string(300, ')') + "\n";
  EXPECT_EQ(python_error(parens), "1:205: nesting too deep");
  std::string chain = "x = a";
  for (int i = 0; i < 5000; ++i) chain += " + a";
  EXPECT_NE(python_error(chain + "\n").find("nesting too deep"), std::string::npos);
  EXPECT_NE(python_error("x = " + std::string(5000, '-') + "1\n").find("nesting too deep"),
            std::string::npos);
  std::string blocks;
  for (int i = 0; i < 300; ++i) blocks += std::string(i, ' ') + "if a:\n";
  blocks += std::string(300, ' ') + "pass\n";
  EXPECT_NE(python_error(blocks).find("nesting too deep"), std::string::npos);
  // 150 levels are fine.
  std::string ok = "x = " + std::string(150, '(') + "1" + std::string(150, ')') + "\n";
  EXPECT_EQ(python_error(ok), "");
}

// ---------------------------------------------------------------- Module level

TEST(Module, FunctionsKeepSourceOrderAndNames) {
  IRModule m = text::parse_module(R"(# from tvm.script import ir as I
from tvm.script import relax as R

@I.ir_module
class Mod:
    """A docstring."""
    I.module_attrs({"system_lib_prefix": "lib_", "opt_level": 3})

    @R.function
    def b(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        cls = Mod
        y = cls.a(x)
        return y

    @T.prim_func
    def k(A: T.Buffer((2,), "float32")):
        A[0] = T.float32(1)

    @R.function(private=True)
    def a(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x
)");
  ASSERT_EQ(m->functions.size(), 3u);
  EXPECT_EQ(m->functions[0].first->name, "b");
  EXPECT_EQ(m->functions[1].first->name, "k");
  EXPECT_EQ(m->functions[2].first->name, "a");
  EXPECT_TRUE(m->functions[0].second.is<relax::FunctionNode>());
  EXPECT_TRUE(m->functions[1].second.is<tir::PrimFuncNode>());
  ASSERT_EQ(m->attrs.entries().size(), 2u);
  EXPECT_EQ(m->attrs.entries()[0].first, "opt_level");  // sorted
  EXPECT_EQ(m->attrs.find("system_lib_prefix")->s, "lib_");
  // The GlobalVar a call refers to is the module's own.
  const auto* b = m->relax_function("b").get();
  const auto* seq = b->body.as<relax::SeqExprNode>();
  ASSERT_NE(seq, nullptr);
  const auto* call = seq->blocks[0]->bindings[0]->value.as<relax::CallNode>();
  ASSERT_NE(call, nullptr);
  EXPECT_TRUE(call->op.same_as(m->global_var("a")));
}

TEST(Module, FunctionsWithoutAClassFormAModule) {
  IRModule m = text::parse_module(R"(@R.function
def main(x: R.Tensor((2,), dtype="float32")):
    return x
)");
  ASSERT_EQ(m->functions.size(), 1u);
  EXPECT_EQ(m->functions[0].first->name, "main");
}

TEST(Module, Errors) {
  EXPECT_EQ(module_error("# nothing here\n"), "1:1: the file holds no module");
  EXPECT_EQ(module_error("class Module:\n    pass\n"),
            "1:1: expected @I.ir_module before the class");
  EXPECT_EQ(module_error("@I.ir_module\nclass Module:\n    def f(x):\n        return x\n"),
            "3:5: a function of the module needs the decorator @T.prim_func or @R.function");
  EXPECT_EQ(module_error(R"(@I.ir_module
class Module:
    @R.function
    def f(x: R.Object):
        return x

    @R.function
    def f(x: R.Object):
        return x
)"),
            "8:9: function 'f' is defined twice");
  EXPECT_EQ(module_error("@I.ir_module\nclass Module:\n    x = 1\n"),
            "3:5: a module class holds only function definitions");
  EXPECT_EQ(module_error("x = 1\n"), "1:1: expected a module: '@I.ir_module' and 'class Module:'");
  EXPECT_EQ(module_error("@I.ir_module(strict=True)\nclass Module:\n    pass\n"),
            "1:14: @I.ir_module got an unknown keyword argument 'strict'");
  EXPECT_EQ(module_error("@I.ir_module\nclass Module:\n    @R.function(fast=True)\n    def f(x: "
                         "R.Object):\n        return x\n"),
            "3:17: @R.function got an unknown keyword argument 'fast'");
}

TEST(Module, DiagnosticsRenderFileLineColumnAndCaret) {
  try {
    text::parse_module(
        "@I.ir_module\nclass Module:\n    @R.function\n    def f(x: R.Object):\n"
        "        y = R.ad(x, x)\n        return y\n",
        "model.py");
    FAIL() << "expected an error";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()),
              "model.py:5:13: error: unknown operator 'R.ad'\n"
              "        y = R.ad(x, x)\n"
              "            ^\n");
  }
}

// A byte-order mark and old Mac line ends ('\r' alone) read as Python reads them, with
// every line and column where an editor shows it.
TEST(Module, ByteOrderMarkAndCarriageReturnLineEnds) {
  const std::string lines[] = {"@I.ir_module",           "class Module:",
                               "    @R.function",        "    def f(x: R.Tensor((2,))):",
                               "        y = R.ad(x, x)", "        return y"};
  for (const char* line_end : {"\n", "\r\n", "\r"}) {
    for (const char* start : {"", "\xEF\xBB\xBF"}) {
      std::string source = start;
      for (const std::string& line : lines) source += line + line_end;
      SCOPED_TRACE(testing::PrintToString(source.substr(0, 20)));
      EXPECT_EQ(module_error(source), "5:13: unknown operator 'R.ad'");
      size_t typo = source.find("R.ad(");
      source.replace(typo, 4, "R.add");
      EXPECT_EQ(text::parse_module(source)->functions.size(), 1u);
    }
  }
  // A byte-order mark anywhere else is no whitespace.
  EXPECT_EQ(module_error("@I.ir_module\n\xEF\xBB\xBF"
                         "class Module:\n    pass\n"),
            "2:1: unexpected character '\xEF\xBB\xBF'");
}

TEST(Module, TheDecoratorMayBeSpelledTvmScriptIrModule) {
  for (const char* decorator :
       {"@I.ir_module", "@tvm.script.ir_module", "@tvm.script.ir.ir_module"}) {
    IRModule m = text::parse_module(std::string(decorator) +
                                    "\nclass Module:\n    @R.function\n    def main(x: "
                                    "R.Object):\n        return x\n");
    EXPECT_EQ(m->functions.size(), 1u) << decorator;
  }
  EXPECT_EQ(module_error("@tvm.ir_module\nclass Module:\n    pass\n"),
            "1:2: a module class is decorated with @I.ir_module only");
}

// B[i] += x is read as B[i] = B[i] + x (TVM's TensorIR tests write reductions so).
TEST(PythonParser, AugmentedAssignmentIsAnAssignmentOfTheBinaryOperation) {
  const std::string head =
      "@I.ir_module\nclass Module:\n    @T.prim_func\n    def f(B: T.Buffer((4,), "
      "\"int32\")):\n        for i in range(4):\n";
  IRModule augmented = text::parse_module(head +
                                          "            B[i] += B[3 - i] * 2\n"
                                          "            B[i] //= 2\n");
  IRModule plain = text::parse_module(head +
                                      "            B[i] = B[i] + B[3 - i] * 2\n"
                                      "            B[i] = B[i] // 2\n");
  EXPECT_TRUE(structural_equal(augmented, plain));
  EXPECT_EQ(module_error(head + "            B[i] **= 2\n"),
            "6:18: augmented assignment ('**=') is not supported");
  EXPECT_EQ(module_error(head + "            B[i], B[0] += 2\n"),
            "6:13: cannot assign to this expression");
}

// ---------------------------------------------------------------- Robustness

TEST(Robustness, DeepButBoundedProgramsParse) {
  // 150 nested if/else in Relax, 150 nested loops in TensorIR, 900 let statements.
  std::string relax = "@R.function\ndef f(c: R.Prim(\"bool\"), x: R.Object):\n";
  for (int i = 0; i < 150; ++i) relax += std::string(4 + 4 * i, ' ') + "if c:\n";
  relax += std::string(4 + 4 * 150, ' ') + "y = x\n";
  for (int i = 149; i >= 0; --i) {
    relax += std::string(4 + 4 * i, ' ') + "else:\n" + std::string(8 + 4 * i, ' ') + "y = x\n";
  }
  relax += "    return y\n";
  EXPECT_EQ(located_error_of([&] { text::parse_module(relax); }), "");

  std::string loops = "@T.prim_func\ndef g(A: T.Buffer((1,), \"float32\")):\n";
  for (int i = 0; i < 150; ++i)
    loops += std::string(4 + 4 * i, ' ') + "for i" + std::to_string(i) + " in range(1):\n";
  loops += std::string(4 + 4 * 150, ' ') + "A[0] = A[0] + T.float32(1)\n";
  EXPECT_EQ(located_error_of([&] { text::parse_module(loops); }), "");

  std::string lets = "@T.prim_func\ndef h(A: T.Buffer((1,), \"int32\")):\n";
  for (int i = 0; i < 900; ++i)
    lets += "    v" + std::to_string(i) + ": T.int32 = " + std::to_string(i) + "\n";
  lets += "    A[0] = v899\n";
  EXPECT_EQ(located_error_of([&] { text::parse_module(lets); }), "");
  // Past 1000 nested let statements the parser stops with an error.
  std::string too_many = "@T.prim_func\ndef h(A: T.Buffer((1,), \"int32\")):\n";
  for (int i = 0; i < 1001; ++i) too_many += "    v" + std::to_string(i) + " = 1\n";
  too_many += "    A[0] = 0\n";
  EXPECT_EQ(located_error_of([&] { text::parse_module(too_many); }),
            "3:5: too many nested statements");
}

// Whatever the input, parsing returns a module or throws a UserError that has a place.
void expect_no_crash(const std::string& source) {
  try {
    text::parse_module(source, "garbage.py");
  } catch (const UserError& e) {
    ASSERT_FALSE(e.diagnostics().empty());
    EXPECT_TRUE(e.diagnostics().front().span.defined()) << e.what();
  }
}

TEST(Robustness, RandomInputNeverCrashes) {
  std::mt19937 rng(20240517);
  const std::string valid = R"(@I.ir_module
class Module:
    @T.prim_func
    def k(var_A: T.handle, B: T.Buffer((8,), "float32")):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        for i in range(8):
            with T.block("B"):
                vi = T.axis.spatial(8, i)
                T.reads(A[vi])
                T.writes(B[vi])
                B[vi] = A[vi] * T.float32(2)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            y = R.reshape(x, R.shape([n * 4]))
            R.output(y)
        if R.const(True, "bool"):
            z = y
        else:
            z = R.add(y, y)
        return z
)";
  const std::vector<std::string> vocabulary = {"@",          "I.ir_module",
                                               "class",      "Module",
                                               ":",          "\n",
                                               "    ",       "def",
                                               "f",          "(",
                                               ")",          "[",
                                               "]",          "x",
                                               ",",          "=",
                                               "R.function", "T.prim_func",
                                               "R.Tensor",   "T.Buffer",
                                               "R.add",      "T.grid",
                                               "with",       "R.dataflow",
                                               "R.output",   "if",
                                               "else",       "for",
                                               "in",         "return",
                                               "1",          "2.5",
                                               "\"n\"",      "T.int64",
                                               "T.block",    "T.axis.remap",
                                               "\"SS\"",     "R.match_cast",
                                               "-",          "*",
                                               "//",         "not",
                                               "cls",        "T.reads",
                                               "R.const",    "None",
                                               "True",       "{",
                                               "}",          "'float32'",
                                               "\\",         "#"};
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string input;
    switch (iteration % 3) {
      case 0: {  // random bytes, printable-biased
        int length = static_cast<int>(rng() % 200);
        for (int i = 0; i < length; ++i) {
          unsigned r = rng() % 100;
          input += r < 80   ? static_cast<char>(32 + rng() % 95)
                   : r < 90 ? '\n'
                            : static_cast<char>(rng() % 256);
        }
        break;
      }
      case 1: {  // token soup
        int length = static_cast<int>(rng() % 80);
        for (int i = 0; i < length; ++i) input += vocabulary[rng() % vocabulary.size()] + " ";
        break;
      }
      default: {  // a valid module with a few edits
        input = valid;
        int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !input.empty(); ++e) {
          size_t at = rng() % input.size();
          switch (rng() % 3) {
            case 0:
              input.erase(at, 1 + rng() % 8);
              break;
            case 1:
              input.insert(at, vocabulary[rng() % vocabulary.size()]);
              break;
            default:
              input[at] = static_cast<char>(32 + rng() % 95);
              break;
          }
        }
      }
    }
    expect_no_crash(input);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace relaxc
