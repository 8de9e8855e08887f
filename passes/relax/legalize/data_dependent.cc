// Legalizations of the operators whose result shape depends on the data (nonzero,
// unique): none yet. Their result's size is known only after the kernel runs, which
// needs a device-to-host read of the size before the result can be allocated; until
// the VM has that, legalize-ops refuses them where they are written.
#include "passes/relax/legalize/legalize.h"

namespace relaxc::relax {

void add_data_dependent_legalizations(LegalizationTable& table) {
  LegalizeFn refuse = [](LegalizeContext& ctx) -> Expr {
    user_error(ctx.span()) << ctx.describe()
                           << ": the shape of its result depends on the data, which relaxc "
                              "cannot compile yet; compute it on the host and pass it in, or "
                              "write the kernel with R.call_tir and an upper bound on the size";
  };
  table["relax.nonzero"] = refuse;
  table["relax.unique"] = refuse;
}

}  // namespace relaxc::relax
