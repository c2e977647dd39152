/* Times Simon Tatham's Mines generator (new_desc with unique=true: his no-guess boards) on one
 * board: `mines-generate WxHnN SEED` prints the parameters, the seed, the seconds new_desc took
 * and the length of the description. Built against his sources by build.sh (his code is MIT
 * licensed and is not copied here); this driver and stubs.c are recon's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "puzzles.h"
extern const struct game mines;
int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: driver WxHnN seed\n"); return 2; }
    game_params *p = mines.default_params();
    mines.decode_params(p, argv[1]);
    const char *err = mines.validate_params(p, true);
    if (err) { fprintf(stderr, "%s\n", err); return 2; }
    random_state *rs = random_new(argv[2], strlen(argv[2]));
    char *aux = NULL;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    char *desc = mines.new_desc(p, rs, &aux, false);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%s %s %.3f %zu\n", argv[1], argv[2], (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9, strlen(desc));
    return 0;
}
