/* Reads game IDs of Simon Tatham's Mines (or, built with -DMOSAIC, his Mosaic), one a line; checks
   each with his own validate_params and validate_desc (as his midend does for an ID with a
   description), reads it with his new_game, and prints "OK W H N S" (Mosaic: "OK W H") and a
   line a row, else "BADPARAMS why" or "BADDESC why". S is what his own solver makes of a Mines
   board from the first click (0: it opens every safe cell without a guess; -1: it gets stuck). A
   Mines row: the mine layout ('*'), a space, and the grid his game shows after the first click
   ('?' covered, 'F' flagged, digits); a Mosaic row: its clues ('.' none). For bench/check_mines_ids.py and bench/check_mosaic_ids.py (--checker).
   His sources stay outside this repository; built beside them (J: the folder holding mines.c,
   mosaic.c, puzzles.h, malloc.c, random.c, tree234.c, misc.c), his game's file included here:

     cc -O1 -w -no-pie -I$J -o mines_id_check id_check.c $J/malloc.c $J/random.c \
        $J/tree234.c $J/misc.c -lm -Wl,--unresolved-symbols=ignore-all
     (the same with -DMOSAIC -o mosaic_id_check)

   (his drawing functions are never called, so they are left unresolved). */
#ifdef MOSAIC
#include "mosaic.c"
static void show(const game_state *s, const char *desc) {
    printf("OK %d %d\n", s->width, s->height);
    for (int y = 0; y < s->height; y++) {
        for (int x = 0; x < s->width; x++) {
            struct board_cell c = s->board->actual_board[y * s->width + x];
            putchar(c.shown ? '0' + c.clue : '.');
        }
        putchar('\n');
    }
}
#else
#include "mines.c"
/* His own solver (the one his generator certifies boards with), from the ID's first click with
   the layout's mine count and no perturbing: 0 if it opens every safe cell, -1 if it gets stuck. */
static int his_solver(const game_state *s, int x, int y) {
    int w = s->w, h = s->h, n = 0;
    for (int i = 0; i < w * h; i++) n += s->layout->mines[i];
    signed char *grid = snewn(w * h, signed char);
    bool *opened = snewn(w * h, bool);
    memset(grid, -2, w * h);
    memset(opened, 0, w * h * sizeof(bool));
    struct minectx ctx = {s->layout->mines, opened, w, h, 0, 0, false, 0, NULL};
    grid[y * w + x] = mineopen(&ctx, x, y);
    int ret = grid[y * w + x] < 0 ? -1 : minesolve(w, h, n, grid, mineopen, NULL, &ctx, NULL);
    sfree(grid);
    sfree(opened);
    return ret;
}
static void show(const game_state *s, const char *desc) {
    int x = atoi(desc), y = atoi(strchr(desc, ',') + 1);  /* recon's IDs always give the click */
    printf("OK %d %d %d %d\n", s->w, s->h, s->n, his_solver(s, x, y));
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
#endif
int main(void) {
    static char line[1 << 22];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        char *colon = strchr(line, ':');
        if (!colon) { printf("NOCOLON\n"); continue; }
        *colon = 0;
        game_params *p = default_params();
        decode_params(p, line);
        const char *err = validate_params(p, false);
        if (err) { printf("BADPARAMS %s\n", err); continue; }
        err = validate_desc(p, colon + 1);
        if (err) { printf("BADDESC %s\n", err); continue; }
        show(new_game(NULL, p, colon + 1), colon + 1);
    }
    return 0;
}
