#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root or with sudo) and builds GrainLab into build/.
# Quick when everything is already there: apt is skipped and the build is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config libeigen3-dev libassimp-dev nlohmann-json3-dev
          libcli11-dev catch2
          # desktop application: Qt 6 (widgets, charts, the X11 and offscreen platform plugins), VTK 9
          qt6-base-dev qt6-charts-dev qt6-qpa-plugins libvtk9-dev
          # GUI tests and screenshots without a display: a virtual X server with software OpenGL
          xvfb xauth libgl1-mesa-dri)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  # With recommends: the GUI stack needs what Qt and VTK only recommend (fonts, Mesa drivers).
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [[ ! -f build/build.ninja ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build -j "$(nproc)"
