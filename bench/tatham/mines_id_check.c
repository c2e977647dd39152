/* Reads Tatham Mines game IDs (one a line), checks them with his own validate_params and
   validate_desc (as his midend does for an ID with a description), opens them with his new_game,
   and prints for each "OK W H N" and a line a row: the mine layout ('*'), a space, and the grid
   his game shows after the first click ('?' covered, 'F' flagged, digits). Else "BADPARAMS why"
   or "BADDESC why". For bench/check_mines_ids.py. His sources stay outside this repository; built
   beside them (J: the folder holding mines.c, puzzles.h, malloc.c, random.c, tree234.c, misc.c):

     cc -O1 -w -no-pie -I$J -o mines_id_check mines_id_check.c $J/malloc.c $J/random.c \
        $J/tree234.c $J/misc.c -lm -Wl,--unresolved-symbols=ignore-all

   (his drawing functions are never called, so they are left unresolved). */
#include "mines.c"
int main(void) {
    static char line[1 << 22];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        char *colon = strchr(line, ':');
        if (!colon) { printf("NOCOLON\n"); continue; }
        *colon = 0;
        game_params *p = default_params();
        decode_params(p, line);
        const char *err = validate_params(p, false)  /* as his midend, given a description */;
        if (err) { printf("BADPARAMS %s\n", err); continue; }
        err = validate_desc(p, colon + 1);
        if (err) { printf("BADDESC %s\n", err); continue; }
        game_state *s = new_game(NULL, p, colon + 1);
        printf("OK %d %d %d\n", s->w, s->h, s->n);
        for (int y = 0; y < s->h; y++) {
            for (int x = 0; x < s->w; x++) putchar(s->layout->mines[y * s->w + x] ? '*' : '.');
            putchar(' ');
            for (int x = 0; x < s->w; x++) {
                int g = s->grid[y * s->w + x];
                putchar(g == -2 ? '?' : g == -1 ? 'F' : g >= 0 && g <= 8 ? '0' + g : '#');
            }
            putchar('\n');
        }
    }
    return 0;
}
