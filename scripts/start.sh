#!/usr/bin/env bash
# Installs, builds and runs GrainLab on the bundled example scene (a sphere pile poured into a box).
# The desktop application lands with its own issue; until then this is the headless runner, which
# writes a ParaView series to output/pile/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
scene=${1:-resources/scenes/pile.json}
exec build/bin/grainlab-cli run "$scene" --output output/pile
