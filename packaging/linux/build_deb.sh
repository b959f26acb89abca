#!/usr/bin/env bash
# Build pe-studio_<version>_<arch>.deb from the PyInstaller one-folder bundle.
#
# Usage:  packaging/linux/build_deb.sh          (prints the .deb's path on its last line)
#
# Layout of the package:
#   /opt/pe-studio/                                the bundle (executable + _internal/)
#   /usr/bin/pe-studio                          -> /opt/pe-studio/pe-studio (symlink)
#   /usr/share/applications/pe-studio.desktop      menu entry (resources/pe-studio.desktop)
#   /usr/share/icons/hicolor/<N>x<N>/apps/pe-studio.png   N = the PNG's real width
#   /usr/share/doc/pe-studio/copyright
# No maintainer scripts: the desktop database and icon cache are refreshed by the dpkg
# triggers of desktop-file-utils / the icon theme, and `dpkg -r` removes every file
# because the app writes nothing under /opt at run time.
#
# Depends: what the bundle needs from the system (PyInstaller never bundles libc, libGL,
# libEGL, libxcb; fonts and their configuration come from fontconfig), plus the xcb
# plugin's libraries (Qt >= 6.5), which the bundle carries only when the build machine
# had them. The build fails if `ldd` finds a system library of a package that is not
# declared (set ALLOW_UNDECLARED_LIBS=1 to only warn).
#
# Environment: PROJECT_DIR, BUNDLE_DIR, OUT_DIR (see common.sh), DEB_MAINTAINER,
# DEB_COMPRESS (xz, the default, is readable by every dpkg; gzip is faster).
set -euo pipefail
LOG_TAG=build_deb
# shellcheck source=packaging/linux/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb not found (Debian/Ubuntu: apt install dpkg)"
require_bundle
VERSION="$(app_version)"
ARCH="$(deb_arch)"
DEB="$OUT_DIR/${APP}_${VERSION}_${ARCH}.deb"

# Libraries the xcb platform plugin needs on the target (bundled or not), and what the
# bundle links from the system. Wayland: only the wayland plugin needs these; without
# them Qt falls back to xcb (XWayland), so they are recommended, not required.
GLIBC="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')"
DEPENDS=(
    "libc6${GLIBC:+ (>= $GLIBC)}"
    libgl1 libegl1 libxcb1 libfontconfig1
    libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
    libxcb-randr0 libxcb-shape0 libxcb-xfixes0 libxcb-xkb1 libxkbcommon-x11-0 libxkbcommon0
    libx11-xcb1 libdbus-1-3
)
RECOMMENDS=(libwayland-client0 libwayland-cursor0 libwayland-egl1)

# ------------------------------------------------------ check the declarations --
# Every library that resolves outside the bundle must come from a declared package
# (or a package a declared one depends on, e.g. libgl1 -> libglx0).
declared_names() {
    local p
    for p in "${DEPENDS[@]}" "${RECOMMENDS[@]}"; do
        echo "${p%% *}"
        dpkg-query -W -f='${Depends}\n' "${p%% *}" 2>/dev/null | tr ',|' '\n' \
            | sed 's/([^)]*)//g; s/:any//; s/ //g' | grep -v '^$' || true
    done | sort -u
}
system_libs() {  # paths of system libraries the bundle's ELF files resolve
    local libpath f
    libpath="$(find "$BUNDLE_DIR" -name '*.so*' -type f -printf '%h\n' | sort -u | tr '\n' ':')"
    find "$BUNDLE_DIR" -type f \( -name '*.so*' -o -path "$BUNDLE_DIR/$APP" \) -print0 \
        | while IFS= read -r -d '' f; do
            LD_LIBRARY_PATH="$libpath" ldd "$f" 2>/dev/null || true
        done | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u \
        | while read -r f; do case "$f" in "$BUNDLE_DIR"/*) ;; *) echo "$f" ;; esac; done
}
owner_package() {  # the package shipping a library path (merged-/usr aware)
    local p="$1" real
    real="$(readlink -f "$p")"
    for cand in "$p" "$real" "/usr$p" "/usr$real" "${p#/usr}" "${real#/usr}"; do
        dpkg -S "$cand" 2>/dev/null | head -n 1 | cut -d: -f1 && return 0
    done
    return 1
}
if command -v ldd >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then
    DECLARED="$(declared_names)"
    UNDECLARED=()
    while read -r lib; do
        [[ -n "$lib" ]] || continue
        if pkg="$(owner_package "$lib")" && [[ -n "$pkg" ]]; then
            grep -qxF "$pkg" <<<"$DECLARED" || UNDECLARED+=("$pkg ($lib)")
        else
            say "note: no package owns $lib"
        fi
    done < <(system_libs)
    if [[ ${#UNDECLARED[@]} -gt 0 ]]; then
        msg="system libraries of undeclared packages: ${UNDECLARED[*]}"
        if [[ "${ALLOW_UNDECLARED_LIBS:-0}" != "1" ]]; then die "$msg (add them to DEPENDS)"; fi
        say "warning: $msg"
    fi
    say "every system library the bundle links comes from a declared package"
fi

# ---------------------------------------------------------------- stage --
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pe-studio-deb.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
ROOT="$WORK/root"
ICON_SIZE="$(png_size "$ICON_PNG")"
ICON_DIR="usr/share/icons/hicolor/${ICON_SIZE}x${ICON_SIZE}/apps"
mkdir -p "$ROOT/DEBIAN" "$ROOT/opt" "$ROOT/usr/bin" "$ROOT/usr/share/applications" \
    "$ROOT/$ICON_DIR" "$ROOT/usr/share/doc/$APP"
cp -a "$BUNDLE_DIR" "$ROOT/opt/$APP"
ln -s "/opt/$APP/$APP" "$ROOT/usr/bin/$APP"
install -m 0644 "$DESKTOP_FILE" "$ROOT/usr/share/applications/$APP.desktop"
install -m 0644 "$ICON_PNG" "$ROOT/$ICON_DIR/$APP.png"
cat > "$ROOT/usr/share/doc/$APP/copyright" <<TXT
$PRETTY_NAME $VERSION
License: MIT

The bundle under /opt/$APP carries CPython (PSF License), Qt 6 and PySide6 (LGPL-3.0),
pyqtgraph (MIT), numpy (BSD-3-Clause) and superqt (BSD-3-Clause).
TXT
# Normalise permissions (umask of the build machine must not leak into the package).
chmod -R u+rwX,go+rX,go-w "$ROOT"

INSTALLED_KB="$(du -sk --exclude=DEBIAN "$ROOT" | awk '{ print $1 }')"
join_by_comma() { local IFS=','; local s="$*"; echo "${s//,/, }"; }
cat > "$ROOT/DEBIAN/control" <<CTRL
Package: $APP
Version: $VERSION
Architecture: $ARCH
Maintainer: ${DEB_MAINTAINER:-Positional Encoding Studio maintainers <pe-studio@localhost>}
Installed-Size: $INSTALLED_KB
Depends: $(join_by_comma "${DEPENDS[@]}")
Recommends: $(join_by_comma "${RECOMMENDS[@]}")
Section: education
Priority: optional
Description: $PRETTY_NAME: how transformers learn word order
 A desktop app for lecturers that shows, live, sinusoidal, learned, RoPE,
 ALiBi and relative positional encodings, with a lecture mode and PNG, SVG,
 CSV and NPY export (also from the command line: pe-studio export).
 .
 Self-contained: the bundle in /opt/$APP carries Python and its libraries.
CTRL

mkdir -p "$OUT_DIR"
rm -f "$DEB"
dpkg-deb --root-owner-group -Z"${DEB_COMPRESS:-xz}" --build "$ROOT" "$DEB" >/dev/null
say "built $DEB ($(size_mb "$DEB") MB, installs $((INSTALLED_KB / 1024)) MB)"
echo "$DEB"
