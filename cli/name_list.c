#include "name_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void name_list_parse(const char *option, const char *arg, const char *const *names, size_t n,
                     const char *extra, bool *extra_given, bool *selected)
{
    char accepted[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof accepted; i++)
        len += (size_t)snprintf(accepted + len, sizeof accepted - len, "%s, ", names[i]);
    if (len < sizeof accepted)
        snprintf(accepted + len, sizeof accepted - len, "all%s%s (a comma list)", extra ? ", " : "",
                 extra ? extra : "");
    cli_check_list(option, arg, accepted);
    char *copy = strdup(arg);
    if (!copy)
        cli_bad_input("%s: out of host memory", option);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (extra && !strcmp(tok, extra)) {
            *extra_given = true;
        } else if (!strcmp(tok, "all")) {
            for (size_t i = 0; i < n; i++)
                selected[i] = true;
        } else {
            size_t i = 0;
            while (i < n && strcmp(tok, names[i]))
                i++;
            if (i == n)
                cli_bad_input("%s '%s' is not accepted; accepted: %s", option, tok, accepted);
            selected[i] = true;
        }
    }
    free(copy);
}
