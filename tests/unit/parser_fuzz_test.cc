// Seeded random-mutation fuzzing of the text parser: every mutated corpus module either
// parses or fails with a UserError whose diagnostics carry a location; nothing crashes.
//
// Each input is a corpus or example module with one to four random mutations, at byte
// level (delete, insert punctuation or raw bytes, truncate) or token level (delete,
// duplicate, swap, replace identifiers and numbers, insert keywords, duplicate or delete
// lines, re-indent, splice in text from another module), or deep nesting (parentheses,
// brackets, calls, unary operators, long operator chains, indented blocks). A module
// that parses must also pass through the well-formedness checker and the printer and
// read back to a structurally equal module. The run is bounded by time:
// RELAXC_FUZZ_SECONDS (default 20 s under a sanitizer, 10 s otherwise); RELAXC_FUZZ_SEED
// picks the sequence. Each input is written to a file before it is parsed, so that a
// crash leaves the input that caused it behind.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/relax/well_formed.h"
#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/support/source_scope.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "tests/support/rejection_check.h"

namespace relaxc {
namespace {

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
constexpr double kDefaultSeconds = 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double kDefaultSeconds = 20;
#else
constexpr double kDefaultSeconds = 10;
#endif
#else
constexpr double kDefaultSeconds = 10;
#endif
constexpr uint64_t kDefaultSeed = 0x52454c4158;  // "RELAX"
// Failures are reported up to this many; the rest are only counted.
constexpr int kMaxReportedFailures = 5;

double env_double(const char* name, double fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  char* end = nullptr;
  double parsed = std::strtod(value, &end);
  return end != value && parsed >= 0 ? parsed : fallback;
}

uint64_t env_seed() {
  const char* value = std::getenv("RELAXC_FUZZ_SEED");
  if (value == nullptr || *value == '\0') return kDefaultSeed;
  return std::strtoull(value, nullptr, 0);
}

std::vector<std::string> seed_modules() {
  std::vector<std::string> texts;
  for (const char* dir : {"tests/corpus", "examples"}) {
    std::error_code ec;
    std::vector<fs::path> paths;
    for (fs::directory_iterator it(fs::path(RELAXC_SOURCE_DIR) / dir, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->path().extension() == ".py") paths.push_back(it->path());
    }
    std::sort(paths.begin(), paths.end());
    for (const fs::path& path : paths) {
      std::ifstream file(path, std::ios::binary);
      std::ostringstream text;
      text << file.rdbuf();
      texts.push_back(text.str());
    }
  }
  return texts;
}

// ---------------------------------------------------------------- Tokens

enum class TokenClass { Identifier, Number, String, Punctuation, Space, Newline };

struct Token {
  size_t begin, end;
  TokenClass cls;
};

// A rough Python-like tokenization: enough to mutate at token boundaries.
std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  auto is_ident = [](unsigned char c) { return std::isalnum(c) || c == '_'; };
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    unsigned char c = text[i];
    TokenClass cls;
    if (c == '\n') {
      ++i;
      cls = TokenClass::Newline;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
      cls = TokenClass::Space;
    } else if (std::isdigit(c)) {
      while (i < text.size() && (is_ident(text[i]) || text[i] == '.')) ++i;
      cls = TokenClass::Number;
    } else if (is_ident(c)) {
      while (i < text.size() && is_ident(text[i])) ++i;
      cls = TokenClass::Identifier;
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < text.size() && text[i] != c && text[i] != '\n') ++i;
      if (i < text.size() && text[i] == c) ++i;
      cls = TokenClass::String;
    } else {
      ++i;
      cls = TokenClass::Punctuation;
    }
    tokens.push_back({start, i, cls});
  }
  return tokens;
}

// ---------------------------------------------------------------- Mutations

class Mutator {
 public:
  Mutator(uint64_t seed, const std::vector<std::string>& seeds) : rng_(seed), seeds_(seeds) {}

  std::string next_input() {
    std::string text = seeds_[below(seeds_.size())];
    int count = 1 + static_cast<int>(below(4));
    for (int i = 0; i < count && !text.empty(); ++i) mutate(text);
    return text;
  }

 private:
  size_t below(size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng_);
  }
  bool chance(int percent) { return below(100) < static_cast<size_t>(percent); }

  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }

  // A random token of class `cls`, or any non-space token when none of that class.
  const Token* pick_token(const std::vector<Token>& tokens, TokenClass cls) {
    std::vector<const Token*> matching;
    for (const Token& t : tokens) {
      if (t.cls == cls) matching.push_back(&t);
    }
    if (matching.empty()) return tokens.empty() ? nullptr : &tokens[below(tokens.size())];
    return matching[below(matching.size())];
  }

  size_t token_boundary(const std::vector<Token>& tokens, size_t size) {
    return tokens.empty() ? below(size + 1) : tokens[below(tokens.size())].begin;
  }

  // Start offsets of every line.
  static std::vector<size_t> line_starts(const std::string& text) {
    std::vector<size_t> starts = {0};
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n' && i + 1 < text.size()) starts.push_back(i + 1);
    }
    return starts;
  }

  static size_t line_end(const std::string& text, size_t start) {
    size_t end = text.find('\n', start);
    return end == std::string::npos ? text.size() : end + 1;
  }

  std::string deep_nesting() {
    static const std::vector<size_t> depths = {8, 64, 512, 4096, 20000};
    size_t depth = pick(depths);
    auto repeat = [](std::string_view s, size_t n) {
      std::string out;
      out.reserve(s.size() * n);
      for (size_t i = 0; i < n; ++i) out += s;
      return out;
    };
    switch (below(9)) {
      case 0:
        return repeat("(", depth) + "x" + repeat(")", depth);
      case 1:
        return repeat("[", depth) + "1" + repeat("]", depth);
      case 2:
        return repeat("R.add(", depth) + "x" + repeat(", x)", depth);
      case 3:
        return repeat("R.Tuple(", depth) + repeat(")", depth);
      case 4:
        return repeat("-", depth) + "n";
      case 5:
        return repeat("not ", depth) + "True";
      case 6:
        return "n" + repeat(" + n", depth);
      case 7:
        return "x" + repeat("[0]", depth);
      default: {
        // Indented blocks nested `depth` deep (bounded: each level adds its indentation).
        size_t levels = std::min<size_t>(depth, 300);
        std::string out = "\n";
        for (size_t i = 0; i < levels; ++i) out += std::string(4 * (i + 1), ' ') + "if c:\n";
        return out + std::string(4 * (levels + 1), ' ') + "x = 1\n";
      }
    }
  }

  void mutate(std::string& text) {
    static const std::vector<std::string> keywords = {"def ",
                                                      "class ",
                                                      "if ",
                                                      "else:",
                                                      "return ",
                                                      "with ",
                                                      "for ",
                                                      " in ",
                                                      "while ",
                                                      "lambda ",
                                                      "None",
                                                      "True",
                                                      "False",
                                                      "@R.function",
                                                      "@T.prim_func",
                                                      "@I.ir_module",
                                                      "R.",
                                                      "T.",
                                                      "I.",
                                                      "cls.",
                                                      "Module.",
                                                      "R.Tensor",
                                                      "R.Tuple",
                                                      "R.Shape",
                                                      "R.Prim",
                                                      "R.Object",
                                                      "R.Callable",
                                                      "T.int64()",
                                                      "T.handle",
                                                      "T.Buffer",
                                                      "R.dataflow()",
                                                      "R.output(",
                                                      "R.match_cast(",
                                                      "R.call_tir(",
                                                      "R.const(",
                                                      "R.shape(",
                                                      "T.block(",
                                                      "T.grid(",
                                                      "T.init()",
                                                      "T.axis.remap(",
                                                      "T.reads(",
                                                      "T.alloc_buffer(",
                                                      "T.where(",
                                                      "out_sinfo=",
                                                      "dtype=",
                                                      "ndim=",
                                                      "pure=False",
                                                      "private=True",
                                                      "**",
                                                      "...",
                                                      "->",
                                                      ":=",
                                                      "//",
                                                      "\"",
                                                      "'",
                                                      "\\",
                                                      "#",
                                                      "\t",
                                                      "\r\n",
                                                      "\n    ",
                                                      "\n        "};
    static const std::vector<std::string> numbers = {"0",
                                                     "-1",
                                                     "1",
                                                     "2147483647",
                                                     "2147483648",
                                                     "-2147483649",
                                                     "4294967296",
                                                     "9223372036854775807",
                                                     "9223372036854775808",
                                                     "-9223372036854775809",
                                                     "99999999999999999999999999",
                                                     "1e309",
                                                     "-1e309",
                                                     "0.0",
                                                     "1.5e-320",
                                                     "nan",
                                                     "inf",
                                                     "0x10",
                                                     "1_000",
                                                     "007"};
    static const std::string punctuation = "()[]{}:,.=+-*/%<>!@#\"'\\;`~&|^?$ \t\n";

    std::vector<Token> tokens = tokenize(text);
    switch (below(15)) {
      case 0: {  // delete a byte range
        size_t at = below(text.size());
        text.erase(at, 1 + below(16));
        break;
      }
      case 1:  // delete a token
        if (const Token* t = pick_token(tokens, TokenClass::Identifier)) {
          const Token& victim = chance(50) ? *t : tokens[below(tokens.size())];
          text.erase(victim.begin, victim.end - victim.begin);
        }
        break;
      case 2:  // duplicate a token at a token boundary
        if (!tokens.empty()) {
          const Token& t = tokens[below(tokens.size())];
          std::string copy = text.substr(t.begin, t.end - t.begin);
          text.insert(token_boundary(tokens, text.size()), copy);
        }
        break;
      case 3:  // swap two tokens
        if (tokens.size() >= 2) {
          Token a = tokens[below(tokens.size())], b = tokens[below(tokens.size())];
          if (a.begin > b.begin) std::swap(a, b);
          if (a.end <= b.begin) {
            std::string ta = text.substr(a.begin, a.end - a.begin);
            std::string tb = text.substr(b.begin, b.end - b.begin);
            text.replace(b.begin, tb.size(), ta);
            text.replace(a.begin, ta.size(), tb);
          }
        }
        break;
      case 4:  // insert punctuation
        text.insert(below(text.size() + 1), 1, punctuation[below(punctuation.size())]);
        break;
      case 5:  // insert a keyword or script name at a token boundary
        text.insert(token_boundary(tokens, text.size()), pick(keywords));
        break;
      case 6:  // replace an identifier with another identifier of the module
        if (const Token* t = pick_token(tokens, TokenClass::Identifier)) {
          const Token* other = pick_token(tokens, TokenClass::Identifier);
          std::string replacement = text.substr(other->begin, other->end - other->begin);
          text.replace(t->begin, t->end - t->begin, replacement);
        }
        break;
      case 7:  // replace a number with an extreme or malformed one
        if (const Token* t = pick_token(tokens, TokenClass::Number)) {
          text.replace(t->begin, t->end - t->begin, pick(numbers));
        }
        break;
      case 8: {  // insert raw bytes (NUL, control characters, broken UTF-8)
        size_t at = below(text.size() + 1);
        size_t n = 1 + below(8);
        for (size_t i = 0; i < n; ++i) text.insert(at, 1, static_cast<char>(below(256)));
        break;
      }
      case 9:  // deep nesting at a token boundary, or in place of an identifier
        if (const Token* t = chance(50) ? pick_token(tokens, TokenClass::Identifier) : nullptr) {
          text.replace(t->begin, t->end - t->begin, deep_nesting());
        } else {
          text.insert(token_boundary(tokens, text.size()), deep_nesting());
        }
        break;
      case 10:  // truncate
        text.resize(below(text.size() + 1));
        break;
      case 11: {  // duplicate a line elsewhere
        std::vector<size_t> starts = line_starts(text);
        size_t from = pick(starts);
        std::string line = text.substr(from, line_end(text, from) - from);
        text.insert(pick(starts), line);
        break;
      }
      case 12: {  // delete a line
        std::vector<size_t> starts = line_starts(text);
        size_t from = pick(starts);
        text.erase(from, line_end(text, from) - from);
        break;
      }
      case 13: {  // change a line's indentation
        std::vector<size_t> starts = line_starts(text);
        size_t at = pick(starts);
        if (chance(40)) {
          text.insert(at, chance(50) ? std::string(1 + below(8), ' ') : std::string("\t"));
        } else {
          size_t spaces = 0;
          while (at + spaces < text.size() && text[at + spaces] == ' ') ++spaces;
          text.erase(at, std::min(spaces, 1 + below(8)));
        }
        break;
      }
      default: {  // splice in a chunk of another module
        const std::string& other = pick(seeds_);
        size_t from = below(other.size());
        std::string chunk = other.substr(from, 1 + below(200));
        text.insert(below(text.size() + 1), chunk);
        break;
      }
    }
  }

  std::mt19937_64 rng_;
  const std::vector<std::string>& seeds_;
};

// ---------------------------------------------------------------- Checking outcomes

class FailureLog {
 public:
  void add(const std::string& what, const std::string& input) {
    ++count_;
    if (count_ > kMaxReportedFailures) return;
    std::string shown = input.size() > 4000 ? input.substr(0, 4000) + "\n[... truncated]" : input;
    ADD_FAILURE() << what << "\n---- input (" << input.size() << " bytes) ----\n"
                  << shown << "\n---- end of input ----";
  }
  int count() const { return count_; }

 private:
  int count_ = 0;
};

// Every diagnostic of a rejection must render, and one must point into the input.
void check_rejection(const UserError& error, const std::string& input, FailureLog& failures) {
  if (std::optional<std::string> problem = rejection_problem(error)) failures.add(*problem, input);
}

// A module the parser accepted must survive the checker and print back to itself.
void check_acceptance(const IRModule& module, const std::string& input, FailureLog& failures) {
  (void)relax::check_well_formed(module);
  std::string printed = text::print_module(module);
  IRModule reparsed;
  try {
    reparsed = text::parse_module(printed, "fuzz_printed.py");
  } catch (const UserError& e) {
    failures.add("the printed form of an accepted module does not parse:\n" +
                     std::string(e.what()) + "\n---- printed ----\n" + printed,
                 input);
    return;
  }
  if (std::optional<std::string> mismatch = structural_mismatch(module, reparsed)) {
    failures.add("the printed form of an accepted module reads back different: " + *mismatch +
                     "\n---- printed ----\n" + printed,
                 input);
  }
}

// The checks themselves: a rejection must carry a location inside its input.
TEST(ParserFuzzChecks, FlagRejectionsWithoutALocation) {
  FailureLog failures;
  EXPECT_NONFATAL_FAILURE(check_rejection(UserError(Span{}, "oops"), "x = 1", failures),
                          "no diagnostic has a location");
  EXPECT_EQ(failures.count(), 1);
}

TEST(ParserFuzzChecks, FlagLocationsOutsideTheInput) {
  const SourceFile* file = SourceFile::add("in.py", "ab\ncd\n");
  FailureLog failures;
  EXPECT_NONFATAL_FAILURE(check_rejection(UserError(Span{file, 9, 1}, "far"), "ab\ncd\n", failures),
                          "located outside its input");
  EXPECT_NONFATAL_FAILURE(
      check_rejection(UserError(Span{file, 1, 5}, "wide"), "ab\ncd\n", failures),
      "located outside its input");
  EXPECT_EQ(failures.count(), 2);
}

TEST(ParserFuzzChecks, AcceptLocatedRejections) {
  const SourceFile* file = SourceFile::add("in.py", "ab\ncd\n");
  FailureLog failures;
  check_rejection(UserError(Span{file, 2, 3}, "end of line 2"), "ab\ncd\n", failures);
  check_rejection(UserError(Span{file, 3, 1}, "end of input"), "ab\ncd\n", failures);
  EXPECT_EQ(failures.count(), 0);
}

// A scope owns what is read while it lives; what was read before and after it stays.
TEST(SourceFileScope, OwnsTheTextsReadWhileItLives) {
  const SourceFile* before = SourceFile::add("before.py", "a\n");
  {
    SourceFileScope outer;
    const SourceFile* in_outer = SourceFile::add("outer.py", "b\nc\n");
    {
      SourceFileScope inner;
      const SourceFile* in_inner = SourceFile::add("inner.py", "d\n");
      EXPECT_EQ(in_inner->line(1), "d");
    }
    EXPECT_EQ(in_outer->line(2), "c");
    // After the inner scope ends, the outer one captures again.
    EXPECT_EQ(SourceFile::add("outer2.py", "e\n")->line(1), "e");
  }
  EXPECT_EQ(SourceFile::add("after.py", "f\n")->line(1), "f");
  EXPECT_EQ(before->line(1), "a");
}

TEST(ParserFuzz, MutatedModulesParseOrFailWithLocatedDiagnostics) {
  std::vector<std::string> seeds = seed_modules();
  ASSERT_FALSE(seeds.empty()) << "no modules in tests/corpus or examples";
  const double budget_seconds = env_double("RELAXC_FUZZ_SECONDS", kDefaultSeconds);
  const uint64_t seed = env_seed();
  const fs::path input_file = fs::path(::testing::TempDir()) / "relaxc_fuzz_input.py";
  std::printf("fuzz: seed %llu, %.1f s budget; each input is saved to %s before parsing\n",
              static_cast<unsigned long long>(seed), budget_seconds, input_file.c_str());

  Mutator mutator(seed, seeds);
  FailureLog failures;
  size_t inputs = 0, accepted = 0, rejected = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(budget_seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    std::string input = mutator.next_input();
    {
      std::ofstream saved(input_file, std::ios::binary | std::ios::trunc);
      saved << input;
    }
    ++inputs;
    SourceFileScope sources;  // ends after `module`: the input's texts are freed with it
    IRModule module;
    try {
      module = text::parse_module(input, "fuzz.py");
    } catch (const UserError& e) {
      ++rejected;
      check_rejection(e, input, failures);
      continue;
    } catch (const std::exception& e) {
      failures.add(std::string("an exception other than UserError: ") + e.what(), input);
      continue;
    }
    ++accepted;
    try {
      check_acceptance(module, input, failures);
    } catch (const std::exception& e) {
      failures.add(std::string("checking or printing an accepted module threw: ") + e.what(),
                   input);
    }
  }
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fuzz: ran %zu inputs in %.1f s (%zu parsed, %zu rejected), %d failures\n", inputs,
              elapsed, accepted, rejected, failures.count());
  EXPECT_GT(inputs, 0u);
  EXPECT_EQ(failures.count(), 0) << "only the first " << kMaxReportedFailures << " are shown";
}

}  // namespace
}  // namespace relaxc
