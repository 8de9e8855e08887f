# The main job's ONNX model (scripts/onnx_example.py: Conv, Relu, MaxPool,
# GlobalAveragePool, Flatten, Gemm, Softmax with a dynamic batch) through every way in:
# run the .onnx directly, build it once and run the executable at two batch sizes, and
# import it to TVMScript whose weights (over 64 elements) go to a safetensors side file
# that building the .py reads back. Each output is checked against NumPy.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %S/../../../scripts/onnx_example.py make %t --batch 2
# RUN: %relaxc run %t/classifier.onnx --input %t/images.npy --output-dir %t/direct | FileCheck %s --check-prefix=DIRECT
# RUN: %python %S/../../../scripts/onnx_example.py check %t %t/direct/main_0.npy
# RUN: %relaxc build %t/classifier.onnx --target "vulkan -profile=desktop" -o %t/c.rxe
# RUN: %relaxc run %t/c.rxe --input %t/images.npy --output-dir %t/rxe2
# RUN: %python %S/../../../scripts/onnx_example.py check %t %t/rxe2/main_0.npy
# RUN: %relaxc import %t/classifier.onnx -o %t/classifier.py
# RUN: FileCheck %s --check-prefix=TEXT < %t/classifier.py
# RUN: test -s %t/classifier.safetensors
# RUN: %python %S/../../../scripts/onnx_example.py make %t --batch 5
# RUN: %relaxc run %t/c.rxe --input %t/images.npy --output-dir %t/rxe5
# RUN: %python %S/../../../scripts/onnx_example.py check %t %t/rxe5/main_0.npy
# RUN: %relaxc build %t/classifier.py --target "vulkan -profile=desktop" -o %t/from_py.rxe
# RUN: %relaxc run %t/from_py.rxe --input %t/images.npy --output-dir %t/py5
# RUN: %python %S/../../../scripts/onnx_example.py check %t %t/py5/main_0.npy
# RUN: rm %t/classifier.safetensors
# RUN: not %relaxc build %t/classifier.py --target "vulkan -profile=desktop" -o %t/x.rxe 2>&1 | FileCheck %s --check-prefix=MISSING

# DIRECT: main_0 'probabilities': float32 (2, 10)
# TEXT: def main(images: R.Tensor(("batch", 3, 16, 16), dtype="float32")) -> R.Tensor(("batch", 10), dtype="float32"):
# TEXT: metadata["relax.expr.Constant"][0]
# MISSING: classifier.safetensors
