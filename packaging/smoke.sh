#!/usr/bin/env bash
# Headless smoke test of a built or installed pe-studio, the same on Linux, macOS and
# Windows (Git Bash on the hosted runners).
#
# Usage:  packaging/smoke.sh [--clean-env BIN_DIR] [--home DIR] COMMAND
#   COMMAND     the app: a path (dist/pe-studio/pe-studio, .../pe-studio.exe) or, with
#               --clean-env, a name looked up in BIN_DIR
#   --clean-env run it with `env -i`: no DISPLAY, no PYTHON*, PATH=BIN_DIR only (Linux and
#               macOS; Windows programs need SYSTEMROOT, so there the environment is kept)
#   --home DIR  HOME for the app (default: a temporary directory)
# Checks, each must pass:
#   1. COMMAND --version prints "pe-studio <version>" (the version in core/version.py)
#   2. COMMAND export sinusoidal -o x.png --width 640 --height 360 writes a 640x360 PNG
#   3. PE_STUDIO_SELFTEST=1 QT_QPA_PLATFORM=offscreen COMMAND exits 0 after its first frame
#      and prints "first-frame-ms: <ms>"
# Timeout per command: SMOKE_TIMEOUT seconds (60) where GNU timeout exists.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLEAN_BIN="" HOME_DIR=""
while [[ $# -gt 1 ]]; do
    case "$1" in
        --clean-env) CLEAN_BIN="$2"; shift 2 ;;
        --home) HOME_DIR="$2"; shift 2 ;;
        *) break ;;
    esac
done
[[ $# -eq 1 ]] || { echo "usage: $0 [--clean-env BIN_DIR] [--home DIR] COMMAND" >&2; exit 2; }
APP_CMD="$1"
# A path is made absolute, because the commands run from a scratch directory.
if [[ "$APP_CMD" == */* ]]; then APP_CMD="$(cd "$(dirname "$APP_CMD")" && pwd)/$(basename "$APP_CMD")"; fi
LABEL="${SMOKE_LABEL:-smoke}"
VERSION="$(tr -d '\r' < "$ROOT/core/version.py" | sed -n 's/^__version__ = "\(.*\)"$/\1/p')"
[[ -n "$VERSION" ]] || { echo "no __version__ line in $ROOT/core/version.py" >&2; exit 2; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pe-studio-smoke.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
HOME_DIR="${HOME_DIR:-$WORK/home}"
mkdir -p "$HOME_DIR"
FAILURES=0
say() { printf '[%s] %s\n' "$LABEL" "$*"; }
fail() { printf '[%s] FAIL: %s\n' "$LABEL" "$*" >&2; FAILURES=$((FAILURES + 1)); }

TO=()
if timeout --version >/dev/null 2>&1; then TO=(timeout "${SMOKE_TIMEOUT:-60}"); fi
RUN=()
if [[ -n "$CLEAN_BIN" ]]; then
    for p in python python3; do
        if PATH="$CLEAN_BIN" command -v "$p" >/dev/null 2>&1; then fail "$p found in $CLEAN_BIN"; fi
    done
    RUN=(env -i "HOME=$HOME_DIR" "PATH=$CLEAN_BIN" LANG=C.UTF-8 "TMPDIR=$WORK")
fi

# run LOG [VAR=VALUE...] -- ARGS...: the app with extra environment; returns its status.
run() {
    local log="$1"; shift
    local extra=()
    while [[ "$1" != "--" ]]; do extra+=("$1"); shift; done
    shift
    if [[ ${#RUN[@]} -gt 0 ]]; then
        (cd "$WORK" && ${TO[@]+"${TO[@]}"} "${RUN[@]}" ${extra[@]+"${extra[@]}"} "$APP_CMD" "$@") > "$log" 2>&1
    else
        (cd "$WORK" && ${TO[@]+"${TO[@]}"} env ${extra[@]+"${extra[@]}"} "$APP_CMD" "$@") > "$log" 2>&1
    fi
}

rc=0; run "$WORK/version.log" -- --version || rc=$?
out="$(tr -d '\r' < "$WORK/version.log")"
if [[ $rc -eq 0 && "$out" == "pe-studio $VERSION" ]]; then
    say "--version: $out"
else
    fail "--version exited $rc and printed '$out' (expected 'pe-studio $VERSION')"
fi

rc=0; run "$WORK/export.log" -- export sinusoidal -o "$WORK/x.png" --width 640 --height 360 || rc=$?
sig="" size=""
if [[ -f "$WORK/x.png" ]]; then
    sig="$(head -c 8 "$WORK/x.png" | od -An -tx1 | tr -d ' \n')"
    size="$(od -An -tu1 -j16 -N8 "$WORK/x.png" | awk '{ print $3 * 256 + $4 "x" $7 * 256 + $8 }')"
fi
if [[ $rc -eq 0 && "$sig" == 89504e470d0a1a0a && "$size" == 640x360 ]]; then
    say "export: x.png $size"
else
    sed 's/^/    /' "$WORK/export.log" | tail -n 20 >&2
    fail "export exited $rc (PNG signature '${sig:-none}', size '${size:-none}')"
fi

rc=0; run "$WORK/selftest.log" PE_STUDIO_SELFTEST=1 QT_QPA_PLATFORM=offscreen -- || rc=$?
frame="$(tr -d '\r' < "$WORK/selftest.log" | grep '^first-frame-ms: ' | tail -n 1 || true)"
if [[ $rc -eq 0 && -n "$frame" ]]; then
    say "GUI self-test (offscreen): $frame"
else
    sed 's/^/    /' "$WORK/selftest.log" | tail -n 20 >&2
    fail "GUI self-test exited $rc"
fi

[[ $FAILURES -eq 0 ]] || { say "FAILED ($FAILURES check(s))"; exit 1; }
