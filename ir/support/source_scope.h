// SourceFileScope: gives the source texts read on this thread while it lives back when it
// ends.
//
// SourceFile::add keeps every text for the life of the process, so that a Span can be a
// plain pointer. A process that reads many inputs one after another (the parser fuzzer,
// a program that embeds the compiler and compiles module after module) would grow
// without bound; inside a scope, the texts belong to the scope instead. Everything that
// holds a Span into them (modules, expressions, errors not yet rendered) must be gone
// when the scope ends. Scopes nest; each captures what its own thread adds.
#pragma once

#include <deque>

#include "ir/support/diagnostics.h"

namespace relaxc {

class SourceFileScope {
 public:
  SourceFileScope();
  ~SourceFileScope();
  SourceFileScope(const SourceFileScope&) = delete;
  SourceFileScope& operator=(const SourceFileScope&) = delete;

 private:
  friend struct SourceFile;
  std::deque<SourceFile> files_;
  SourceFileScope* outer_;
};

}  // namespace relaxc
