#!/usr/bin/env bash
# Build pe-studio-<version>-linux-<arch>.tar.gz: the bundle plus a per-user installer.
#
# Usage:  packaging/linux/build_tarball.sh      (prints the archive's path on its last line)
#
# Content (one top folder, pe-studio-<version>-linux-<arch>/):
#   install.sh, uninstall.sh     per-user install into ~/.local, no root (see install.sh)
#   README.txt                   the three commands a user needs
#   pe-studio/                   the PyInstaller bundle (runs in place, too)
#   share/applications/pe-studio.desktop, share/icons/hicolor/<N>x<N>/apps/pe-studio.png
#
# Environment: PROJECT_DIR, BUNDLE_DIR, OUT_DIR (see common.sh); TGZ_GZIP_LEVEL, gzip's
# level 1..9 (default 6, gzip's own, as released). .ci/run checks a level 1 archive: 3 s of
# CPU instead of 8, ~10 % larger, so its size limit holds a fortiori at level 6.
set -euo pipefail
LOG_TAG=build_tarball
# shellcheck source=packaging/linux/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

require_bundle
VERSION="$(app_version)"
NAME="$APP-$VERSION-linux-$(uname -m)"
TARBALL="$OUT_DIR/$NAME.tar.gz"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pe-studio-tgz.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
TOP="$WORK/$NAME"
ICON_SIZE="$(png_size "$ICON_PNG")"
ICON_DIR="share/icons/hicolor/${ICON_SIZE}x${ICON_SIZE}/apps"
mkdir -p "$TOP/share/applications" "$TOP/$ICON_DIR"
cp -a "$BUNDLE_DIR" "$TOP/$APP"
install -m 0755 "$PKG_SCRIPT_DIR/install.sh" "$PKG_SCRIPT_DIR/uninstall.sh" "$TOP/"
install -m 0644 "$DESKTOP_FILE" "$TOP/share/applications/$APP.desktop"
install -m 0644 "$ICON_PNG" "$TOP/$ICON_DIR/$APP.png"
cat > "$TOP/README.txt" <<TXT
$PRETTY_NAME $VERSION for Linux ($(uname -m))

Install for your user (no root, no Python needed):   ./install.sh
Then start it from the application menu, or type:    pe-studio
Remove it again:                                      ./uninstall.sh
                                        (or ~/.local/opt/$APP/uninstall.sh)

Without installing, run it in place: ./$APP/$APP
Headless export example: $APP export sinusoidal -o waves.png
If the window does not open with "could not load the Qt platform plugin xcb", install:
  sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0
TXT
chmod -R u+rwX,go+rX,go-w "$TOP"

mkdir -p "$OUT_DIR"
rm -f "$TARBALL"
LEVEL="${TGZ_GZIP_LEVEL:-6}"
[[ "$LEVEL" =~ ^[1-9]$ ]] || die "TGZ_GZIP_LEVEL must be 1..9, not '$LEVEL'"
tar -C "$WORK" --owner=0 --group=0 --numeric-owner -cf - "$NAME" | gzip "-$LEVEL" > "$TARBALL"
say "built $TARBALL ($(size_mb "$TARBALL") MB)"
echo "$TARBALL"
