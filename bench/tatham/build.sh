#!/usr/bin/env bash
# Build the anchor for bench/bench_no_guess.py: Simon Tatham's Mines generator (mines.c, MIT
# licence) behind a small driver that times new_desc. Usage: bench/tatham/build.sh PUZZLES_DIR
# where PUZZLES_DIR holds his sources (git clone https://git.tartarus.org/simon/puzzles.git, or a
# fork that keeps mines.c beside puzzles.h). Writes bench/tatham/mines-generate.
set -euo pipefail
src=${1:?usage: build.sh PUZZLES_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src"/{mines.c,malloc.c,random.c,tree234.c,misc.c,combi.c,dsf.c,puzzles.h,tree234.h} "$work"/
echo "GAME(mines)" > "$work/generated-games.h"  # the one game this build holds
gcc -O2 -DCOMBINED -I"$work" -o "$here/mines-generate" "$here/driver.c" "$here/stubs.c" \
    "$work"/{mines.c,malloc.c,random.c,tree234.c,misc.c,combi.c,dsf.c} -lm
echo "built $here/mines-generate"
