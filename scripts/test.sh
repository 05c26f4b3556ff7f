#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through CTest; then the engine
# tests again under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/, without the desktop
# application and without the long LAMMPS chute comparison, which the Release run covers).
#   SANITIZE=0 bash scripts/test.sh    skips the sanitizer pass
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
(cd build && ctest --output-on-failure -j "$(nproc)" --timeout 1500)
if [[ ${SANITIZE:-1} != 0 ]]; then
  # -O1 without debug information: the sanitizer build is CI's longest step on two cores.
  GRAINLAB_SANITIZE_CMAKE_ARGS="-DGRAINLAB_GUI=OFF -DCMAKE_BUILD_TYPE=SanitizeCI -DCMAKE_CXX_FLAGS_SANITIZECI=-O1 -DCMAKE_C_FLAGS_SANITIZECI=-O1" \
    bash scripts/sanitize.sh asan -E "Chute matches LAMMPS"
fi
