#!/usr/bin/env bash
# The main job: installs what is missing, builds relaxc (Release), then checks and prints
# every module in examples/ (the normalized module, every binding with its StructInfo).
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
done
exit "$status"
