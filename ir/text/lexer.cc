// The tokenizer of the text format's Python subset.
//
// One pass over the bytes. At the start of each logical line (outside brackets) the
// indentation width is compared with a stack of open indentation levels, giving INDENT
// and DEDENT tokens as Python does; blank and comment-only lines are skipped. The input
// is checked for NUL bytes and invalid UTF-8 first, so that the rest can treat any
// non-ASCII byte outside strings and comments as an unexpected character.
#include "ir/text/lexer.h"

#include <array>
#include <charconv>
#include <limits>

namespace relaxc::text {

namespace {

constexpr size_t kMaxBracketDepth = 200;

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The length of the valid UTF-8 sequence starting at text[i], or 0 if it is invalid.
size_t utf8_sequence_length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  size_t len = 0;
  uint32_t code = 0;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    code = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    code = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    code = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Reject overlong encodings, surrogates and code points past U+10FFFF.
  static constexpr std::array<uint32_t, 5> kMinCode = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kMinCode[len] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return len;
}

void append_utf8(std::string& out, uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// Operators, longest first so that the first match is the longest one.
constexpr std::array<std::string_view, 44> kOperators = {
    "**=", "//=", ">>=", "<<=", "...", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", "+=",
    "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", "@=", ":=", "+",  "-",  "*",  "/",  "%",  "@",
    "&",   "|",   "^",   "~",   "<",   ">",  "(",  ")",  "[",  "]",  "{",  "}",  ",",  ":"};
constexpr std::array<std::string_view, 4> kMoreOperators = {".", ";", "=", "!"};

struct OpenBracket {
  char c;
  Span span;
};

class Lexer {
 public:
  explicit Lexer(const LexerInput& input) : in_(input), text_(input.text) {}

  std::vector<Token> run() {
    check_encoding();
    indents_.push_back(0);
    bool at_line_start = true;
    expression_mode_ = in_.expression_only;
    while (true) {
      if (at_line_start && brackets_.empty() && !expression_mode_) {
        if (!start_logical_line()) break;
        at_line_start = false;
      }
      if (pos_ >= text_.size()) break;
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
        advance(1);
      } else if (c == '#') {
        skip_comment();
      } else if (c == '\n') {
        if (brackets_.empty() && !expression_mode_) {
          push_simple(TokenKind::Newline, "", end_of_line());
          at_line_start = true;
        }
        newline();
      } else if (c == '\\') {
        line_continuation();
      } else if (is_digit(c) ||
                 (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
        lex_number();
      } else if (is_ident_start(c)) {
        lex_name_or_prefixed_string();
      } else if (c == '"' || c == '\'') {
        lex_string(/*raw=*/false);
      } else {
        lex_operator();
      }
    }
    if (!brackets_.empty()) {
      user_error(brackets_.back().span) << "'" << brackets_.back().c << "' was never closed";
    }
    if (!tokens_.empty() && tokens_.back().kind != TokenKind::Newline) {
      push_simple(TokenKind::Newline, "", end_of_line());
    }
    while (indents_.size() > 1) {
      indents_.pop_back();
      push_simple(TokenKind::Dedent, "", end_of_line());
    }
    push_simple(TokenKind::End, "", end_of_line());
    return std::move(tokens_);
  }

 private:
  // ---- Positions.
  Span span_at(uint32_t line_offset, size_t line_start, size_t pos) const {
    if (in_.fixed_span) return Span{in_.file, in_.line, in_.col};
    uint32_t col = static_cast<uint32_t>(pos - line_start) + (line_offset == 0 ? in_.col : 1);
    return Span{in_.file, in_.line + line_offset, col};
  }
  Span here() const { return span_at(line_, line_start_, pos_); }
  // The end of the current line: here, or on the '\r' of a "\r\n" line end (the text
  // of a line ends before it).
  Span end_of_line() const {
    bool after_cr = pos_ > line_start_ && text_[pos_ - 1] == '\r';
    return span_at(line_, line_start_, after_cr ? pos_ - 1 : pos_);
  }
  // The span of any offset (for errors found before the main pass).
  Span span_of_offset(size_t offset) const {
    uint32_t line = 0;
    size_t start = 0;
    for (size_t i = 0; i < offset && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        start = i + 1;
      }
    }
    return span_at(line, start, offset);
  }
  void advance(size_t n) { pos_ += n; }
  void newline() {
    ++pos_;
    ++line_;
    line_start_ = pos_;
  }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool at_newline() const { return peek() == '\n' || (peek() == '\r' && peek(1) == '\n'); }
  void consume_newline() {
    if (peek() == '\r') advance(1);
    newline();
  }

  void push_simple(TokenKind kind, std::string text, Span span) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.span = span;
    tokens_.push_back(std::move(t));
  }

  // ---- Encoding.
  void check_encoding() const {
    for (size_t i = 0; i < text_.size();) {
      if (text_[i] == '\0') user_error(span_of_offset(i)) << "unexpected NUL character";
      size_t len = utf8_sequence_length(text_, i);
      if (len == 0) {
        user_error(span_of_offset(i)) << "invalid UTF-8 byte 0x" << std::hex
                                      << static_cast<int>(static_cast<unsigned char>(text_[i]));
      }
      i += len;
    }
  }

  // ---- Lines and indentation. Returns false at the end of the text.
  bool start_logical_line() {
    while (true) {
      size_t width = 0;
      size_t p = pos_;
      while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\f')) {
        if (text_[p] == ' ') {
          ++width;
        } else if (text_[p] == '\t') {
          width = (width / 8 + 1) * 8;
        } else {
          width = 0;
        }
        ++p;
      }
      pos_ = p;
      if (pos_ >= text_.size()) return false;
      if (peek() == '#') {
        skip_comment();
        if (pos_ >= text_.size()) return false;
      }
      if (at_newline()) {
        consume_newline();
        continue;
      }
      if (peek() == '\r') {
        advance(1);
        continue;
      }
      if (width > indents_.back()) {
        indents_.push_back(width);
        push_simple(TokenKind::Indent, "", here());
      } else {
        while (width < indents_.back()) {
          indents_.pop_back();
          push_simple(TokenKind::Dedent, "", here());
        }
        if (width != indents_.back()) {
          user_error(here()) << "unindent does not match any outer indentation level";
        }
      }
      return true;
    }
  }

  void skip_comment() {
    while (pos_ < text_.size() && text_[pos_] != '\n') advance(1);
  }

  void line_continuation() {
    Span span = here();
    advance(1);
    if (!at_newline()) user_error(span) << "unexpected character after line continuation character";
    consume_newline();
  }

  // ---- Names and numbers.
  void lex_name_or_prefixed_string() {
    Span span = here();
    size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) advance(1);
    std::string_view word = text_.substr(start, pos_ - start);
    if (peek() == '"' || peek() == '\'') {
      if (word == "r" || word == "R" || word == "u" || word == "U") {
        lex_string(/*raw=*/word == "r" || word == "R", span);
        tokens_.back().verbatim = false;  // the span starts at the prefix, not the quote
        return;
      }
      if (word.size() <= 2) {
        user_error(span) << "string prefix '" << word << "' is not supported";
      }
    }
    push_simple(TokenKind::Name, std::string(word), span);
  }

  void lex_number() {
    Span span = here();
    size_t start = pos_;
    auto digits = [&](auto accept) {
      while (pos_ < text_.size() && (accept(text_[pos_]) || text_[pos_] == '_')) advance(1);
    };
    bool is_float = false;
    int base = 10;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' || peek(1) == 'O' ||
                          peek(1) == 'b' || peek(1) == 'B')) {
      char p = static_cast<char>(peek(1) | 0x20);
      base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      advance(2);
      digits([&](char c) { return hex_value(c) >= 0 && hex_value(c) < base; });
    } else {
      digits(is_digit);
      if (peek() == '.') {
        is_float = true;
        advance(1);
        digits(is_digit);
      }
      if (peek() == 'e' || peek() == 'E') {
        size_t save = pos_;
        advance(1);
        if (peek() == '+' || peek() == '-') advance(1);
        if (is_digit(peek())) {
          is_float = true;
          digits(is_digit);
        } else {
          pos_ = save;
        }
      }
    }
    if (pos_ < text_.size() && is_ident_char(text_[pos_])) {
      user_error(span) << "invalid number literal";
    }
    std::string spelled(text_.substr(start, pos_ - start));
    std::string clean;
    for (char c : spelled) {
      if (c != '_') clean += c;
    }
    Token t;
    t.span = span;
    t.text = spelled;
    if (is_float) {
      t.kind = TokenKind::Float;
      double value = 0;
      auto [ptr, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), value);
      if (ec == std::errc::result_out_of_range) {
        // Python would read infinity; the text format spells it T.float32("inf").
        user_error(span) << "float literal " << spelled << " is out of range";
      }
      if (ec != std::errc() || ptr != clean.data() + clean.size()) {
        user_error(span) << "invalid number literal";
      }
      t.float_value = value;
    } else {
      t.kind = TokenKind::Int;
      std::string_view body = clean;
      if (base != 10) body.remove_prefix(2);
      if (body.empty()) user_error(span) << "invalid number literal";
      uint64_t value = 0;
      for (char c : body) {
        uint64_t d = static_cast<uint64_t>(hex_value(c));
        if (value > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - d) / base) {
          user_error(span) << "integer literal " << spelled << " does not fit in 64 bits";
        }
        value = value * base + d;
      }
      t.int_value = static_cast<int64_t>(value);
    }
    tokens_.push_back(std::move(t));
  }

  // ---- Strings.
  void lex_string(bool raw) { lex_string(raw, here()); }

  void lex_string(bool raw, Span span) {
    char quote = peek();
    bool triple = peek(1) == quote && peek(2) == quote;
    advance(triple ? 3 : 1);
    Token t;
    t.kind = TokenKind::String;
    t.span = span;
    t.verbatim = !triple;
    std::string& out = t.text;
    while (true) {
      if (pos_ >= text_.size()) user_error(span) << "unterminated string literal";
      char c = peek();
      if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
        advance(triple ? 3 : 1);
        break;
      }
      if (c == '\n') {
        if (!triple) user_error(span) << "unterminated string literal";
        out += '\n';
        newline();
        continue;
      }
      if (c == '\\' && !raw) {
        t.verbatim = false;
        lex_escape(out);
        continue;
      }
      if (c == '\\' && raw && (peek(1) == quote || peek(1) == '\\')) {
        out += c;
        out += peek(1);
        advance(2);
        continue;
      }
      out += c;
      advance(1);
    }
    if (out.find('\0') != std::string::npos) {
      user_error(span) << "a string cannot contain a NUL character";
    }
    tokens_.push_back(std::move(t));
  }

  void lex_escape(std::string& out) {
    Span span = here();
    advance(1);  // the backslash
    if (pos_ >= text_.size()) user_error(span) << "unterminated string literal";
    char e = peek();
    auto read_hex = [&](int count) {
      uint32_t code = 0;
      for (int k = 0; k < count; ++k) {
        int d = hex_value(peek());
        if (d < 0)
          user_error(span) << "truncated \\" << e << " escape: expected " << count << " hex digits";
        code = code * 16 + static_cast<uint32_t>(d);
        advance(1);
      }
      return code;
    };
    switch (e) {
      case '\n':
        newline();
        return;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x': {
        advance(1);
        out += static_cast<char>(read_hex(2));
        return;
      }
      case 'u':
      case 'U': {
        advance(1);
        uint32_t code = read_hex(e == 'u' ? 4 : 8);
        if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
          user_error(span) << "invalid code point in \\" << e << " escape";
        }
        append_utf8(out, code);
        return;
      }
      default:
        if (e >= '0' && e <= '7') {
          uint32_t code = 0;
          for (int k = 0; k < 3 && peek() >= '0' && peek() <= '7'; ++k) {
            code = code * 8 + static_cast<uint32_t>(peek() - '0');
            advance(1);
          }
          if (code > 0xFF) user_error(span) << "octal escape out of range";
          out += static_cast<char>(code);
          return;
        }
        // Python keeps an unknown escape as written.
        out += '\\';
        return;
    }
    advance(1);
  }

  // ---- Operators and brackets.
  void lex_operator() {
    Span span = here();
    std::string_view rest = text_.substr(pos_);
    std::string_view op;
    for (std::string_view candidate : kOperators) {
      if (rest.substr(0, candidate.size()) == candidate) {
        op = candidate;
        break;
      }
    }
    if (op.empty()) {
      for (std::string_view candidate : kMoreOperators) {
        if (rest.substr(0, 1) == candidate) op = candidate;
      }
    }
    if (op.empty() || op == "!") unexpected_character(span);
    char c = op[0];
    if (op.size() == 1 && (c == '(' || c == '[' || c == '{')) {
      if (brackets_.size() >= kMaxBracketDepth) user_error(span) << "nesting too deep";
      brackets_.push_back({c, span});
    } else if (op.size() == 1 && (c == ')' || c == ']' || c == '}')) {
      if (brackets_.empty()) user_error(span) << "unmatched '" << c << "'";
      char open = brackets_.back().c;
      char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
      if (c != expected) {
        user_error(span) << "closing '" << c << "' does not match opening '" << open << "' at line "
                         << brackets_.back().span.line;
      }
      brackets_.pop_back();
    }
    advance(op.size());
    push_simple(TokenKind::Op, std::string(op), span);
  }

  [[noreturn]] void unexpected_character(Span span) const {
    unsigned char c = static_cast<unsigned char>(peek());
    if (c >= 0x80) {
      size_t len = utf8_sequence_length(text_, pos_);
      user_error(span) << "unexpected character '" << text_.substr(pos_, len == 0 ? 1 : len) << "'";
    }
    if (c < 0x20 || c == 0x7F) {
      user_error(span) << "unexpected control character 0x" << std::hex << static_cast<int>(c);
    }
    user_error(span) << "unexpected character '" << static_cast<char>(c) << "'";
  }

  LexerInput in_;
  std::string_view text_;
  size_t pos_ = 0;
  uint32_t line_ = 0;  // lines consumed so far
  size_t line_start_ = 0;
  bool expression_mode_ = false;
  std::vector<size_t> indents_;
  std::vector<OpenBracket> brackets_;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(const LexerInput& input) { return Lexer(input).run(); }

bool is_python_keyword(std::string_view word) {
  static constexpr std::array<std::string_view, 35> kKeywords = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  for (std::string_view k : kKeywords) {
    if (k == word) return true;
  }
  return false;
}

}  // namespace relaxc::text
