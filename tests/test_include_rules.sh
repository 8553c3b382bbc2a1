#!/bin/sh
# cpu suite: who may include whom (issue 37). Walks every C, C++ and CUDA source and header of
# kernels/ (the library), cpu_ref/ (twins, models, GMP baselines), cli/ (the command line) and
# gen/ (build-time generators, where present), and resolves each quoted #include to the folder
# its header lives in: the includer's own folder first, then the build's include order (the
# source root, cli, kernels, cpu_ref), then gen. A header lives in a folder when the file is
# there, or its .in template, or the folder's meson.build makes it (output: 'name.h'), so a
# generated header counts where its source or generator lives. A violation is
#   - a kernels/ file that includes a header of cli/ or cpu_ref/;
#   - a cpu_ref/ file that includes a header of cli/;
#   - a cli/ file that includes a kernels/ header other than mpgpu.h;
#   - a cycle of includes between the folders (each cycle once, with one include a step).
# Quoted includes that resolve to no folder (system or third-party headers) are not checked.
# Prints each violation and "include rules: N includes checked, M violations"; exits 1 when
# M > 0.
# Usage: test_include_rules.sh [SOURCE_ROOT]   (default: the folder above this script's)
set -u
root=${1:-$(dirname "$0")/..}
if [ ! -d "$root/kernels" ] || [ ! -d "$root/cpu_ref" ] || [ ! -d "$root/cli" ]; then
    echo "test_include_rules: $root has no kernels/, cpu_ref/ and cli/: give the source root" >&2
    exit 2
fi
folders="kernels cpu_ref cli"
[ -d "$root/gen" ] && folders="$folders gen"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# The headers each folder's meson.build makes: the quoted names of its output: lines.
for f in $folders; do
    [ -f "$root/$f/meson.build" ] || continue
    sed -n "s/.*output: *\[\{0,1\}\(.*\)/\1/p" "$root/$f/meson.build" |
        grep -o "'[^'@]*\.h'" | tr -d "'" | sed "s|^|$f |"
done >"$tmp/generated"

# Lives FOLDER HEADER: whether HEADER (a name, or a path relative to FOLDER) lives there.
lives() {
    [ -f "$root/$1/$2" ] || [ -f "$root/$1/$2.in" ] || grep -qx "$1 $2" "$tmp/generated"
}

# Every quoted include, as "file<TAB>header" (file relative to the root).
for f in $folders; do
    find "$root/$f" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \
        -o -name '*.cc' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.in' \) | sort
done | while read -r path; do
    rel=${path#"$root"/}
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$path" |
        while read -r h; do printf '%s\t%s\n' "$rel" "$h"; done
done >"$tmp/includes"

checked=0
violations=0
: >"$tmp/edges"
: >"$tmp/report"
while IFS="$(printf '\t')" read -r file header; do
    from=${file%%/*}
    dir=$(dirname "$file")
    home=
    case $header in
        */*)
            # A path: from the includer's folder, else from the source root.
            for cand in "$dir/$header" "$header"; do
                [ -f "$root/$cand" ] || continue
                cand=$(cd "$root" && realpath -m --relative-to=. "$cand")
                home=${cand%%/*}
                [ "$home" = "$cand" ] && home=.
                break
            done ;;
        *)
            if lives "$dir" "$header"; then
                home=$from
            else
                for cand in . cli kernels cpu_ref gen; do
                    if [ -d "$root/$cand" ] && lives "$cand" "$header"; then
                        home=$cand
                        break
                    fi
                done
            fi ;;
    esac
    [ -n "$home" ] || continue
    checked=$((checked + 1))
    base=${header##*/}
    rule=
    case $from/$home in
        kernels/cli | kernels/cpu_ref) rule="kernels/ may not include $home/ headers" ;;
        cpu_ref/cli) rule="cpu_ref/ may not include cli/ headers" ;;
        cli/kernels) [ "$base" = mpgpu.h ] || rule="cli/ may include only mpgpu.h from kernels/" ;;
    esac
    if [ -n "$rule" ]; then
        violations=$((violations + 1))
        echo "VIOLATION: $file includes \"$header\" ($home/): $rule" >>"$tmp/report"
    fi
    [ "$from" != "$home" ] && printf '%s %s %s %s\n' "$from" "$home" "$file" "$header" >>"$tmp/edges"
done <"$tmp/includes"

# Cycles between the folders: the strongly connected sets of the folder graph (a transitive
# closure over at most five folders), each reported once with one include for each edge in it.
cycles=$(awk '
    { if (!(($1, $2) in example)) example[$1, $2] = $3 " includes \"" $4 "\"";
      reach[$1, $2] = 1; node[$1] = 1; node[$2] = 1 }
    END {
        for (k in node) for (i in node) for (j in node)
            if (reach[i, k] && reach[k, j]) reach[i, j] = 1;
        n = 0
        for (i in node) {
            if (done[i] || !reach[i, i]) continue
            set = ""; steps = ""
            for (j in node)
                if (reach[i, j] && reach[j, i]) { done[j] = 1; set = set " " j }
            for (a in node) for (b in node)
                if (index(set " ", " " a " ") && index(set " ", " " b " ") && ((a, b) in example))
                    steps = steps "; " a "/ -> " b "/: " example[a, b]
            print "VIOLATION: include cycle between" set " (" substr(steps, 3) ")"
        }
    }' "$tmp/edges")
if [ -n "$cycles" ]; then
    echo "$cycles" >>"$tmp/report"
    violations=$((violations + $(echo "$cycles" | wc -l)))
fi

cat "$tmp/report"
echo "include rules: $checked includes checked, $violations violations"
[ "$violations" -eq 0 ]
