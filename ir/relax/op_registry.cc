// The operator registry. Built-in operators are registered on first lookup by
// register_builtin_ops() (ops/), so that no static initializer is needed.
#include "ir/relax/op_registry.h"

#include <memory>
#include <mutex>
#include <unordered_map>

#include "ir/relax/ops/builtin_ops.h"

namespace relaxc::relax {

namespace {

struct Registry {
  std::unordered_map<std::string, std::unique_ptr<OpInfo>> by_name;
  std::vector<const OpInfo*> in_order;
};

Registry& storage() {
  static Registry r;
  return r;
}

const Registry& registry() {
  static std::once_flag once;
  std::call_once(once, [] { register_builtin_ops(); });
  return storage();
}

}  // namespace

void register_op(OpInfo info) {
  Registry& r = storage();
  RELAXC_ICHECK(r.by_name.count(info.name) == 0) << "operator '" << info.name << "' registered twice";
  auto owned = std::make_unique<OpInfo>(std::move(info));
  r.in_order.push_back(owned.get());
  r.by_name.emplace(owned->name, std::move(owned));
}

const OpInfo* find_op(const std::string& name) {
  const Registry& r = registry();
  auto it = r.by_name.find(name);
  return it == r.by_name.end() ? nullptr : it->second.get();
}

const std::vector<const OpInfo*>& all_ops() { return registry().in_order; }

std::string op_script_name(const std::string& op_name) {
  const std::string prefix = "relax.";
  return op_name.compare(0, prefix.size(), prefix) == 0 ? op_name.substr(prefix.size()) : op_name;
}

}  // namespace relaxc::relax
