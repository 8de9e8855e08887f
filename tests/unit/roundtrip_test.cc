// Round trip of the text format over every module in tests/corpus and examples/:
// parse -> print -> parse is structurally equal, printing is stable, every module is
// well formed, normalizing a parsed module changes nothing, and no function is lost.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "ir/module.h"
#include "ir/relax/block_builder.h"
#include "ir/relax/well_formed.h"
#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"

namespace relaxc {
namespace {

namespace fs = std::filesystem;

// Module files under RELAXC_SOURCE_DIR/`dir`, sorted; empty if the folder is missing
// (HasAtLeastEightCorpusModules then fails, rather than the binary at start-up).
std::vector<fs::path> module_files(const char* dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(RELAXC_SOURCE_DIR) / dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    fs::path ext = it->path().extension();
    if (ext == ".py" || ext == ".relax") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> all_module_files() {
  std::vector<fs::path> files = module_files("tests/corpus");
  for (fs::path& path : module_files("examples")) files.push_back(std::move(path));
  return files;
}

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// "tests/corpus/tir_gpu.py" -> "corpus_tir_gpu": a valid GoogleTest parameter name.
std::string test_name(const fs::path& path) {
  std::string name = path.parent_path().filename().string() + "_" + path.stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// Parses `text`; a UserError becomes a test failure showing its diagnostics.
IRModule parse_or_fail(const std::string& text, const std::string& name) {
  try {
    return text::parse_module(text, name);
  } catch (const UserError& e) {
    ADD_FAILURE() << "parsing " << name << " failed:\n" << e.what();
    return {};
  }
}

// The names of the functions a module file defines at class level (a `def` indented by
// exactly four spaces), in order: read from the text, independently of the parser. A line
// ends with '\n', "\r\n" or a lone '\r' (tests/corpus/idiom_bom_cr_line_ends.py).
std::vector<std::string> class_level_function_names(std::string text) {
  std::replace(text.begin(), text.end(), '\r', '\n');
  std::vector<std::string> names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::string prefix = "    def ";
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    size_t end = line.find('(', prefix.size());
    if (end != std::string::npos) names.push_back(line.substr(prefix.size(), end - prefix.size()));
  }
  return names;
}

class CorpusModule : public ::testing::TestWithParam<fs::path> {
 protected:
  std::string path_name() const {
    return GetParam().lexically_relative(RELAXC_SOURCE_DIR).string();
  }
  std::string source() const { return read_file(GetParam()); }
};

TEST_P(CorpusModule, ParsePrintParseIsStructurallyEqual) {
  IRModule first = parse_or_fail(source(), path_name());
  ASSERT_TRUE(first.defined());
  std::string printed = text::print_module(first);
  IRModule second = parse_or_fail(printed, path_name() + " (printed)");
  ASSERT_TRUE(second.defined()) << "the printed module:\n" << printed;

  std::optional<std::string> mismatch = structural_mismatch(first, second);
  EXPECT_FALSE(mismatch.has_value())
      << "first difference: " << mismatch.value_or("") << "\nthe printed module:\n"
      << printed;
  EXPECT_TRUE(structural_equal(first, second));
  EXPECT_EQ(structural_hash(first), structural_hash(second));
}

TEST_P(CorpusModule, PrintingIsStable) {
  IRModule first = parse_or_fail(source(), path_name());
  ASSERT_TRUE(first.defined());
  std::string printed = text::print_module(first);
  IRModule reparsed = parse_or_fail(printed, path_name() + " (printed)");
  ASSERT_TRUE(reparsed.defined()) << "the printed module:\n" << printed;
  EXPECT_EQ(text::print_module(reparsed), printed);
}

TEST_P(CorpusModule, IsWellFormed) {
  IRModule module = parse_or_fail(source(), path_name());
  ASSERT_TRUE(module.defined());
  DiagnosticList diagnostics = relax::check_well_formed(module);
  EXPECT_TRUE(diagnostics.all().empty()) << diagnostics.render();
}

// The parser builds through the normalizer, so its output is already in normal form.
TEST_P(CorpusModule, NormalizingAParsedModuleChangesNothing) {
  IRModule module = parse_or_fail(source(), path_name());
  ASSERT_TRUE(module.defined());
  IRModule normalized = relax::normalize_module(module);
  std::optional<std::string> mismatch = structural_mismatch(module, normalized);
  EXPECT_FALSE(mismatch.has_value())
      << "first difference: " << mismatch.value_or("") << "\nnormalized:\n"
      << text::print_module(normalized);
}

TEST_P(CorpusModule, KeepsEveryFunctionInOrder) {
  std::string text = source();
  IRModule module = parse_or_fail(text, path_name());
  ASSERT_TRUE(module.defined());
  std::vector<std::string> parsed_names;
  for (const auto& [global_var, function] : module->functions) {
    parsed_names.push_back(global_var->name);
  }
  std::vector<std::string> expected = class_level_function_names(text);
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(parsed_names, expected);
}

INSTANTIATE_TEST_SUITE_P(Text, CorpusModule, ::testing::ValuesIn(all_module_files()),
                         [](const ::testing::TestParamInfo<fs::path>& info) {
                           return test_name(info.param);
                         });

TEST(Corpus, HasAtLeastEightModules) {
  EXPECT_GE(module_files("tests/corpus").size(), 8u);
  EXPECT_GE(module_files("examples").size(), 1u);
}

}  // namespace
}  // namespace relaxc
