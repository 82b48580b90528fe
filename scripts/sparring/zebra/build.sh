#!/usr/bin/env bash
# Build Zebra (Gunnar Andersson's Othello program, GPL) with gridplay's NBoard line driver, outside any repository.
# usage: build.sh ZEBRA_SOURCE_DIR RUN_DIR
#   ZEBRA_SOURCE_DIR: an extracted copy of github hoshir/zebra (its coefficients are data/coeffs2.bin; its book,
#                     stored with Git LFS, is not needed: the driver plays without a book).
#   RUN_DIR:          zebranb reads coeffs2.bin from its current directory: start it from here.
# Needs gcc and zlib's static library (Debian: zlib1g-dev). About 15 s.
set -euo pipefail
src=$(cd "$1" && pwd); mkdir -p "$2"; run=$(cd "$2" && pwd); here=$(cd "$(dirname "$0")" && pwd)
test -s "$src/data/coeffs2.bin" || { echo "no $src/data/coeffs2.bin: is $src an extracted hoshir/zebra?" >&2; exit 1; }
make -s -C "$src" build/libzebra.a build/obj/autop.o
gcc -O3 -fomit-frame-pointer -DTEXT_BASED -DZLIB_STATIC -pthread -I"$src/src" -o "$run/zebranb" \
  "$here/zebranb.c" "$src/build/libzebra.a" "$src/build/obj/autop.o" -lm -lz -pthread
ln -sfn "$src/data/coeffs2.bin" "$run/coeffs2.bin"
# Checks: the opening position answers a move, and then a side that must pass answers PA.
pass='O*****OOO*OO**OOOOOO*OOOOOOO**OOOOOO***OOOOO***O--OOO**O-OOOOO*O O'
answers=$(cd "$run" && printf 'nboard 2\nset depth 6\ngo\nset game (;GM[Othello]BO[8 %s];)\ngo\nquit\n' "$pass" \
  | ./zebranb | grep '^===' | tr '\n' ' ' || true)
case "$answers" in
  "=== "[a-h][1-8]"/"*" === PA/"*) echo "built $run/zebranb (answered $answers)" ;;
  *) echo "zebranb answered '$answers', not a move and then a pass" >&2; exit 1 ;;
esac
