# shellcheck shell=bash disable=SC2034  # (variables are used by the scripts that source it)
# Shared helpers for the Linux packaging scripts (sourced, not run).
#
# Every script takes the project from PROJECT_DIR (default: the repository root) and the
# PyInstaller one-folder bundle from BUNDLE_DIR (default: PROJECT_DIR/dist/pe-studio, as
# built by `pyinstaller --noconfirm --clean build.spec`). Artifacts go to OUT_DIR
# (default: PROJECT_DIR/dist). Nothing here needs Python.

APP=pe-studio
PRETTY_NAME="Positional Encoding Studio"
PKG_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PROJECT_DIR="$(cd "${PROJECT_DIR:-$PKG_SCRIPT_DIR/../..}" && pwd)"
BUNDLE_DIR="${BUNDLE_DIR:-$PROJECT_DIR/dist/$APP}"
OUT_DIR="${OUT_DIR:-$PROJECT_DIR/dist}"
DESKTOP_FILE="$PROJECT_DIR/resources/$APP.desktop"
ICON_PNG="$PROJECT_DIR/resources/icons/$APP.png"

say() { printf '[%s] %s\n' "${LOG_TAG:-packaging}" "$*"; }
die() { printf '[%s] ERROR: %s\n' "${LOG_TAG:-packaging}" "$*" >&2; exit 1; }

# The version, from its one place (core/version.py), read without Python.
app_version() {
    local v
    v="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$PROJECT_DIR/core/version.py")"
    [[ -n "$v" ]] || die "no __version__ line in $PROJECT_DIR/core/version.py"
    printf '%s\n' "$v"
}

# Debian architecture name (amd64, arm64, ...).
deb_arch() {
    if command -v dpkg >/dev/null 2>&1; then
        dpkg --print-architecture
    else
        case "$(uname -m)" in
            x86_64) echo amd64 ;; aarch64) echo arm64 ;; armv7l) echo armhf ;; *) uname -m ;;
        esac
    fi
}

# Width of a PNG (its IHDR), for the hicolor icon directory name, e.g. 256.
png_size() {
    local w
    w="$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')"
    [[ "$w" -gt 0 ]] || die "$1 is not a PNG"
    printf '%s\n' "$w"
}

require_bundle() {
    [[ -x "$BUNDLE_DIR/$APP" ]] || die "no bundle at $BUNDLE_DIR (build it: pyinstaller --noconfirm --clean build.spec)"
    [[ -f "$DESKTOP_FILE" ]] || die "missing $DESKTOP_FILE"
    [[ -f "$ICON_PNG" ]] || die "missing $ICON_PNG"
}

size_mb() {  # size_mb FILE_OR_DIR -> megabytes (MiB), one decimal
    local bytes
    if [[ -d "$1" ]]; then
        bytes=$(( $(du -sk "$1" | awk '{ print $1 }') * 1024 ))
    else
        bytes=$(wc -c < "$1")
    fi
    awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }'
}
