# The series of plots/sweep.gp, from any mpgpu CSV as csv2tsv.awk prints it (tab-separated).
# Columns are found by their names in the header (docs/csv.md), so rows from a binary
# with more columns still draw. what= picks the output:
#   data    per series a block: its key in double quotes (gnuplot's columnheader), then
#           "bits<TAB>throughput_per_s" by increasing bits; blocks apart by two blank lines;
#           with only=S just the block of series S (1, 2, ...)
#   style   per series "COLOUR_INDEX DASHED" (0/1), in the order of the blocks
#   count   the number of series
#   title   the GPU(s) and commit(s) of the rows drawn
#   unit    what throughput_per_s counts (throughput_unit), e.g. products
#
# A series is one (subcommand, method); the subcommand is named only when the CSV holds more than
# one. CPU rows with different thread counts, and GPU rows timed with transfers, are other
# measurements of the same method and get their own series, named after it. Rows whose products
# were not all compared with GMP and found equal (verify_mode none, or mismatches) are drawn
# dashed, in the colour of the method's verified series, with "(not verified)" or "(MISMATCHES)"
# in the key; every other row is drawn solid as verified. Where a series has several rows at one
# size (the same command run twice into one CSV), the last row is drawn: a line through repeats
# would zigzag, and the CSV keeps them all. Rows with bits 0 (collatz, delay) are left out.
BEGIN { FS = "\t" }
$1 == "timestamp" {                               # the header (again, if CSVs were concatenated)
    for (i = 1; i <= NF; i++) col[$i] = i
    split("subcommand method bits throughput_per_s throughput_unit verify_mode mismatches " \
          "cpu_threads timed_region gpu commit", need, " ")
    for (i in need)
        if (!(need[i] in col)) { print "sweep: the CSV has no column " need[i] > "/dev/stderr"; bad = 1; exit 1 }
    next
}
!("bits" in col) { print "sweep: the CSV has no header line (docs/csv.md)" > "/dev/stderr"; bad = 1; exit 1 }
{
    bits = $(col["bits"]) + 0
    rate = $(col["throughput_per_s"]) + 0
    if (bits <= 0 || rate <= 0) next              # no size, or nothing measured: no point on log axes
    n++
    sub_[n] = $(col["subcommand"])
    name = $(col["method"])
    if ($(col["timed_region"]) == "cpu")
        name = name " (" $(col["cpu_threads"]) (($(col["cpu_threads"]) == 1) ? " thread)" : " threads)")
    else if ($(col["timed_region"]) != "kernels")
        name = name " (" $(col["timed_region"]) ")"
    name_[n] = name
    check[n] = ($(col["verify_mode"]) == "none") ? " (not verified)" : \
               ($(col["mismatches"]) + 0 > 0) ? " (MISMATCHES)" : ""
    bits_[n] = bits
    rate_[n] = $(col["throughput_per_s"])          # as written, not reformatted
    subs[sub_[n]]++
    if ($(col["gpu"]) != "none" && !(($(col["gpu"])) in gpus)) { gpus[$(col["gpu"])] = 1; gpu_list = gpu_list (gpu_list == "" ? "" : ", ") $(col["gpu"]) }
    if (!(($(col["commit"])) in commits)) { commits[$(col["commit"])] = 1; commit_list = commit_list (commit_list == "" ? "" : ", ") $(col["commit"]) }
    if (!(($(col["throughput_unit"])) in units)) { units[$(col["throughput_unit"])] = 1; unit_list = unit_list (unit_list == "" ? "" : ", ") $(col["throughput_unit"]) }
}
END {
    if (bad) exit 1
    nsubs = 0
    for (s in subs) nsubs++
    ns = 0
    for (r = 1; r <= n; r++) {
        base = (nsubs > 1 ? sub_[r] " " : "") name_[r]
        key = base check[r]
        if (!(base in colour)) colour[base] = ncolours++
        if (!(key in sid)) { sid[key] = ++ns; skey[ns] = key; scolour[ns] = colour[base]; sdash[ns] = (check[r] != "") }
        s = sid[key]
        if (!((s, bits_[r]) in at)) { np[s]++; at[s, bits_[r]] = np[s]; pbits[s, np[s]] = bits_[r] }
        prate[s, at[s, bits_[r]]] = rate_[r]       # the last row at this size wins
    }
    if (what == "count") { print ns; exit 0 }
    if (what == "title") { print (gpu_list == "" ? "no GPU" : gpu_list) ", commit " commit_list; exit 0 }
    if (what == "unit") { print unit_list; exit 0 }
    for (s = 1; s <= ns; s++) {
        if (what == "style") { print scolour[s], sdash[s]; continue }
        if (only != "" && s != only + 0) continue
        # sort this series' points by bits (insertion sort: a sweep has few sizes)
        for (i = 1; i <= np[s]; i++) order[i] = i
        for (i = 2; i <= np[s]; i++)
            for (j = i; j > 1 && pbits[s, order[j - 1]] > pbits[s, order[j]]; j--) { t = order[j]; order[j] = order[j - 1]; order[j - 1] = t }
        gsub(/"/, "'", skey[s])
        print "\"" skey[s] "\""
        for (i = 1; i <= np[s]; i++) print pbits[s, order[i]] "\t" prate[s, order[i]]
        print ""
        print ""
    }
}
