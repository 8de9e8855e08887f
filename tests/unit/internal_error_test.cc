// Tests of internal errors: RELAXC_ICHECK and RELAXC_UNREACHABLE throw InternalError, and
// the report a tool prints for one.
#include <gtest/gtest.h>

#include <string>

#include "ir/support/diagnostics.h"

namespace relaxc {
namespace {

TEST(InternalError, FailedCheckThrowsWithPlaceConditionAndMessage) {
  int lanes = 3;
  int line = 0;
  try {
    line = __LINE__ + 1;
    RELAXC_ICHECK(lanes % 2 == 0) << "odd lane count " << lanes;
    FAIL() << "expected an InternalError";
  } catch (const InternalError& e) {
    EXPECT_TRUE(e.file().ends_with("tests/unit/internal_error_test.cc")) << e.file();
    EXPECT_EQ(e.line(), line);
    EXPECT_EQ(e.condition(), "lanes % 2 == 0");
    EXPECT_EQ(e.message(), "odd lane count 3");
    EXPECT_EQ(std::string(e.what()), e.file() + ":" + std::to_string(line) +
                                         ": check failed: lanes % 2 == 0: odd lane count 3");
  }
}

TEST(InternalError, PassingCheckNeitherThrowsNorBuildsTheMessage) {
  int message_parts_built = 0;
  auto part = [&] { return ++message_parts_built; };
  EXPECT_NO_THROW(RELAXC_ICHECK(1 + 1 == 2) << part());
  EXPECT_EQ(message_parts_built, 0);
}

TEST(InternalError, UnreachableThrows) {
  try {
    RELAXC_UNREACHABLE() << "bad kind " << 42;
    FAIL() << "expected an InternalError";
  } catch (const InternalError& e) {
    EXPECT_EQ(e.condition(), "unreachable");
    EXPECT_EQ(e.message(), "bad kind 42");
  }
}

TEST(InternalError, IsNotAUserError) {
  auto fail = [] { RELAXC_ICHECK(false) << "x"; };
  EXPECT_THROW(
      {
        try {
          fail();
        } catch (const UserError&) {
          FAIL() << "an internal error was caught as a user error";
        }
      },
      InternalError);
}

// A check that fails while an exception unwinds cannot throw; it prints and aborts.
struct CheckOnDestruction {
  ~CheckOnDestruction() { RELAXC_ICHECK(false) << "failed during unwinding"; }
};

TEST(InternalErrorDeathTest, FailedCheckDuringUnwindingAborts) {
  EXPECT_DEATH(
      {
        try {
          CheckOnDestruction guard;
          throw UserError(Span{}, "the first error");
        } catch (const UserError&) {
        }
      },
      "internal error: .*internal_error_test.cc:[0-9]+: check failed: false: failed during "
      "unwinding");
}

TEST(InternalError, BugReportNamesTheProgramAndAsksForAReport) {
  InternalError error("ir/tir/functor.h", 12, "typed != nullptr", "a mutator replaced a TirAdd");
  EXPECT_EQ(render_bug_report("relaxc build", error),
            "relaxc build: internal error: ir/tir/functor.h:12: check failed: typed != nullptr: "
            "a mutator replaced a TirAdd\n"
            "relaxc build: this is a bug in relaxc; please report it with the input and command "
            "that caused it\n");
}

}  // namespace
}  // namespace relaxc
