#!/usr/bin/env bash
# Build the one-folder PyInstaller bundle of Positional Encoding Studio and
# smoke-test it the way a user without Python would run it.
#
# Usage:  .ci/build_bundle.sh [PROJECT_DIR]     (default: the repository root)
#
# Steps:
#   1. pyinstaller --noconfirm --clean build.spec   -> PROJECT_DIR/dist/pe-studio/
#   2. smoke (a): headless `pe-studio export sinusoidal -o x.svg` (and x.png),
#      run from a temporary directory outside the project, with an empty
#      environment (env -i: no DISPLAY, no PYTHONPATH/PYTHONHOME) and a PATH
#      that contains no python at all; checks the SVG's root element, and the
#      PNG's signature + IHDR size.
#   3. smoke (b): PE_STUDIO_SELFTEST=1 QT_QPA_PLATFORM=offscreen pe-studio
#      must exit 0 and print "first-frame-ms: <float>"; also under xcb if
#      xvfb-run is installed.
#   4. reports bundle size (du -sm), .tar.gz size and start time (on Linux with
#      dpkg-deb the .tar.gz is the release one, built by check_packages.sh); exits
#      non-zero if a size limit is exceeded. Start times are printed, never
#      judged here: a busy CI machine is slow (the benchmark in bench/ judges them).
#   5. on Linux with dpkg-deb: packaging/linux/check_packages.sh builds the .deb and
#      the .tar.gz and runs packaging/smoke.sh on each installed copy of this bundle
#      (--version, the PNG export of 2., the offscreen self-test of 3., and a start
#      from the menu entry). There the PNG export and the offscreen self-test are
#      not run here a third time: only the SVG export and the xcb self-test, which
#      the packages' checks do not run (each start of the app is ~1.3 s of CPU).
#
# Environment knobs:
#   PYINSTALLER          command to run PyInstaller (default: pyinstaller)
#   PYTHON               python used for checks (default: python3); never used
#                        to run the bundle
#   MAX_BUNDLE_MB=180    size limit of dist/pe-studio on disk
#   MAX_TARGZ_MB=75      size limit of the .tar.gz
#   SMOKE_TIMEOUT=60     seconds allowed per smoke command
#   PE_STUDIO_WITH_TORCH=1   build the torch variant (size limits not applied)
#   SKIP_BUILD=1         reuse an existing dist/pe-studio (smoke tests only)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PROJECT_DIR="$(cd "${1:-$SCRIPT_DIR/..}" && pwd)"
PYINSTALLER="${PYINSTALLER:-pyinstaller}"
PYTHON="${PYTHON:-python3}"
MAX_BUNDLE_MB="${MAX_BUNDLE_MB:-180}"
MAX_TARGZ_MB="${MAX_TARGZ_MB:-75}"
SMOKE_TIMEOUT="${SMOKE_TIMEOUT:-60}"
WITH_TORCH="${PE_STUDIO_WITH_TORCH:-0}"

APP=pe-studio
DIST_DIR="$PROJECT_DIR/dist/$APP"
EXE="$DIST_DIR/$APP"
FAILURES=0

say()  { printf '[build_bundle] %s\n' "$*"; }
fail() { printf '[build_bundle] FAIL: %s\n' "$*" >&2; FAILURES=$((FAILURES + 1)); }
die()  { printf '[build_bundle] ERROR: %s\n' "$*" >&2; exit 1; }

# Wall clock in seconds with sub-second precision (bash 5 has EPOCHREALTIME).
now() {
    if [[ -n "${EPOCHREALTIME:-}" ]]; then
        printf '%s\n' "${EPOCHREALTIME/,/.}"
    else
        "$PYTHON" -c 'import time; print(f"{time.time():.6f}")'
    fi
}
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# `timeout` is GNU coreutils (gtimeout on macOS with Homebrew coreutils).
if command -v timeout >/dev/null 2>&1; then
    TIMEOUT=(timeout "$SMOKE_TIMEOUT")
elif command -v gtimeout >/dev/null 2>&1; then
    TIMEOUT=(gtimeout "$SMOKE_TIMEOUT")
else
    say "note: no timeout(1) found; smoke commands run without a time limit"
    TIMEOUT=()
fi

[[ -f "$PROJECT_DIR/build.spec" ]] || die "no build.spec in $PROJECT_DIR"
[[ -f "$PROJECT_DIR/main.py" ]] || die "no main.py in $PROJECT_DIR"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pe-studio-smoke.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/empty-bin" "$WORK/home" "$WORK/cwd"
case "$WORK" in "$PROJECT_DIR"/*) die "smoke directory must be outside the project" ;; esac

# ---------------------------------------------------------------- 1. build --
T_BUILD0=$(now)
if [[ "${SKIP_BUILD:-0}" == "1" ]]; then
    say "SKIP_BUILD=1: reusing $DIST_DIR"
else
    say "building in $PROJECT_DIR (torch variant: $WITH_TORCH) ..."
    (cd "$PROJECT_DIR" && "$PYINSTALLER" --noconfirm --clean build.spec) > "$WORK/pyinstaller.log" 2>&1 || {
        tail -n 60 "$WORK/pyinstaller.log" >&2
        die "pyinstaller failed (log tail above)"
    }
    grep -E '^\[build\.spec\]' "$WORK/pyinstaller.log" | sed 's/^/[build_bundle]   /' || true
fi
T_BUILD1=$(now)
BUILD_S=$(elapsed "$T_BUILD0" "$T_BUILD1")
[[ -x "$EXE" ]] || die "executable not found: $EXE"
say "build time: ${BUILD_S} s"

# Which libraries must the target system provide for the xcb platform plugin?
# (PyInstaller bundles the ones present on the build machine.)
if [[ "$(uname -s)" == "Linux" ]] && command -v ldd >/dev/null 2>&1; then
    QXCB="$(find "$DIST_DIR" -name 'libqxcb.so' -print -quit)"
    if [[ -n "$QXCB" ]]; then
        MISSING="$(LD_LIBRARY_PATH="$(dirname "$(dirname "$QXCB")")/../lib:$DIST_DIR/_internal" \
            ldd "$QXCB" 2>/dev/null | awk '/not found/ { print $1 }' | sort -u | tr '\n' ' ')"
        if [[ -n "$MISSING" ]]; then
            say "note: xcb plugin needs these from the target system (not on the build machine): $MISSING"
        else
            say "xcb plugin: all its libraries are bundled or found"
        fi
    else
        fail "libqxcb.so missing from the bundle (the GUI could not start on X11)"
    fi
fi

# On Linux with dpkg-deb, packaging/linux/check_packages.sh (run at the end) checks the
# .deb and the .tar.gz of this bundle: see 5. in the header.
PACKAGES_CHECK=0
if [[ "$(uname -s)" == Linux ]] && command -v dpkg-deb >/dev/null 2>&1; then PACKAGES_CHECK=1; fi

# A minimal environment: no DISPLAY, no PYTHON*, and a PATH without python.
MINIMAL_ENV=(env -i "HOME=$WORK/home" "PATH=$WORK/empty-bin" "LANG=C.UTF-8" "TMPDIR=$WORK")
for p in python python3; do
    if PATH="$WORK/empty-bin" command -v "$p" >/dev/null 2>&1; then die "python found on the smoke PATH"; fi
done

check_png() {  # check_png FILE [WIDTH HEIGHT]
    "$PYTHON" - "$@" <<'PY'
import struct, sys
path = sys.argv[1]
want = tuple(int(v) for v in sys.argv[2:4]) if len(sys.argv) >= 4 else None
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit(f"{path}: not a PNG (signature {data[:8]!r})")
if data[12:16] != b"IHDR":
    sys.exit(f"{path}: PNG without IHDR chunk")
w, h = struct.unpack(">II", data[16:24])
if w <= 0 or h <= 0 or len(data) < 1000:
    sys.exit(f"{path}: degenerate PNG {w}x{h}, {len(data)} bytes")
if want and (w, h) != want:
    sys.exit(f"{path}: PNG is {w}x{h}, expected {want[0]}x{want[1]}")
print(f"{w}x{h}, {len(data)} bytes")
PY
}

check_svg() {
    "$PYTHON" - "$1" <<'PY'
import sys
from xml.etree import ElementTree as ET
path = sys.argv[1]
root = ET.parse(path).getroot()
if not root.tag.endswith("svg"):
    sys.exit(f"{path}: root element is {root.tag}, not svg")
print(f"valid SVG, {len(open(path, 'rb').read())} bytes")
PY
}

# ------------------------------------------------------- 2. smoke (a) export --
EXPORTS=(svg png)
if [[ $PACKAGES_CHECK == 1 ]]; then EXPORTS=(svg); fi  # the PNG: in check_packages.sh
say "smoke (a): headless export (${EXPORTS[*]}) from $WORK/cwd with env -i and a python-free PATH"
for ext in "${EXPORTS[@]}"; do
    OUT="$WORK/x.$ext"
    set +e
    (cd "$WORK/cwd" && ${TIMEOUT[@]+"${TIMEOUT[@]}"} "${MINIMAL_ENV[@]}" "$EXE" export sinusoidal -o "$OUT" \
        --width 640 --height 360) > "$WORK/export-$ext.log" 2>&1
    rc=$?
    set -e
    if [[ $rc -ne 0 ]]; then
        sed 's/^/    /' "$WORK/export-$ext.log" | tail -n 30 >&2
        fail "export $ext exited with $rc"
        continue
    fi
    [[ -s "$OUT" ]] || { fail "export $ext: $OUT not written"; continue; }
    if [[ $ext == png ]]; then
        if info=$(check_png "$OUT" 640 360 2>&1); then say "  x.png OK: $info"; else fail "$info"; fi
    else
        if info=$(check_svg "$OUT" 2>&1); then say "  x.svg OK: $info"; else fail "x.svg: $info"; fi
    fi
done

# ----------------------------------------------------- 3. smoke (b) selftest --
# selftest LABEL CMD... : runs CMD (which starts the bundle with PE_STUDIO_SELFTEST=1)
# from the smoke cwd; sets SELF_MS (first-frame-ms or NaN) and SELF_WALL (s).
selftest() {
    local label="$1"; shift
    local log="$WORK/selftest-$label.log" t0 t1 rc
    t0=$(now)
    set +e
    (cd "$WORK/cwd" && ${TIMEOUT[@]+"${TIMEOUT[@]}"} "$@") > "$log" 2>&1
    rc=$?
    set -e
    t1=$(now)
    SELF_WALL=$(elapsed "$t0" "$t1")
    SELF_MS=$(sed -n 's/^first-frame-ms: *\([0-9][0-9.]*\).*/\1/p' "$log" | tail -n 1)
    if [[ $rc -ne 0 || -z "$SELF_MS" ]]; then
        sed 's/^/    /' "$log" | tail -n 30 >&2
        fail "selftest ($label) exited with $rc, first-frame-ms: ${SELF_MS:-missing}"
        SELF_MS=NaN
    fi
}

START_TIMES=""  # printed at the end
if [[ $PACKAGES_CHECK == 1 ]]; then
    say "smoke (b): offscreen: in check_packages.sh (each installed copy)"
else
    say "smoke (b): PE_STUDIO_SELFTEST=1 QT_QPA_PLATFORM=offscreen"
    selftest offscreen "${MINIMAL_ENV[@]}" PE_STUDIO_SELFTEST=1 QT_QPA_PLATFORM=offscreen "$EXE"
    say "  first frame: ${SELF_MS} ms (process ${SELF_WALL} s)"
    START_TIMES="${SELF_MS} ms offscreen"
fi

if [[ "$(uname -s)" == "Linux" ]]; then
    if command -v xvfb-run >/dev/null 2>&1; then
        # xvfb-run exports DISPLAY, so clear only the Python variables here.
        selftest xcb xvfb-run -a env -u PYTHONPATH -u PYTHONHOME "PATH=$WORK/empty-bin" \
            PE_STUDIO_SELFTEST=1 QT_QPA_PLATFORM=xcb "$EXE"
        say "  xcb (Xvfb): first frame ${SELF_MS} ms (process ${SELF_WALL} s)"
        START_TIMES="${START_TIMES:+$START_TIMES, }${SELF_MS} ms xcb"
    else
        say "  xcb: skipped (no xvfb-run; install xvfb to test the X11 platform plugin)"
    fi
fi

# ----------------------------------------------------------- 4. sizes/times --
BUNDLE_MB=$(du -sm "$DIST_DIR" | awk '{ print $1 }')
# With PACKAGES_CHECK=1, check_packages.sh (run at the end) builds the release .tar.gz of
# this same bundle and applies the same size limit to it: compressing the bundle a second
# time here would only cost time.
TARBALL="$PROJECT_DIR/dist/$APP-$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m).tar.gz"
if [[ $PACKAGES_CHECK == 1 ]]; then
    TARGZ_MB=0
else
    tar -C "$PROJECT_DIR/dist" -czf "$TARBALL" "$APP"
    TARGZ_MB=$(awk -v b="$(wc -c < "$TARBALL")" 'BEGIN { printf "%.1f", b / 1048576 }')
fi
T_END=$(now)

say "bundle:     $DIST_DIR  ${BUNDLE_MB} MB on disk (limit ${MAX_BUNDLE_MB})"
if [[ $PACKAGES_CHECK == 1 ]]; then
    say "tarball:    the release .tar.gz: built and size-checked by packaging/linux/check_packages.sh below"
else
    say "tarball:    $TARBALL  ${TARGZ_MB} MB (limit ${MAX_TARGZ_MB})"
fi
say "start:      first frame ${START_TIMES:-(no self-test run)} (printed, not judged)"
say "times:      build ${BUILD_S} s, build+smoke $(elapsed "$T_BUILD0" "$T_END") s"

if [[ "$WITH_TORCH" == "1" ]]; then
    say "torch variant: size limits not applied"
else
    awk -v v="$BUNDLE_MB" -v m="$MAX_BUNDLE_MB" 'BEGIN { exit !(v > m) }' \
        && fail "bundle ${BUNDLE_MB} MB > ${MAX_BUNDLE_MB} MB"
    awk -v v="$TARGZ_MB" -v m="$MAX_TARGZ_MB" 'BEGIN { exit !(v > m) }' \
        && fail "tar.gz ${TARGZ_MB} MB > ${MAX_TARGZ_MB} MB"
fi

if [[ $FAILURES -ne 0 ]]; then
    say "RESULT: FAILED ($FAILURES check(s))"
    exit 1
fi
say "RESULT: OK"
if [[ $PACKAGES_CHECK == 1 ]]; then MAX_ARTIFACT_MB="${MAX_ARTIFACT_MB:-$MAX_TARGZ_MB}" PROJECT_DIR="$PROJECT_DIR" BUNDLE_DIR="$DIST_DIR" OUT_DIR="$PROJECT_DIR/dist" bash "$PROJECT_DIR/packaging/linux/check_packages.sh"; fi
