# Turns an mpgpu CSV into tab-separated lines, so awk -F'\t' and gnuplot can take its columns by
# number. mpgpu quotes a field that holds a comma or a double quote and doubles the quote
# (cli/report.c, RFC 4180), e.g. a CPU model with a comma in it; plain awk -F, would then shift
# every later column. Tabs inside a field become spaces; a field cannot hold a newline here.
# POSIX awk only (Debian's default awk is mawk).
{
    sub(/\r$/, "")
    line = $0
    out = ""
    n = 0
    more = 1
    while (more) {
        if (substr(line, 1, 1) == "\"") {
            f = ""
            line = substr(line, 2)
            for (;;) {
                i = index(line, "\"")
                if (i == 0) { f = f line; line = ""; break }   # unterminated: the rest
                f = f substr(line, 1, i - 1)
                line = substr(line, i + 1)
                if (substr(line, 1, 1) != "\"") break
                f = f "\""                                     # "" is one quote
                line = substr(line, 2)
            }
            more = substr(line, 1, 1) == ","
            line = substr(line, 2)
        } else {
            i = index(line, ",")
            if (i == 0) { f = line; more = 0 }
            else { f = substr(line, 1, i - 1); line = substr(line, i + 1) }
        }
        gsub(/\t/, " ", f)
        out = (n++ ? out "\t" : "") f
    }
    print out
}
