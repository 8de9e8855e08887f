#!/usr/bin/env bash
# Installs the Debian packages relaxc needs to build and test, when any is missing.
#
# Each package is looked up with dpkg-query; when all are installed this returns at once
# without touching apt. Otherwise it runs `apt-get update` and installs only the missing
# ones, non-interactively, as root or through sudo.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  lld                                        # LLVM's linker: links ~5x faster than GNU ld
  llvm-19-dev llvm-19-tools                  # LLVM (NVPTX back end); FileCheck and lit
  spirv-tools spirv-headers                  # SPIR-V validation
  libvulkan-dev mesa-vulkan-drivers          # Vulkan loader and lavapipe (CPU Vulkan)
  vulkan-validationlayers                    # Khronos validation layer for the tests
  vulkan-tools                               # vulkaninfo: the devices a test run saw
  libgtest-dev libbenchmark-dev
  glslc                                      # compiles bench/glsl's shaders (the GLSL benchmark)
  python3-numpy                              # references of the operator tests (tests/lit/ops)
  libonnx-dev libprotobuf-dev                # the ONNX frontend (frontend/onnx)
  python3-onnx                               # ONNX models of the frontend's tests (tests/lit/onnx)
  python3-torch                              # models exported from PyTorch (scripts/onnx_models.py)
  clang-14 libclang-rt-14-dev                # the libFuzzer harnesses (scripts/fuzz.sh)
)

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "setup: dpkg-query not found (not a Debian system); make sure these are installed:" >&2
  echo "  ${packages[*]}" >&2
  exit 0
fi

is_installed() {
  # One status line per known architecture; "installed" on any of them is enough.
  local status
  status=$(dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null) || true
  grep -qx installed <<<"$status"
}

missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "setup: error: missing packages (${missing[*]}) and neither root nor sudo" >&2
  exit 1
fi
apt_env=(env DEBIAN_FRONTEND=noninteractive)
"${as_root[@]}" "${apt_env[@]}" apt-get update -q
"${as_root[@]}" "${apt_env[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"

for package in "${missing[@]}"; do
  if ! is_installed "$package"; then
    echo "setup: error: $package is still not installed" >&2
    exit 1
  fi
done
