// Node deletion without deep recursion.
#include "ir/support/object.h"

#include <vector>

namespace relaxc {

void destroy_node(const Object* node) {
  // Deliberately never freed: nodes held by static objects are released during exit,
  // possibly after this thread's thread_local objects with destructors are gone, so
  // the queue must have no destructor of its own.
  thread_local std::vector<const Object*>* pending = nullptr;
  thread_local bool deleting = false;
  if (deleting) {
    if (pending == nullptr) pending = new std::vector<const Object*>();
    pending->push_back(node);
    return;
  }
  deleting = true;
  delete node;
  while (pending != nullptr && !pending->empty()) {
    const Object* next = pending->back();
    pending->pop_back();
    delete next;
  }
  deleting = false;
}

}  // namespace relaxc
