#!/bin/sh
# A deliberately wrong compiler, for testing the tester: it runs the program on tailfcl's oracle
# (`tailfcl run`), but when the program uses `xor` it corrupts the output (a 9 before the first
# digit). A campaign must catch it, and the shrinker must keep an `xor` in the saved program.
# $TAILFCL names the binary (default: tailfcl on the PATH).
out=$("${TAILFCL:-tailfcl}" run "$@") || exit $?
if grep -q 'xor' "$@"; then
  printf '%s\n' "$out" | sed 's/[0-9]/9&/'
else
  printf '%s\n' "$out"
fi
