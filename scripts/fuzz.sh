#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz (clang-14, AddressSanitizer and
# UndefinedBehaviorSanitizer) and runs each for a time or a number of executions.
#
#   scripts/fuzz.sh [--time SECONDS | --runs N] [--workers W] [--no-build] [HARNESS...]
#
# HARNESS is fuzz_parser, fuzz_executable, fuzz_npy or fuzz_onnx (default: all), each run
# in turn for SECONDS (default 60) or N executions in all. The build and everything the
# runs keep live in build-fuzz/ (RELAXC_FUZZ_BUILD): the seeds (the modules of
# tests/corpus, examples and tests/lit; the executables a normal build's relaxc,
# RELAXC_SEED_COMPILER, default build-werror/relaxc, compiles from them; the .onnx models
# that build's tests wrote; the .npy files of tests/fuzz/make_npy_seeds.py),
# the corpus each run grows and the next resumes from, and the crashing inputs. With
# --workers W (default 1), W processes fuzz each harness at once on the shared corpus
# (each doing its share of N, or all running for SECONDS), for machines with W cores.
# --no-build runs the harnesses already built there (on a machine without clang, with
# build-fuzz copied to it; or CI's sanitizer build, configured with -DRELAXC_FUZZ=ON).
# A worker runs in rounds of 100000 executions, each a fresh process, so that a slow
# leak in a harness shows as a leak report at a round's end rather than as memory
# growing without bound.
#
# Prints each harness's executions and, for a crash, the input that reproduces it; exits
# 1 when any harness crashed, 2 on a usage error.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${RELAXC_FUZZ_BUILD:-$root/build-fuzz}
seed_compiler=${RELAXC_SEED_COMPILER:-$root/build-werror/relaxc}
jobs=${RELAXC_JOBS:-$(nproc)}
all_harnesses=(fuzz_parser fuzz_executable fuzz_npy fuzz_onnx)

usage() {
  echo "usage: scripts/fuzz.sh [--time SECONDS | --runs N] [--workers W] [--no-build] [HARNESS...]" >&2
  echo "harnesses: ${all_harnesses[*]}" >&2
  exit 2
}

seconds=60
runs=
workers=1
build_first=1
harnesses=()
while (($#)); do
  case $1 in
    --time) [[ ${2:-} =~ ^[0-9]+$ ]] || usage; seconds=$2; runs=; shift 2 ;;
    --runs) [[ ${2:-} =~ ^[0-9]+$ ]] || usage; runs=$2; shift 2 ;;
    --workers) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage; workers=$2; shift 2 ;;
    --no-build) build_first=0; shift ;;
    -h | --help) usage ;;
    fuzz_parser | fuzz_executable | fuzz_npy | fuzz_onnx) harnesses+=("$1"); shift ;;
    *) echo "fuzz: error: unknown argument '$1'" >&2; usage ;;
  esac
done
((${#harnesses[@]})) || harnesses=("${all_harnesses[@]}")

if ((build_first)); then
  echo "== fuzz: build in ${build#"$root"/}"
  start=$SECONDS
  if ! cmake -S "$root" -B "$build" -G Ninja -DRELAXC_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_BUILD_TYPE= "-DCMAKE_CXX_FLAGS=-O1 -g1" >/dev/null ||
    ! ninja -C "$build" -j "$jobs" "${harnesses[@]}"; then
    echo "fuzz: error: the fuzz build failed" >&2
    exit 1
  fi
  echo "== fuzz: built in $((SECONDS - start)) s"
else
  for harness in "${harnesses[@]}"; do
    if [[ ! -x $build/tests/fuzz/$harness ]]; then
      echo "fuzz: error: --no-build, but there is no $build/tests/fuzz/$harness" >&2
      exit 1
    fi
  done
fi

# The text modules of the test suites: the parser's seeds, and the executables' sources.
seed_modules() {
  find "$root/tests/corpus" "$root/examples" "$root/tests/lit" -name '*.py' ! -name 'lit.cfg.py' |
    sort
}

# make_seeds HARNESS DIR: fills DIR with the harness's seeds (made again on every run, so
# that they follow the sources).
make_seeds() {
  local harness=$1 dir=$2
  rm -rf "$dir"
  mkdir -p "$dir"
  case $harness in
    fuzz_parser)
      local module
      while read -r module; do
        cp "$module" "$dir/$(basename "$(dirname "$module")")_$(basename "$module")"
      done < <(seed_modules)
      ;;
    fuzz_executable)
      if [[ ! -x $seed_compiler ]]; then
        echo "fuzz: warning: no $seed_compiler to compile seed executables with" \
          "(build it, or set RELAXC_SEED_COMPILER); starting from an empty corpus" >&2
        return
      fi
      # Many modules are refused (error tests, operators without a VM lowering): the seeds
      # are those that build. One build per core at a time.
      seed_modules | tr '\n' '\0' |
        xargs -0 -P "$jobs" -I{} sh -c '"$1" build "$2" --target "vulkan -profile=desktop" \
          -o "$3/$(basename "$(dirname "$2")")_$(basename "$2" .py).rxe" >/dev/null 2>&1 || true' \
          sh "$seed_compiler" {} "$dir"
      ;;
    fuzz_npy) python3 "$root/tests/fuzz/make_npy_seeds.py" "$dir" ;;
    fuzz_onnx)
      # The models that the normal build's ONNX tests wrote (lit tests, node tests).
      local seed_build model n=0
      seed_build=$(dirname "$seed_compiler")
      while read -r model; do
        n=$((n + 1))
        cp "$model" "$dir/$n.onnx"
      done < <(find "$seed_build/tests" -name '*.onnx' -size -1048576c 2>/dev/null | sort)
      if ((n == 0)); then
        echo "fuzz: warning: no .onnx models under $seed_build/tests to seed fuzz_onnx with" \
          "(run the normal build's tests first); starting from the corpus" >&2
      fi
      ;;
  esac
}

# The harness's options: the dictionary, the budget per input, where crashes go.
harness_options() {
  local harness=$1
  local options=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -close_fd_mask=1
    "-artifact_prefix=$build/fuzz/crashes/$harness-")
  if [[ $harness == fuzz_parser ]]; then
    # The entropic schedule's bookkeeping (InputCorpus::UpdateFeatureFrequency) took 76%
    # of the parser's time with its ~100k features (perf), 5 times slower than without.
    options+=("-dict=$root/tests/fuzz/parser.dict" -max_len=16384 -entropic=0)
  fi
  printf '%s\n' "${options[@]}"
}

# fuzz_worker HARNESS RUNS DEADLINE LOG: runs the harness in rounds until it has done RUNS
# executions (when RUNS is not empty) or until SECONDS reaches DEADLINE; appends every
# round's output to LOG and prints "EXECUTIONS ROUNDS STATUS" last.
fuzz_worker() {
  local harness=$1 runs=$2 deadline=$3 log=$4
  local round_runs=100000 executed=0 rounds=0 status=0 left round count
  local round_log=$log.round
  : >"$log"
  while true; do
    if [[ -n $runs ]]; then
      left=$((runs - executed))
      ((left > 0)) || break
      round=(-runs=$((left < round_runs ? left : round_runs)))
    else
      left=$((deadline - SECONDS))
      ((left > 0)) || break
      # A round first runs the whole corpus, which libFuzzer does without looking at
      # -max_total_time (a minute or more for a large corpus): no round starts that late.
      ((left >= 60 || rounds == 0)) || break
      round=(-runs=$round_runs -max_total_time=$left)
    fi
    rounds=$((rounds + 1))
    ASAN_OPTIONS=detect_leaks=1 \
      UBSAN_OPTIONS=print_stacktrace=1 \
      "$build/tests/fuzz/$harness" "${options[@]}" "${round[@]}" "$corpus" "$seeds" \
      >"$round_log" 2>&1
    status=$?
    cat "$round_log" >>"$log"
    count=$(sed -nE 's/^stat::number_of_executed_units: ([0-9]+)$/\1/p' "$round_log" | tail -n 1)
    if [[ -z $count ]]; then
      # A crash ends the round before the final stats; its last status line has the count.
      count=$(sed -nE 's/^#([0-9]+)\t.*/\1/p' "$round_log" | tail -n 1)
    fi
    executed=$((executed + ${count:-0}))
    ((status == 0)) || break
  done
  rm -f "$round_log"
  echo "$executed $rounds $status"
}

crashed=0
report=()
for harness in "${harnesses[@]}"; do
  seeds=$build/fuzz/seeds/$harness
  corpus=$build/fuzz/corpus/$harness
  logs=$build/fuzz/logs
  mkdir -p "$corpus" "$build/fuzz/crashes" "$logs"
  make_seeds "$harness" "$seeds"
  mapfile -t options < <(harness_options "$harness")
  budget="$seconds s"
  [[ -n $runs ]] && budget="$runs executions"
  echo "== fuzz: $harness for $budget on $workers worker(s)" \
    "($(find "$seeds" -type f | wc -l) seeds, $(find "$corpus" -type f | wc -l) in the corpus)"

  deadline=$((SECONDS + seconds))
  for ((w = 0; w < workers; ++w)); do
    share=
    # The first workers take the remainder, so that the shares add up to RUNS.
    [[ -n $runs ]] && share=$((runs / workers + (w < runs % workers ? 1 : 0)))
    fuzz_worker "$harness" "$share" "$deadline" "$logs/$harness.$w.log" >"$logs/$harness.$w.result" &
  done
  wait
  executed=0
  rounds=0
  status=0
  log=
  for ((w = 0; w < workers; ++w)); do
    read -r worker_executed worker_rounds worker_status <"$logs/$harness.$w.result"
    executed=$((executed + worker_executed))
    rounds=$((rounds + worker_rounds))
    if ((worker_status != 0 && status == 0)); then
      status=$worker_status
      log=$logs/$harness.$w.log
    fi
  done
  rm -f "$logs/$harness".*.result

  if ((status != 0)); then
    crashed=1
    reproducer=$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log" | tail -n 1)
    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz_[a-z]+: |terminate called|  what\(\))' "$log" |
      head -n 8 >&2
    echo "fuzz: $harness: CRASH after $executed executions; reproducer: ${reproducer:-none}" \
      "(rerun: ${build#"$root"/}/tests/fuzz/$harness ${reproducer:-INPUT}); log: $log" >&2
    report+=("[$harness] crashed after $executed executions: ${reproducer:-see $log}")
  else
    report+=("[$harness] $executed executions in $rounds rounds on $workers worker(s), no crash")
  fi
done

echo "== fuzz: summary"
printf '%s\n' "${report[@]}"
exit "$crashed"
