// A deterministic mutation fuzzer over the executable loader: starting from valid files,
// it flips bits, overwrites bytes, truncates, splices, and sets length fields to huge
// values, and loads most of them without checking the sections' checksums (to reach the
// checks behind them). Every input must either load or throw a RuntimeError; what loads is also
// printed as text, saved again, and has its int programs evaluated on random slots.
// A second test does the same for random int programs. Both together run for
// RELAXC_FUZZ_SECONDS (default 10); CI also runs them under ASan and UBSan.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/vm/executable.h"
#include "tests/unit/executable_samples.h"

namespace relaxc::runtime::vm {
namespace {

using Bytes = std::vector<uint8_t>;

double fuzz_seconds() {
  const char* env = std::getenv("RELAXC_FUZZ_SECONDS");
  if (env == nullptr) return 10.0;
  char* end = nullptr;
  const double s = std::strtod(env, &end);
  return end != env && s >= 0 ? s : 10.0;
}

// Values that make lengths, indices and int program operands hostile.
constexpr uint64_t kInteresting[] = {0,
                                     1,
                                     2,
                                     3,
                                     7,
                                     0x7f,
                                     0xff,
                                     0x7fffffff,
                                     0x80000000,
                                     0xffffffff,
                                     uint64_t{1} << 32,
                                     uint64_t{1} << 40,
                                     uint64_t{1} << 62,
                                     uint64_t{std::numeric_limits<int64_t>::max()},
                                     uint64_t{1} << 63,
                                     ~uint64_t{0},
                                     ~uint64_t{0} - 1};

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  uint64_t below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }

  // One to four mutations of `input`, `donor` a source of spliced bytes.
  Bytes mutate(Bytes input, const Bytes& donor) {
    const uint64_t rounds = 1 + below(4);
    for (uint64_t r = 0; r < rounds; ++r) mutate_once(input, donor);
    return input;
  }

 private:
  void put_u64(Bytes& b, size_t pos, uint64_t v, size_t width) {
    for (size_t i = 0; i < width && pos + i < b.size(); ++i) {
      b[pos + i] = static_cast<uint8_t>(v >> (8 * i));
    }
  }

  // A position that holds a small little-endian integer: likely a length, an index or
  // an int program operand, which the hostile values are aimed at.
  size_t small_integer_position(const Bytes& b) {
    for (int tries = 0; tries < 32 && b.size() >= 8; ++tries) {
      const size_t pos = below(b.size() - 7);
      uint64_t v = 0;
      for (size_t i = 0; i < 8; ++i) v |= uint64_t{b[pos + i]} << (8 * i);
      if (v != 0 && v < 4096) return pos;
    }
    return below(b.size());
  }

  void mutate_once(Bytes& b, const Bytes& donor) {
    switch (below(8)) {
      case 0:  // flip a bit
        if (!b.empty()) b[below(b.size())] ^= static_cast<uint8_t>(1u << below(8));
        break;
      case 1:  // overwrite a byte
        if (!b.empty()) b[below(b.size())] = static_cast<uint8_t>(rng_());
        break;
      case 2:  // truncate
        b.resize(below(b.size() + 1));
        break;
      case 3: {  // a hostile value where a length or index probably is
        if (b.empty()) break;
        const uint64_t v = kInteresting[below(std::size(kInteresting))];
        const size_t widths[] = {1, 2, 4, 8};
        put_u64(b, small_integer_position(b), below(4) == 0 ? v + below(3) : v, widths[below(4)]);
        break;
      }
      case 4: {  // splice: overwrite with a chunk of the donor
        if (donor.empty() || b.empty()) break;
        const size_t from = below(donor.size());
        const size_t n = 1 + below(std::min<size_t>(64, donor.size() - from));
        const size_t to = below(b.size());
        for (size_t i = 0; i < n && to + i < b.size(); ++i) b[to + i] = donor[from + i];
        break;
      }
      case 5: {  // splice: insert a chunk of the donor
        if (donor.empty()) break;
        const size_t from = below(donor.size());
        const size_t n = 1 + below(std::min<size_t>(64, donor.size() - from));
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(below(b.size() + 1)),
                 donor.begin() + static_cast<std::ptrdiff_t>(from),
                 donor.begin() + static_cast<std::ptrdiff_t>(from + n));
        break;
      }
      case 6: {  // delete a range
        if (b.empty()) break;
        const size_t at = below(b.size());
        const size_t n = 1 + below(std::min<size_t>(32, b.size() - at));
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
                b.begin() + static_cast<std::ptrdiff_t>(at + n));
        break;
      }
      default: {  // duplicate a range in place
        if (b.empty()) break;
        const size_t at = below(b.size());
        const size_t n = 1 + below(std::min<size_t>(32, b.size() - at));
        const Bytes chunk(b.begin() + static_cast<std::ptrdiff_t>(at),
                          b.begin() + static_cast<std::ptrdiff_t>(at + n));
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), chunk.begin(), chunk.end());
        break;
      }
    }
  }

  std::mt19937_64 rng_;
};

// Evaluates a program that loaded (so it is valid) on random slots: it must return or
// throw a RuntimeError, never overflow or divide by zero silently.
void evaluate_on_random_slots(Mutator& m, const IntProgram& p, size_t num_slots) {
  std::vector<int64_t> slots(num_slots);
  for (int64_t& s : slots) {
    s = m.below(4) == 0 ? static_cast<int64_t>(kInteresting[m.below(std::size(kInteresting))])
                        : static_cast<int64_t>(m.below(200)) - 100;
  }
  try {
    evaluate_int_program(p, slots, "fuzz");
  } catch (const RuntimeError&) {
  }
}

// What the VM and `relaxc inspect` do with a loaded executable, short of running it.
void exercise(Mutator& m, const Executable& exe) {
  EXPECT_FALSE(executable_to_text(exe).empty());
  // Compared as bytes: a mutated float constant may be a NaN, unequal to itself.
  const Bytes saved = save_executable(exe);
  EXPECT_EQ(save_executable(load_executable(saved)), saved);  // saving restamps the checksums
  for (const HostFunc& h : exe.host_funcs) {
    for (const auto& store : h.stores) evaluate_on_random_slots(m, store.second, m.below(8));
  }
  for (const Backend& b : exe.backends) {
    for (const KernelFunc& kf : b.kernel_funcs) {
      const size_t slots = static_cast<size_t>(kf.num_slots);
      for (const KernelParam& p : kf.params) {
        for (const KernelDim& d : p.shape) evaluate_on_random_slots(m, d.extent, slots);
      }
      for (const KernelWorkspace& w : kf.workspaces) evaluate_on_random_slots(m, w.bytes, slots);
      for (const KernelLaunchInfo& l : kf.launches) {
        for (const IntProgram& g : l.grid) evaluate_on_random_slots(m, g, slots);
        for (const IntProgram& s : l.scalar_args) evaluate_on_random_slots(m, s, slots);
      }
    }
  }
}

std::string hex(const Bytes& b) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint8_t byte : b) {
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  }
  return out;
}

using Clock = std::chrono::steady_clock;

// The time each of the two tests below runs: half of the budget.
Clock::time_point deadline_from_now() {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(fuzz_seconds() / 2));
}

// Random int programs, well formed or not, with hostile operands: validation answers,
// and evaluation returns or throws a RuntimeError (the evaluator also guards programs
// that skipped validation), never overflows or divides by zero silently.
TEST(ExecutableFuzz, RandomIntPrograms) {
  const auto deadline = deadline_from_now();
  Mutator m(0x1e7);
  uint64_t runs = 0, valid = 0, evaluated = 0;
  while (runs < 1000 || Clock::now() < deadline) {
    IntProgram p;
    const uint64_t length = 1 + m.below(24);
    for (uint64_t i = 0; i < length; ++i) {
      IntInstr in;
      // Mostly pushes, so that operators find operands; now and then an unknown op.
      const uint64_t r = m.below(100);
      in.op = r < 45   ? (m.below(2) ? IntOp::Const : IntOp::Load)
              : r < 99 ? static_cast<IntOp>(2 + m.below(kNumIntOps - 2))
                       : static_cast<IntOp>(kNumIntOps + m.below(200));
      if (in.op == IntOp::Const) {
        in.operand = m.below(3) == 0
                         ? static_cast<int64_t>(kInteresting[m.below(std::size(kInteresting))])
                         : static_cast<int64_t>(m.below(21)) - 10;
      } else if (in.op == IntOp::Load) {
        in.operand = static_cast<int64_t>(m.below(6)) - 1;
      }
      p.code.push_back(in);
    }
    ++runs;
    if (validate_int_program(p).empty()) {
      ++valid;
      EXPECT_EQ(int_program_to_string(p).find("<invalid"), std::string::npos);
    }
    std::vector<int64_t> slots(m.below(5));
    for (int64_t& s : slots) {
      s = m.below(3) == 0 ? static_cast<int64_t>(kInteresting[m.below(std::size(kInteresting))])
                          : static_cast<int64_t>(m.below(21)) - 10;
    }
    try {
      evaluate_int_program(p, slots, "fuzz");
      ++evaluated;
    } catch (const RuntimeError&) {
    }
  }
  std::cout << "int program fuzz: " << runs << " programs, " << valid << " valid, " << evaluated
            << " evaluated\n";
  EXPECT_GT(valid, 0u);
  EXPECT_GT(evaluated, 0u);
}

TEST(ExecutableFuzz, EveryInputLoadsOrThrowsRuntimeError) {
  const auto deadline = deadline_from_now();
  Executable small = testing::sample_executable();
  small.backends.resize(1);
  std::vector<Bytes> corpus = {save_executable(testing::sample_executable()),
                               save_executable(small), save_executable(Executable{})};
  constexpr size_t kMaxCorpus = 64;
  Mutator m(0x5eed);
  uint64_t runs = 0, loaded = 0;
  // At least a few hundred inputs, however short the time asked for.
  while (runs < 200 || Clock::now() < deadline) {
    const Bytes& parent = corpus[m.below(corpus.size())];
    const Bytes input = m.mutate(parent, corpus[m.below(corpus.size())]);
    ++runs;
    try {
      // Past the checksums (which a mutation nearly always breaks) to what they guard;
      // every tenth input with them.
      const Executable exe =
          load_executable(input, runs % 10 == 0 ? Checksums::Verify : Checksums::Ignore);
      ++loaded;
      exercise(m, exe);
      if (corpus.size() < kMaxCorpus && input != parent) corpus.push_back(input);
    } catch (const RuntimeError& e) {
      if (std::string(e.what()).rfind("executable: ", 0) != 0) {
        ADD_FAILURE() << "a load error that does not start with 'executable: ': " << e.what()
                      << "\ninput: " << hex(input);
        break;
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a RuntimeError: " << e.what() << "\ninput: " << hex(input);
      break;
    }
  }
  std::cout << "executable fuzz: " << runs << " inputs, " << loaded << " loaded, corpus "
            << corpus.size() << "\n";
  EXPECT_GE(runs, 200u);
}

}  // namespace
}  // namespace relaxc::runtime::vm
