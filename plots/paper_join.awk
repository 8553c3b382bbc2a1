# Puts the paper's number beside ours, by method. The first input is a paper's table,
# plots/paper_NAME.dat (whitespace-separated "method value", # comments); the second a results
# CSV as csv2tsv.awk prints it. For each CSV row whose method is not `skip`, prints method, our
# median ms (column 22) and the paper's value, or "-" where the paper has none, tab-separated.
#   awk -f csv2tsv.awk R.csv | awk -F'\t' -v skip=gmp -f paper_join.awk paper_NAME.dat -
FNR == NR {
    sub(/[ \t]*#.*/, "")
    if (split($0, f, /[ \t]+/) >= 2 && f[1] != "")
        paper[f[1]] = f[2]
    next
}
FNR > 1 && $13 != skip { print $13 "\t" $22 "\t" (($13 in paper) ? paper[$13] : "-") }
