#!/usr/bin/env bash
# Packs a build's GPU programs for a GPU machine that lacks the build's dependencies (LLVM,
# SPIRV-Tools, ONNX, protobuf): relaxc, the GPU test binaries of tests/gpu/run.sh and the
# benchmarks, stripped, each with the shared libraries it loads (all but the C library's),
# into one .tar.xz. Unpacked anywhere as DIR there, `tests/gpu/run.sh --no-build
# --build-dir DIR` and DIR/bench/ops_bench run as they would in the build folder.
#
# Usage: tests/gpu/pack.sh BUILD_DIR OUT.tar.xz [PROGRAM...]
#   PROGRAM  a program's path in BUILD_DIR (default: relaxc, the three test binaries of
#            tests/gpu/run.sh, and bench/ops_bench, kernels_bench, vm_bench, glsl_bench)
#
# Each program becomes a small shell script at its own path (DIR/relaxc, DIR/tests/NAME,
# DIR/bench/NAME) that runs the real program, kept in DIR/.pack/bin, with DIR/.pack/lib on
# LD_LIBRARY_PATH; so the libraries reach only the packed programs, never the machine's
# own (PyTorch's, say). A program the build lacks is left out with a message.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
build_dir=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
programs=(relaxc tests/cuda_device_test tests/cuda_replay_test tests/device_conformance_test tests/kernel_suite_test
          bench/ops_bench bench/kernels_bench bench/vm_bench bench/glsl_bench)
[[ $# -gt 0 ]] && programs=("$@")

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/.pack/bin" "$stage/.pack/lib" "$stage/tests" "$stage/bench"

# The C library's own objects are the machine's: packing them would mix two glibcs.
is_system_library() {
  [[ $1 =~ ^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt)[.-] ]]
}

for program in "${programs[@]}"; do
  if [[ ! -x "$build_dir/$program" ]]; then
    echo "tests/gpu/pack.sh: $build_dir/$program is not built: left out"
    continue
  fi
  name=$(basename "$program")
  cp "$build_dir/$program" "$stage/.pack/bin/$name"
  strip "$stage/.pack/bin/$name"
  while read -r library path; do
    is_system_library "$library" && continue
    [[ -f "$stage/.pack/lib/$library" ]] || cp -L "$path" "$stage/.pack/lib/$library"
  done < <(ldd "$build_dir/$program" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}')
  depth=$(tr -cd / <<<"$program" | wc -c)
  up=""
  for ((i = 0; i < depth; i++)); do up+="/.."; done
  cat >"$stage/$program" <<EOF
#!/bin/sh
# $name as packed by tests/gpu/pack.sh: the real program with its libraries.
root=\$(cd "\$(dirname "\$0")$up" && pwd)
LD_LIBRARY_PATH="\$root/.pack/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "\$root/.pack/bin/$name" "\$@"
EOF
  chmod +x "$stage/$program"
done

# The GLSL shaders the GLSL benchmark reads, where the build compiled them.
[[ -d "$build_dir/bench/glsl" ]] && cp -r "$build_dir/bench/glsl" "$stage/bench/glsl"

tar -C "$stage" -cf - . | xz -T0 -9 >"$out"
echo "tests/gpu/pack.sh: wrote $out ($(du -h "$out" | cut -f1))"
