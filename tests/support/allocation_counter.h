// Counting the host's heap allocations: allocation_counter.cc replaces the global
// operator new, and a test binary gets that replacement by calling heap_allocations()
// (the linker takes the object file from the support library only then).
#pragma once
#include <cstdint>

namespace relaxc::testing {

// Every operator new (and new[]) since the program started.
int64_t heap_allocations();

}  // namespace relaxc::testing
