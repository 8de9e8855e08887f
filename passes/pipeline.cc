// The VM lowering pipeline: the minimum build's Relax passes as a straight list, with
// the module printed after each pass and each pass timed on request.
#include "passes/pipeline.h"

#include <chrono>
#include <ostream>
#include <utility>

#include "ir/text/printer.h"
#include "passes/relax/transforms.h"

namespace relaxc {
namespace {

// Runs the passes of a pipeline in order, reporting as `options` asks.
class PassRunner {
 public:
  PassRunner(IRModule module, const PipelineOptions& options)
      : module_(std::move(module)), options_(options) {}

  void run(const char* name, IRModule (*pass)(const IRModule&)) {
    auto start = std::chrono::steady_clock::now();
    module_ = pass(module_);
    if (options_.timing != nullptr) {
      double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      *options_.timing << name << " " << ms << " ms\n";
    }
    if (options_.print_after_each != nullptr) {
      *options_.print_after_each << "# after " << name << "\n"
                                 << text::print_module(module_) << "\n";
    }
  }

  IRModule take() { return std::move(module_); }

 private:
  IRModule module_;
  const PipelineOptions& options_;
};

}  // namespace

IRModule vm_lowering_pipeline(const IRModule& module, const PipelineOptions& options) {
  PassRunner runner(module, options);
  runner.run("lambda-lift", relax::lambda_lift);
  runner.run("to-non-dataflow", relax::to_non_dataflow);
  runner.run("remove-purity-checking", relax::remove_purity_checking);
  runner.run("call-tir-rewrite", relax::call_tir_rewrite);
  runner.run("vm-builtin-lower", relax::vm_builtin_lower);
  runner.run("vm-shape-lower", relax::vm_shape_lower);
  return runner.take();
}

}  // namespace relaxc
