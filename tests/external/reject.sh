#!/bin/sh
# A compiler that implements less than the language: it declines every program that uses
# `interleaveSeq` (exit 1, a message on stderr) and runs the rest on tailfcl's oracle
# (`tailfcl run`). Its declines must count as rejected, not as failures.
# $TAILFCL names the binary (default: tailfcl on the PATH).
if grep -q 'interleaveSeq' "$@"; then
  echo "reject.sh: error: interleaveSeq is not supported" >&2
  exit 1
fi
exec "${TAILFCL:-tailfcl}" run "$@"
