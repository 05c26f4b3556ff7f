#!/usr/bin/env bash
# Fuzzes the input parsers with libFuzzer (clang, AddressSanitizer + UndefinedBehaviorSanitizer):
# scene JSON, STL/OBJ/PLY meshes (through Assimp), LAMMPS data and checkpoints.
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]      (default 60 s, all targets)
# Builds into build-fuzz/. Inputs libFuzzer finds new coverage with go to build-fuzz/corpus-new/<target>/;
# copy the interesting ones into tests/fuzz/corpus/<target>/ so the CTest mutation test uses them.
# A crash leaves crash-*/leak-*/timeout-* files in build-fuzz/ and fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(scene mesh_stl mesh_obj mesh_ply lammps checkpoint)

if ! command -v clang++ >/dev/null; then
  sudo_cmd=""; [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends clang >/dev/null
fi

sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DGRAINLAB_LIBFUZZER=ON \
  -DCMAKE_CXX_FLAGS="$sanitizers -fsanitize=fuzzer-no-link" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitizers" -DCMAKE_SHARED_LINKER_FLAGS="$sanitizers" >/dev/null
ninja -C build-fuzz "${targets[@]/#/fuzz-}"

status=0
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus-new/$t"
  echo "== fuzz-$t for ${seconds} s"
  (cd build-fuzz && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=../tests/lsan.supp ./bin/fuzz-"$t" "corpus-new/$t" "../tests/fuzz/corpus/$t" \
     -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tail -n 12) || status=1
done
exit $status
