#!/usr/bin/env bash
# libmpgpu as a user gets it (docs/library.md): `meson install --destdir` of this build must give
# mpgpu.h, libmpgpu.a, libmpgpu.so and mpgpu.pc, and docs/library_example.c must compile and
# link through `pkg-config --cflags --libs mpgpu` against the shared library and, with
# --static, against the static one alone. Each example is then run:
#   cpu suite: it must exit 0 having checked its products against GMP, or, without a GPU,
#              exit 77 with the library's no-device message (the example's documented codes);
#   gpu suite: it must exit 0 (77, no GPU, is passed on: skipped).
#   test_mpgpu_install.sh BUILD_ROOT SOURCE_ROOT cpu|gpu
# The GPU machine has no GMP headers and may not read this build with its Meson
# (experiments/run_all.sh), so the gpu suite's run there is in two halves:
#   test_mpgpu_install.sh --stage BUILD_ROOT SOURCE_ROOT DIR   here: install, build both
#       examples and put them in DIR with the installed libmpgpu.so (experiments/stage.sh)
#   test_mpgpu_install.sh --staged DIR                         there: run them (gpu suite rules)
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Installs BUILD into $tmp/root and builds $tmp/example_shared and $tmp/example_static; sets
# libdir, the installed library folder.
build_examples() {
    local build=$1 src=$2
    # docs/library.md shows the example whole: it must be the file that is compiled here.
    sed -n '/^<!-- library_example.c -->$/,/^```$/p' "$src/docs/library.md" | sed '1,2d;$d' |
        cmp -s - "$src/docs/library_example.c" ||
        fail "docs/library.md's example is not docs/library_example.c"

    meson install -C "$build" --destdir "$tmp/root" --no-rebuild >"$tmp/install.log" 2>&1 ||
        { cat "$tmp/install.log"; fail "meson install --destdir failed"; }
    for f in include/mpgpu.h libmpgpu.a libmpgpu.so pkgconfig/mpgpu.pc; do
        [ -n "$(find "$tmp/root" -path "*/$f" -print -quit)" ] || fail "meson install gave no $f"
    done
    local pc prefix rel_libdir flags
    pc=$(find "$tmp/root" -name mpgpu.pc -print -quit)
    libdir=$(dirname "$(dirname "$pc")")
    rel_libdir=${libdir#"$tmp/root"}
    prefix=$(PKG_CONFIG_PATH= pkg-config --variable=prefix "$pc") || fail "pkg-config cannot read $pc"

    # pkg-config's prefix moved into the destdir: the other paths follow it (the CUDA runtime's
    # -L, which lies outside the prefix, stays).
    pkgconf() { PKG_CONFIG_PATH=$1 pkg-config --define-variable=prefix="$2$prefix" "${@:3}" mpgpu; }
    local cc=${CC:-cc}

    # Shared: the linker takes libmpgpu.so when both lie in the folder.
    flags=$(pkgconf "$(dirname "$pc")" "$tmp/root" --cflags --libs) || fail "pkg-config mpgpu"
    $cc -std=c11 -Wall -Wextra -Werror "$src/docs/library_example.c" $flags -lgmp \
        -o "$tmp/example_shared" || fail "the example does not build with: $flags"
    readelf -d "$tmp/example_shared" | grep -q 'NEEDED.*libmpgpu\.so' ||
        fail "example_shared does not load libmpgpu.so"

    # Static: a copy of the tree with the archive alone, linked with --static's private libraries.
    cp -a "$tmp/root" "$tmp/static"
    rm -f "$tmp/static$rel_libdir"/libmpgpu.so*
    flags=$(pkgconf "$tmp/static$rel_libdir/pkgconfig" "$tmp/static" --static --cflags --libs) ||
        fail "pkg-config --static mpgpu"
    $cc -std=c11 -Wall -Wextra -Werror "$src/docs/library_example.c" $flags -lgmp \
        -o "$tmp/example_static" || fail "the example does not build with: $flags"
    if readelf -d "$tmp/example_static" | grep -q 'NEEDED.*libmpgpu'; then
        fail "example_static loads libmpgpu.so"
    fi
    echo "ok: the example builds against libmpgpu.so and libmpgpu.a through pkg-config"
}

# Runs DIR/example_shared (with DIR/lib on the loader's path) and DIR/example_static.
run_examples() {
    local dir=$1 suite=$2 kind rc skipped=0
    for kind in shared static; do
        LD_LIBRARY_PATH=$dir/lib "$dir/example_$kind" >"$tmp/out" 2>&1
        rc=$?
        sed "s/^/  example_$kind: /" "$tmp/out"
        case $rc in
            0) grep -q 'products of 1024 bits match GMP' "$tmp/out" ||
                   fail "example_$kind exited 0 without checking its products" ;;
            77) grep -q 'no CUDA device, or no driver' "$tmp/out" ||
                    fail "example_$kind exited 77 without the no-device message"
                skipped=1 ;;
            *) fail "example_$kind exited $rc" ;;
        esac
        echo "ok: example_$kind exited $rc"
    done
    if [ "$suite" = gpu ] && [ "$skipped" = 1 ]; then
        echo "skipped: no CUDA device"
        exit 77
    fi
    echo "passed"
}

# The examples and the shared library (its soname's links kept) in one folder.
collect() {
    local dir=$1
    mkdir -p "$dir/lib" || fail "cannot make $dir/lib"
    cp "$tmp/example_shared" "$tmp/example_static" "$dir/" &&
        cp -P "$libdir"/libmpgpu.so* "$dir/lib/" || fail "cannot copy the examples into $dir"
}

case ${1:-} in
    --stage)
        [ $# -eq 4 ] || fail "usage: $0 --stage BUILD_ROOT SOURCE_ROOT DIR"
        build_examples "$2" "$3"
        collect "$4"
        echo "staged: $4" ;;
    --staged)
        [ $# -eq 2 ] || fail "usage: $0 --staged DIR"
        run_examples "$2" gpu ;;
    *)
        [ $# -eq 3 ] || fail "usage: $0 BUILD_ROOT SOURCE_ROOT cpu|gpu"
        build_examples "$1" "$2"
        collect "$tmp/run"
        run_examples "$tmp/run" "$3" ;;
esac
