/* Makes Tatham Mines game IDs as his Mines shows them ('WxH:x,y,m<hex>', the layout masked, no
   mine count): for each argument pair WxHnM SEED, his new_desc (batch, so the first click is
   opened) and his encode_params as his midend_get_game_id calls it. For
   bench/check_mines_ids.py --maker. Built beside his sources as mines_id_check.c is, with
   $J/mines.c added to the files compiled. */
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
