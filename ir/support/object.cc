// Node deletion without deep recursion.
#include "ir/support/object.h"

#include <vector>

namespace relaxc {

namespace {

// Set once this thread's queue is destroyed: nodes that static objects release during
// exit are then deleted directly. A plain bool has no destructor, so reading it stays
// valid after the queue is gone.
thread_local bool queue_destroyed = false;

struct DeletionQueue {
  std::vector<const Object*> pending;
  bool deleting = false;
  ~DeletionQueue() { queue_destroyed = true; }
};

thread_local DeletionQueue queue;

}  // namespace

void destroy_node(const Object* node) {
  if (queue_destroyed) {
    delete node;
    return;
  }
  if (queue.deleting) {
    queue.pending.push_back(node);
    return;
  }
  queue.deleting = true;
  delete node;
  while (!queue.pending.empty()) {
    const Object* next = queue.pending.back();
    queue.pending.pop_back();
    delete next;
  }
  queue.deleting = false;
}

}  // namespace relaxc
