#!/usr/bin/env bash
# Puts what the GPU machine needs from a build into one folder, with the build's layout, for
# run_all.sh and the experiment scripts to run there (docs/reproducing.md): the mpgpu binary and
# every program of the gpu suite (run_all.sh's GPU_TESTS), stripped, and in DEST/mpgpu_install
# the installed libmpgpu.so with docs/library_example.c built against it and against libmpgpu.a
# through pkg-config (tests/test_mpgpu_install.sh --stage). The GPU host has no GMP headers
# and its Meson may refuse this build, so everything is built here.
#   experiments/stage.sh BUILD DEST      e.g. experiments/stage.sh build build-dev
# Then, there:  BUILD=DEST RESULTS=... experiments/run_all.sh [scripts]
set -euo pipefail
source "$(dirname "$0")/script_help.sh" "$@"
[ $# -eq 2 ] || { echo "stage: '$*' is not BUILD DEST; usage: $0 BUILD DEST" >&2; exit 2; }
build=$1 dest=$2
src=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$build/cli/mpgpu" ] || { echo "stage: no $build/cli/mpgpu: build first" >&2; exit 2; }
rm -rf "$dest"
mkdir -p "$dest/cli" "$dest/tests"
cp "$build/cli/mpgpu" "$dest/cli/"
# The compiled programs of GPU_TESTS (the scripts run from the source tree).
for t in $(sed -n '/^GPU_TESTS=(/,/^)/p' "$src/experiments/run_all.sh" | grep -oE 'tests/test_[a-z0-9_]+_gpu$'); do
    cp "$build/$t" "$dest/tests/"
done
strip "$dest/cli/mpgpu" "$dest"/tests/*
# Shared libraries with no static archive that the GPU host may lack (libcjson: --json), in
# DEST/lib, where the programs look first (build_rpath $ORIGIN/../lib, cli/meson.build).
for lib in $(ldd "$build/cli/mpgpu" | awk '$1 ~ /^libcjson/ { print $3 }'); do
    mkdir -p "$dest/lib"
    cp -L "$lib" "$dest/lib/"
done
bash "$src/tests/test_mpgpu_install.sh" --stage "$build" "$src" "$dest/mpgpu_install" >/dev/null
strip "$dest/mpgpu_install/example_static" "$dest"/mpgpu_install/lib/libmpgpu.so.*.*
du -sh "$dest"
