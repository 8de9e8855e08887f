#!/usr/bin/env bash
# Installs what is missing, then builds relaxc and runs every test (GoogleTest and lit,
# through ctest) twice: in a build with warnings as errors, then in a build with
# AddressSanitizer and UndefinedBehaviorSanitizer (clang) that halts on the first error
# and also builds the libFuzzer harnesses; then runs each harness of that build briefly
# (scripts/fuzz.sh --no-build, RELAXC_CI_FUZZ_SECONDS each, default 30), each harness
# counting as one test; then runs several VMs on threads in a ThreadSanitizer build of
# the runtime (scripts/tsan_threads.sh), one test.
#
# It ends with a line in ctest's summary format over both builds and exits non-zero on
# any failure. A build that does not compile counts as one failed test (and when the
# first build fails to compile, the sanitizer build is not attempted).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# clang's unoptimized ASan frames of the VM's interpreter take about 10 KiB per nested
# bytecode call, so the tests and fuzz inputs that recurse to the VM's limit of 1000
# calls need more than the usual 8 MiB of stack in the sanitizer build (the gcc and
# optimized builds need far less).
ulimit -s 65536 || echo "test: warning: cannot raise the stack limit to 64 MiB" >&2
jobs=${RELAXC_JOBS:-$(nproc)}
# A test that runs longer than this fails (lit's directories set their own 600 s): the
# whole script must stay under 45 minutes on CI's two cores.
test_timeout=300

if ! "$root/scripts/setup.sh"; then
  echo "test: error: installing the required packages failed" >&2
  exit 1
fi
# Where this run happens, so that a failing run says where it failed.
echo "== machine"
"$root/scripts/machine_info.sh"

summaries=()
total_tests=0
total_failed=0

# run_build LABEL DIR ENV_ASSIGNMENTS -- CMAKE_ARGS...: configures and builds everything
# in DIR, then runs ctest there; the environment assignments apply to the build (which
# runs test binaries to list their tests) and to ctest. Returns 1 on a build failure.
run_build() {
  local label=$1 dir=$2
  shift 2
  local test_env=()
  while [[ $1 != -- ]]; do
    test_env+=("$1")
    shift
  done
  shift

  local start=$SECONDS
  echo "== [$label] configure and build in ${dir#"$root"/}"
  if ! cmake -S "$root" -B "$dir" -G Ninja "$@" ||
    ! env "${test_env[@]}" ninja -C "$dir" -j "$jobs"; then
    echo "== [$label] the build FAILED"
    summaries+=("[$label] build failed")
    total_tests=$((total_tests + 1))
    total_failed=$((total_failed + 1))
    return 1
  fi
  echo "== [$label] built in $((SECONDS - start)) s; running ctest"

  start=$SECONDS
  local log="$dir/ctest.log"
  env "${test_env[@]}" ctest --test-dir "$dir" -j "$jobs" --output-on-failure \
    --timeout "$test_timeout" 2>&1 | tee "$log"
  local ctest_status=${PIPESTATUS[0]}
  local summary
  summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1)
  echo "== [$label] ctest finished in $((SECONDS - start)) s"
  if [[ -z $summary ]]; then
    summaries+=("[$label] ctest reported no result (exit status $ctest_status)")
    total_tests=$((total_tests + 1))
    total_failed=$((total_failed + 1))
    return 0
  fi
  summaries+=("[$label] $summary")
  local failed total
  read -r failed total < <(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1 \2/' \
    <<<"$summary")
  if ((ctest_status != 0 && failed == 0)); then
    failed=1  # ctest failed outside any test (a discovery or configuration error)
  fi
  total_tests=$((total_tests + total))
  total_failed=$((total_failed + failed))
  return 0
}

# Both builds are unoptimized: compiling dominates the time, and the tests that run long
# (the parser fuzz test) are bounded by time rather than by work.
# The sanitizer build is clang's and also builds the libFuzzer harnesses (coverage
# instrumentation on everything), which saves CI a third build of the same sources.
sanitize_build=$root/build-sanitize
if run_build normal "$root/build-werror" -- -DRELAXC_WERROR=ON -DCMAKE_BUILD_TYPE= &&
  run_build sanitize "$sanitize_build" \
    ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:strict_string_checks=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "LSAN_OPTIONS=suppressions=$root/tests/lsan_suppressions.txt" \
    -- -DCMAKE_CXX_COMPILER=clang++-14 -DRELAXC_SANITIZE=address,undefined -DRELAXC_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g1" -DRELAXC_BENCH=OFF; then
  # The fuzz harnesses of the sanitizer build, seeded with executables that the normal
  # build's relaxc compiles.
  start=$SECONDS
  fuzz_log=$sanitize_build/fuzz.log
  RELAXC_FUZZ_BUILD=$sanitize_build RELAXC_SEED_COMPILER=$root/build-werror/relaxc \
    "$root/scripts/fuzz.sh" --no-build --time "${RELAXC_CI_FUZZ_SECONDS:-30}" 2>&1 |
    tee "$fuzz_log"
  fuzz_status=${PIPESTATUS[0]}
  echo "== [fuzz] finished in $((SECONDS - start)) s"
  fuzz_harnesses=$(grep -cE '^\[fuzz_[a-z]+\] ' "$fuzz_log")
  fuzz_crashed=$(grep -cE '^\[fuzz_[a-z]+\] crashed' "$fuzz_log")
  if ((fuzz_status != 0 && fuzz_crashed == 0)); then
    fuzz_harnesses=$((fuzz_harnesses + 1))  # the fuzz build or the script failed
    fuzz_crashed=$((fuzz_crashed + 1))
  fi
  summaries+=("[fuzz] $fuzz_crashed of $fuzz_harnesses harnesses crashed")
  total_tests=$((total_tests + fuzz_harnesses))
  total_failed=$((total_failed + fuzz_crashed))
fi

# Several VMs on threads under ThreadSanitizer (a build of the runtime alone): one test.
if [[ -x $root/build-werror/relaxc ]]; then
  start=$SECONDS
  if RELAXC_COMPILER=$root/build-werror/relaxc "$root/scripts/tsan_threads.sh"; then
    summaries+=("[threads] ThreadSanitizer: 8 VMs on threads passed")
  else
    summaries+=("[threads] ThreadSanitizer: 8 VMs on threads FAILED")
    total_failed=$((total_failed + 1))
  fi
  total_tests=$((total_tests + 1))
  echo "== [threads] finished in $((SECONDS - start)) s"
fi

echo "== summary"
printf '%s\n' "${summaries[@]}"
# The combined line follows ctest's rounding: never 100% while anything failed.
passed=$((total_tests - total_failed))
percent=0
if ((total_tests > 0)); then
  percent=$(((passed * 200 + total_tests) / (2 * total_tests)))
  if ((total_failed > 0 && percent > 99)); then
    percent=99
  fi
fi
echo "${percent}% tests passed, ${total_failed} tests failed out of ${total_tests}"
if ((total_failed > 0 || total_tests == 0)); then
  exit 1
fi
