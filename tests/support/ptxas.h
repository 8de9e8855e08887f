// ptxas, NVIDIA's PTX assembler, run from tests to check that generated PTX assembles.
#pragma once
#include <string>

namespace relaxc::testing {

// The path of ptxas: $CUDA_HOME/bin/ptxas, /usr/local/cuda/bin/ptxas, else `ptxas` on
// PATH; empty where it is not installed.
std::string find_ptxas();

struct PtxasResult {
  bool ok = false;       // ptxas exited with status 0
  std::string messages;  // what it printed (errors, warnings)
};

// Assembles `ptx` for sm_<arch> with the ptxas at `ptxas` (from a temporary file, removed
// afterwards). With `verbose` (ptxas -v), the messages include each kernel's registers
// and spill stores/loads ("Used 40 registers", "0 bytes spill stores").
PtxasResult run_ptxas(const std::string& ptxas, const std::string& ptx, int arch,
                      bool verbose = false);

}  // namespace relaxc::testing
