// The GPU thread axes a loop binds to (T.thread_binding(n, thread="threadIdx.x")): the one
// table of their tags, with each axis's dimension and whether it indexes the threads of a
// block or the blocks of the grid.
#pragma once
#include <array>
#include <string_view>

#include "ir/tir/stmt.h"

namespace relaxc::tir {

struct ThreadAxis {
  std::string_view tag;  // "threadIdx.x"
  int dimension;         // 0, 1, 2 for x, y, z
  bool is_thread;        // threadIdx (a thread within its block), not blockIdx (a block)

  // The axis's position in kThreadAxes: 0..2 blockIdx.x/y/z, 3..5 threadIdx.x/y/z.
  constexpr int index() const { return (is_thread ? 3 : 0) + dimension; }
};

inline constexpr std::array<ThreadAxis, 6> kThreadAxes = {{
    {"blockIdx.x", 0, false},
    {"blockIdx.y", 1, false},
    {"blockIdx.z", 2, false},
    {"threadIdx.x", 0, true},
    {"threadIdx.y", 1, true},
    {"threadIdx.z", 2, true},
}};

constexpr const ThreadAxis& block_axis(int dimension) { return kThreadAxes[dimension]; }
constexpr const ThreadAxis& thread_axis(int dimension) { return kThreadAxes[3 + dimension]; }

// The axis `tag` names, or nullptr (an unknown tag, or "vthread").
constexpr const ThreadAxis* find_thread_axis(std::string_view tag) {
  for (const ThreadAxis& axis : kThreadAxes) {
    if (axis.tag == tag) return &axis;
  }
  return nullptr;
}

// Whether `tag` is threadIdx.x/y/z.
constexpr bool is_thread_index(std::string_view tag) {
  const ThreadAxis* axis = find_thread_axis(tag);
  return axis != nullptr && axis->is_thread;
}

// Whether `tag` is blockIdx.x/y/z.
constexpr bool is_block_index(std::string_view tag) {
  const ThreadAxis* axis = find_thread_axis(tag);
  return axis != nullptr && !axis->is_thread;
}

// The axis of a thread-bound loop of a lowered kernel (ir/tir/lowered_func.h), which
// starts at 0 and binds one of kThreadAxes; anything else is an internal error naming the
// loop and `kernel`, since kernel lowering makes only such loops.
const ThreadAxis& kernel_thread_axis(const ForNode& loop, const std::string& kernel);

}  // namespace relaxc::tir
