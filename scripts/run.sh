#!/usr/bin/env bash
# The main job: installs what is missing, builds relaxc (Release), then checks and prints
# every module in examples/ (the normalized module, every binding with its StructInfo)
# and compiles its TensorIR functions to SPIR-V for the Vulkan device present (lavapipe
# where there is no GPU), checking each module with spirv-val.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-release"
jobs=${RELAXC_JOBS:-$(nproc)}

"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" -j "$jobs" --quiet relaxc

status=0
for example in "$root"/examples/*.py; do
  name=${example#"$root"/}
  echo "== relaxc check $name"
  if "$build/relaxc" check "$example"; then
    echo "ok: well formed"
  else
    status=1
  fi
  echo "== relaxc print $name"
  "$build/relaxc" print "$example" || status=1
  spv="$build/$(basename "$example" .py).spv"
  echo "== relaxc codegen --target vulkan $name -o $spv"
  if "$build/relaxc" codegen --target vulkan "$example" -o "$spv" &&
    spirv-val --target-env vulkan1.1 "$spv"; then
    echo "ok: $(stat -c %s "$spv") bytes of SPIR-V, valid for Vulkan 1.1"
  else
    status=1
  fi
done
exit "$status"
