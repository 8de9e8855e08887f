# lit configuration for relaxc's text tests (parser, printer, passes, diagnostics).
import os

import lit.formats

config.name = "relaxc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".py", ".relax"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.relaxc_obj_root, "tests", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.relaxc_obj_root, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%relaxc", os.path.join(config.relaxc_obj_root, "relaxc")))
config.substitutions.append(("%embed_mlp", os.path.join(config.relaxc_obj_root, "embed_mlp")))

# ptxas (CUDA toolkit) assembles the PTX of CUDA codegen tests where it is installed.
import shutil
ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas"
                                  if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# The operator tests (tests/lit/ops) compare with NumPy, which Debian's python3-numpy puts
# under /usr/bin/python3 (another python3 on PATH may lack it).
python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"
config.substitutions.append(("%python", python))
op_check = [python, os.path.join(config.test_source_root, "ops", "Inputs", "op_check.py"),
            "--relaxc", os.path.join(config.relaxc_obj_root, "relaxc")]
if ptxas:
    op_check += ["--ptxas", ptxas]
config.substitutions.append(("%op_check", " ".join(op_check)))

# The ONNX frontend's tests (tests/lit/onnx): scripts that build models with onnx.helper
# (Debian's python3-onnx, under /usr/bin/python3) and compare relaxc's outputs with NumPy.
config.substitutions.append(("%onnx_check", " ".join([
    python, os.path.join(config.test_source_root, "onnx", "Inputs", "onnx_check.py"),
    "--relaxc", os.path.join(config.relaxc_obj_root, "relaxc")])))

# Tests of models exported by PyTorch (Debian's python3-torch) run where it is installed.
import subprocess
if subprocess.run([python, "-c", "import torch"], capture_output=True).returncode == 0:
    config.available_features.add("torch")

# The float16 operator tests need a Vulkan device with float16 arithmetic and storage:
# the feature holds where relaxc builds a float16 kernel for the device present.
import subprocess
import tempfile
with tempfile.TemporaryDirectory() as scratch:
    module = os.path.join(scratch, "f16.py")
    with open(module, "w") as f:
        f.write("@I.ir_module\nclass Module:\n    @R.function\n"
                "    def main(x: R.Tensor((4,), dtype=\"float16\")):\n"
                "        y = R.add(x, x)\n        return y\n")
    probe = subprocess.run([os.path.join(config.relaxc_obj_root, "relaxc"), "build", module,
                            "--target", "vulkan", "-o", os.path.join(scratch, "f16.rxe")],
                           capture_output=True)
    if probe.returncode == 0:
        config.available_features.add("vulkan-float16")
