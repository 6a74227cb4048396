#!/usr/bin/env bash
# Times fresh Swift builds of two revisions of Cascade, one after the other, each in a fresh
# clone (no .build; packages come from SwiftPM's shared cache, as on a machine that has
# fetched them once), and prints the seconds and the ratio.
#
#   benchmarks/build_time.sh [PEER_REV] [REV] [BUILD ARGUMENTS...]
#
# PEER_REV defaults to main, REV to HEAD, the build to `-c release --product cascade` (the
# README's first command). `--build-tests` times what scripts/test builds first.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
peer=${1:-main}
rev=${2:-HEAD}
shift $(( $# > 2 ? 2 : $# ))
args=("$@")
((${#args[@]})) || args=(-c release --product cascade)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

time_build() {  # time_build NAME REV
  git clone -q "$repo" "$work/$1"
  git -C "$work/$1" checkout -q "$2"
  local start end
  start=$(date +%s)
  (cd "$work/$1" && swift build "${args[@]}" >"$work/$1.log" 2>&1) || { tail -20 "$work/$1.log"; exit 1; }
  end=$(date +%s)
  echo $((end - start))
}

echo "swift build ${args[*]}, fresh, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
mine=$(time_build mine "$rev")
echo "$rev: $mine s (load $(cut -d' ' -f1-3 /proc/loadavg))"
theirs=$(time_build peer "$peer")
echo "$peer: $theirs s (load $(cut -d' ' -f1-3 /proc/loadavg))"
python3 -c "print(f'ratio $rev / $peer: {$mine / $theirs:.2f}')"
