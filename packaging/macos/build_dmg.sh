#!/usr/bin/env bash
# macOS: check the .app that build.spec made and pack it into a drag-to-install .dmg.
#
# Usage (repository root, after `pyinstaller --noconfirm --clean build.spec`):
#     bash packaging/macos/build_dmg.sh
# 1. dist/Positional Encoding Studio.app: Info.plist version = core/version.py, and
#    packaging/smoke.sh on its Contents/MacOS/pe-studio (--version, PNG export, self-test)
# 2. hdiutil: the .app plus an /Applications link -> dist/pe-studio-<version>-macos-<arch>.dmg
# 3. the image mounted read-only: the app runs from it (smoke test again); size <= 75 MB
# The app is not signed or notarised: the first start needs right-click -> Open.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VERSION="$(tr -d '\r' < "$ROOT/core/version.py" | sed -n 's/^__version__ = "\(.*\)"$/\1/p')"
PRETTY="Positional Encoding Studio"
APP_BUNDLE="$ROOT/dist/$PRETTY.app"
DMG="$ROOT/dist/pe-studio-$VERSION-macos-$(uname -m).dmg"
die() { echo "[macos] ERROR: $*" >&2; exit 1; }

[[ "$(uname -s)" == Darwin ]] || die "hdiutil needs macOS"
[[ -x "$APP_BUNDLE/Contents/MacOS/pe-studio" ]] || die "no $APP_BUNDLE (build it with build.spec on macOS)"
plist_version="$(/usr/libexec/PlistBuddy -c 'Print :CFBundleShortVersionString' "$APP_BUNDLE/Contents/Info.plist")"
[[ "$plist_version" == "$VERSION" ]] || die "Info.plist says $plist_version, core/version.py $VERSION"
SMOKE_LABEL=app bash "$ROOT/packaging/smoke.sh" "$APP_BUNDLE/Contents/MacOS/pe-studio"

STAGE="$(mktemp -d)"
MNT="$(mktemp -d)"
cleanup() { hdiutil detach "$MNT" -quiet 2>/dev/null || true; rm -rf "$STAGE"; }
trap cleanup EXIT
ditto "$APP_BUNDLE" "$STAGE/$PRETTY.app"  # keeps symlinks, signatures, attributes
ln -s /Applications "$STAGE/Applications"
rm -f "$DMG"
hdiutil create -volname "$PRETTY $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$DMG" >/dev/null
hdiutil attach -nobrowse -readonly -mountpoint "$MNT" "$DMG" >/dev/null
SMOKE_LABEL=dmg bash "$ROOT/packaging/smoke.sh" "$MNT/$PRETTY.app/Contents/MacOS/pe-studio"
size_mb="$(awk -v b="$(wc -c < "$DMG")" 'BEGIN { printf "%.1f", b / 1048576 }')"
echo "[macos] built $DMG ($size_mb MB, limit 75)"
if awk -v v="$size_mb" 'BEGIN { exit !(v > 75) }'; then die "dmg $size_mb MB > 75 MB"; fi
echo "[macos] OK"
