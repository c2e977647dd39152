/* Makes game IDs with one of Simon Tatham's puzzles' own generators, as his Mines or Mosaic shows
   them: for each argument pair PARAMS SEED (Mines: WxHnM; Mosaic: WxH), his new_desc (batch: a
   Mines board has its first click opened, its layout masked and no mine count) and his
   encode_params as his midend_get_game_id calls it, printed as 'params:desc'. For
   bench/check_mines_ids.py and bench/check_mosaic_ids.py (--maker). Built beside his sources,
   with the game's file (J: the folder holding mines.c or mosaic.c, puzzles.h, malloc.c,
   random.c, tree234.c, misc.c; GAME: mines or mosaic):

     cc -O1 -w -no-pie -I$J -o GAME_id_make id_make.c $J/GAME.c $J/malloc.c $J/random.c \
        $J/tree234.c $J/misc.c -lm -Wl,--unresolved-symbols=ignore-all

   (his drawing functions are never called, so they are left unresolved). */
#include <stdio.h>
#include <string.h>
#include "puzzles.h"
extern const game thegame;
int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        game_params *p = thegame.default_params();
        thegame.decode_params(p, argv[i]);
        const char *err = thegame.validate_params(p, true);
        if (err) { printf("BADPARAMS %s\n", err); continue; }
        random_state *rs = random_new(argv[i + 1], strlen(argv[i + 1]));
        char *aux = NULL;
        char *desc = thegame.new_desc(p, rs, &aux, false);
        printf("%s:%s\n", thegame.encode_params(p, false), desc);
    }
    return 0;
}
