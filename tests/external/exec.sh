#!/bin/sh
# An external engine that is tailfcl's own compiler: `tailfcl exec FILES` (OpenCL). Plugged in
# with --external exec='sh tests/external/exec.sh {}', it must pass every valid program.
# $TAILFCL names the binary (default: tailfcl on the PATH).
exec "${TAILFCL:-tailfcl}" exec "$@"
