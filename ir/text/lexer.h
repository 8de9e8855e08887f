// The tokenizer of the text format's Python subset: names, numbers, strings, operators,
// and NEWLINE / INDENT / DEDENT from indentation, every token with its line:col.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/support/diagnostics.h"

namespace relaxc::text {

enum class TokenKind : uint8_t {
  Name,     // identifiers and keywords ("def", "True")
  Int,      // int_value
  Float,    // float_value
  String,   // text is the decoded value
  Op,       // punctuation and operators: text is the spelling ("(", "//", "->")
  Newline,  // end of a logical line
  Indent,
  Dedent,
  End,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;
  int64_t int_value = 0;
  double float_value = 0.0;
  // For a String: true if the literal sits on one line and has no escapes, so that an
  // offset into the value is an offset into the source line (for shape strings).
  bool verbatim = false;
  Span span;
};

// Where the tokenizer reads: `text` is a part of `file`'s text that starts at 1-based
// `line`:`col` (a whole file, or the inside of a string literal holding an expression).
// With `fixed_span`, every token gets the span `line`:`col` (for text whose offsets do
// not map to the source, such as a string literal with escapes).
struct LexerInput {
  const SourceFile* file = nullptr;
  std::string_view text;
  uint32_t line = 1;
  uint32_t col = 1;
  bool fixed_span = false;
  // An expression on its own (no statements): newlines and indentation are ignored.
  bool expression_only = false;
};

// Splits `input` into tokens ending with End. Inside brackets, newlines and
// indentation are ignored (implicit line joining), as after a backslash at the end of a
// line. Throws UserError at the offending character for an unknown character, an
// unterminated string, bad indentation, an unbalanced bracket, an embedded NUL or
// invalid UTF-8.
std::vector<Token> tokenize(const LexerInput& input);

// True for the words Python reserves (they cannot name a variable).
bool is_python_keyword(std::string_view word);

}  // namespace relaxc::text
