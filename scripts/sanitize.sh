#!/usr/bin/env bash
# Builds the tests with sanitizers and runs them; any report fails the script.
#   bash scripts/sanitize.sh [asan|tsan|all] [CTEST_ARGS...]      (default: all)
# asan  AddressSanitizer + UndefinedBehaviorSanitizer (GCC), build-asan/: the whole CTest suite
#       (CTEST_ARGS, e.g. -E Chute, narrows it; scripts/test.sh runs it that way in CI).
# GRAINLAB_SANITIZE_CMAKE_ARGS adds CMake options to both builds (CI: -DGRAINLAB_GUI=OFF).
# tsan  ThreadSanitizer (clang), build-tsan/: the commands in tsan_runs below. The engine's threads
#       synchronise through std::atomic, which TSan follows.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
shift || true

# The threaded tests under ThreadSanitizer, one "executable [Catch test spec]" per entry, relative
# to build-tsan/. [runner] is the window's worker hand-over (app/runner).
tsan_runs=(
  "bin/grainlab-tests [threads],[checkpoint],[walls],[cli],[runner]"
)

install_missing() {
  local missing=()
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  local sudo_cmd=""; [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# configure DIR FLAGS [CMAKE_ARGS...]: a RelWithDebInfo build with FLAGS on every compile and link.
configure() {
  local dir=$1 flags=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" -DCMAKE_MODULE_LINKER_FLAGS="$flags" \
    -DGRAINLAB_FUZZ_SECONDS=1 ${GRAINLAB_SANITIZE_CMAKE_ARGS:-} "$@" >/dev/null
}

run_asan() {
  configure build-asan "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  cmake --build build-asan -j "$(nproc)"
  # halt_on_error: the first report fails the test that caused it.
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    LSAN_OPTIONS=suppressions=$(pwd)/tests/lsan.supp \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)" --timeout 1500 "$@"
}

run_tsan() {
  install_missing clang
  configure build-tsan "-fsanitize=thread -fno-omit-frame-pointer" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
  local targets=()
  for run in "${tsan_runs[@]}"; do targets+=("$(basename "${run%% *}")"); done  # executables are named as their targets
  cmake --build build-tsan -j "$(nproc)" --target "${targets[@]}"
  for run in "${tsan_runs[@]}"; do
    read -r exe spec <<<"$run"
    echo "== tsan: $run"
    (cd build-tsan && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
       "./$exe" $spec)
  done
}

case $mode in
  asan) run_asan "$@" ;;
  tsan) run_tsan ;;
  all) run_asan "$@"; run_tsan ;;
  *) echo "usage: bash scripts/sanitize.sh [asan|tsan|all] [CTEST_ARGS...]" >&2; exit 2 ;;
esac
