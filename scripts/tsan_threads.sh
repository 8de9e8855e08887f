#!/usr/bin/env bash
# ThreadSanitizer over several VMs running at once: builds the runtime and the embedding
# example examples/embed/embed_mlp.cc (which links the runtime alone) with clang's
# -fsanitize=thread in build-tsan/ (RELAXC_TSAN_BUILD), compiles examples/mlp.py with a
# normal build's relaxc (RELAXC_COMPILER, default build-werror/relaxc), and runs
# `embed_mlp ... --threads 8` on the best device present: eight VMs, each on its own
# thread, sharing one loaded executable and one device. Fails on any ThreadSanitizer
# report or a result that differs from the single-threaded one.
#
#   scripts/tsan_threads.sh [--no-build]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RELAXC_TSAN_BUILD:-$root/build-tsan}
compiler=${RELAXC_COMPILER:-$root/build-werror/relaxc}
jobs=${RELAXC_JOBS:-$(nproc)}

case ${1:-} in
  "") build_first=1 ;;
  --no-build) build_first=0 ;;
  *) echo "usage: scripts/tsan_threads.sh [--no-build]" >&2; exit 2 ;;
esac

if [[ ! -x $compiler ]]; then
  echo "tsan_threads: error: no relaxc at $compiler (build it first, or set RELAXC_COMPILER)" >&2
  exit 1
fi
if ((build_first)); then
  echo "== tsan_threads: build the runtime and embed_mlp in ${build#"$root"/}"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
    -DRELAXC_SANITIZE=thread -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DRELAXC_BENCH=OFF >/dev/null
  ninja -C "$build" -j "$jobs" embed_mlp
fi

work=$build/tsan_threads
rm -rf "$work"
mkdir -p "$work"
/usr/bin/python3 "$root/scripts/mlp_data.py" inputs "$work" --batch 16 >/dev/null
"$compiler" build "$root/examples/mlp.py" --target vulkan -o "$work/mlp.rxe"
echo "== tsan_threads: embed_mlp --threads 8 under ThreadSanitizer"
if ! TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  "$build/embed_mlp" "$work/mlp.rxe" "$work/images.npy" "$work/w.npy" "$work/b.npy" \
  "$work/out.npy" --threads 8; then
  echo "tsan_threads: FAILED (a ThreadSanitizer report or a wrong result, above)" >&2
  exit 1
fi
/usr/bin/python3 "$root/scripts/mlp_data.py" check "$work" "$work/out.npy"
echo "tsan_threads: ok"
