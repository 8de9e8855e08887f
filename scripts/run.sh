#!/usr/bin/env bash
# The main job: installs what is missing, builds relaxc (Release), then builds the example
# module (examples/mlp.py: TensorIR kernels and a symbolic batch size) into one executable
# with kernels for Vulkan (the limits of the device present) and CUDA, runs it on the best
# device present (a CUDA GPU, else a Vulkan GPU, else lavapipe; RELAXC_DEVICE chooses
# another) on generated .npy inputs, and checks the output against a reference computed
# in Python. Then an ONNX model (scripts/onnx_example.py: a small CNN classifier with a
# dynamic batch): imported to TVMScript with its weights side file, built once for both
# targets, run at two batch sizes and checked against NumPy.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-release"
jobs=${RELAXC_JOBS:-$(nproc)}
relaxc="$build/relaxc"

"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" -j "$jobs" --quiet relaxc

work="$build/main-job"
rm -rf "$work"
mkdir -p "$work"
example="$root/examples/mlp.py"

echo "== relaxc check examples/mlp.py"
"$relaxc" check "$example"
echo "ok: well formed"

echo "== relaxc build examples/mlp.py --target vulkan --target cuda -o $work/mlp.rxe"
"$relaxc" build "$example" --target vulkan --target cuda -o "$work/mlp.rxe"
echo "ok: $(stat -c %s "$work/mlp.rxe") bytes"

echo "== relaxc inspect $work/mlp.rxe (first lines)"
"$relaxc" inspect "$work/mlp.rxe" | sed -n 1,12p

python3 "$root/scripts/mlp_data.py" inputs "$work" --batch "${RELAXC_BATCH:-6}"
device=${RELAXC_DEVICE:-auto}
echo "== relaxc run mlp.rxe --device $device --input images.npy --input w.npy --input b.npy"
"$relaxc" run "$work/mlp.rxe" --device "$device" --function main --input "$work/images.npy" \
  --input "$work/w.npy" --input "$work/b.npy" --output-dir "$work/out"
python3 "$root/scripts/mlp_data.py" check "$work" "$work/out/main_0.npy"

# An ONNX model: a small CNN classifier with a dynamic batch, made here with python3-onnx
# (Debian's /usr/bin/python3 has it), imported, built once and run at two batch sizes.
python=/usr/bin/python3
[[ -x $python ]] || python=python3
onnx_work="$work/onnx"
mkdir -p "$onnx_work"
echo "== an ONNX model: scripts/onnx_example.py make (Conv, Relu, MaxPool, GlobalAveragePool, Gemm, Softmax)"
"$python" "$root/scripts/onnx_example.py" make "$onnx_work"
echo "== relaxc import classifier.onnx -o classifier.py (weights in classifier.safetensors)"
"$relaxc" import "$onnx_work/classifier.onnx" -o "$onnx_work/classifier.py"
sed -n '/def main/,/R.dataflow/p' "$onnx_work/classifier.py"
echo "== relaxc build classifier.onnx --target vulkan --target cuda -o classifier.rxe"
"$relaxc" build "$onnx_work/classifier.onnx" --target vulkan --target cuda \
  -o "$onnx_work/classifier.rxe"
for batch in 1 ${RELAXC_BATCH:-6}; do
  "$python" "$root/scripts/onnx_example.py" make "$onnx_work" --batch "$batch" >/dev/null
  echo "== relaxc run classifier.rxe --device $device --input images.npy (batch $batch)"
  "$relaxc" run "$onnx_work/classifier.rxe" --device "$device" --input "$onnx_work/images.npy" \
    --output-dir "$onnx_work/out" | cut -c1-100
  "$python" "$root/scripts/onnx_example.py" check "$onnx_work" "$onnx_work/out/main_0.npy"
done
