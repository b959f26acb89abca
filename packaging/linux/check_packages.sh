#!/usr/bin/env bash
# Build the Linux packages from the bundle and check them the way a user gets them.
#
# Usage:  packaging/linux/check_packages.sh     (needs dist/pe-studio; see common.sh)
#
#   1. builds pe-studio_<version>_<arch>.deb (if dpkg-deb exists) and
#      pe-studio-<version>-linux-<arch>.tar.gz into OUT_DIR (SKIP_PACKAGE_BUILD=1 reuses them)
#   2. sizes: bundle <= MAX_BUNDLE_MB (180), each compressed artifact <= MAX_ARTIFACT_MB (75)
#      (not enforced for the torch variant, PE_STUDIO_WITH_TORCH=1)
#   3. .deb: dpkg -i; packaging/smoke.sh with env -i and a PATH that holds only the
#      pe-studio command (no python): --version, export sinusoidal -o x.png, the GUI
#      self-test offscreen; the menu entry's Exec line starts the app; the app writes
#      nothing under /opt; dpkg -r and dpkg -P leave none of the package's files.
#      Needs root or password-less sudo (skipped with a note otherwise, or with CHECK_DEB=0).
#      Declared libraries missing on this machine are named and forced past (the checks
#      run offscreen and do not need them).
#   4. .tar.gz: unpack; install.sh twice into a temporary HOME (the same files both times);
#      the same smoke test and menu-entry start; uninstall.sh twice; then install again and
#      remove it with the installed ~/.local/opt/pe-studio/uninstall.sh. Nothing may be
#      left but what the app itself wrote (~/.config, ~/.cache).
# Exits non-zero if any check fails.
set -euo pipefail
LOG_TAG=check_packages
# shellcheck source=packaging/linux/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

MAX_BUNDLE_MB="${MAX_BUNDLE_MB:-180}"
MAX_ARTIFACT_MB="${MAX_ARTIFACT_MB:-75}"
if [[ "${PE_STUDIO_WITH_TORCH:-0}" == "1" ]]; then  # the torch variant: sizes reported only
    MAX_BUNDLE_MB=1000000 MAX_ARTIFACT_MB=1000000
fi
SMOKE="$PKG_SCRIPT_DIR/../smoke.sh"
FAILURES=0
fail() { printf '[%s] FAIL: %s\n' "$LOG_TAG" "$*" >&2; FAILURES=$((FAILURES + 1)); }
# verdict STATUS OK_MESSAGE FAIL_MESSAGE
verdict() { if [[ "$1" -eq 0 ]]; then say "$2"; else fail "$3"; fi; }
over() { awk -v v="$1" -v m="$2" 'BEGIN { exit !(v > m) }'; }

require_bundle
VERSION="$(app_version)"
DEB="$OUT_DIR/${APP}_${VERSION}_$(deb_arch).deb"
TARBALL="$OUT_DIR/$APP-$VERSION-linux-$(uname -m).tar.gz"
HAVE_DPKG=0
if command -v dpkg-deb >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then HAVE_DPKG=1; fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pe-studio-pkgcheck.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
TO=()
if timeout --version >/dev/null 2>&1; then TO=(timeout "${SMOKE_TIMEOUT:-60}"); fi

# ---------------------------------------------------------------- 1. build --
# The two packages are independent (each copies the bundle into a folder of its own and
# compresses it; the .tar.gz's gzip alone is ~7 s of one core): built side by side. A
# failed build ends the run, as it did when they were built one after the other.
if [[ "${SKIP_PACKAGE_BUILD:-0}" != "1" ]]; then
    deb_build=""
    if [[ $HAVE_DPKG == 1 ]]; then
        "$PKG_SCRIPT_DIR/build_deb.sh" >/dev/null &
        deb_build=$!
    fi
    tgz_build=0
    "$PKG_SCRIPT_DIR/build_tarball.sh" >/dev/null || tgz_build=$?
    if [[ -n $deb_build ]]; then wait "$deb_build"; fi
    if [[ $tgz_build -ne 0 ]]; then exit "$tgz_build"; fi
fi

# ---------------------------------------------------------------- 2. sizes --
BUNDLE_MB="$(size_mb "$BUNDLE_DIR")"
say "size: bundle $BUNDLE_DIR: $BUNDLE_MB MB (limit $MAX_BUNDLE_MB)"
if over "$BUNDLE_MB" "$MAX_BUNDLE_MB"; then fail "bundle $BUNDLE_MB MB > $MAX_BUNDLE_MB MB"; fi
for artifact in "$DEB" "$TARBALL"; do
    if [[ ! -f "$artifact" ]]; then
        if [[ "$artifact" == "$DEB" && $HAVE_DPKG == 0 ]]; then
            say "size: no .deb (dpkg-deb not installed)"
        else
            fail "missing artifact $artifact"
        fi
        continue
    fi
    mb="$(size_mb "$artifact")"
    say "size: $(basename "$artifact"): $mb MB (limit $MAX_ARTIFACT_MB)"
    if over "$mb" "$MAX_ARTIFACT_MB"; then fail "$(basename "$artifact") $mb MB > $MAX_ARTIFACT_MB MB"; fi
done

# check_installed LABEL BIN_DIR DESKTOP_FILE HOME: smoke test + start from the menu entry.
check_installed() {
    local label="$1" bin_dir="$2" desktop="$3" home="$4" rc=0 exec_line
    SMOKE_LABEL="$LOG_TAG] [$label" "$SMOKE" --clean-env "$bin_dir" --home "$home" "$APP" || rc=$?
    verdict $rc "  $label: smoke test passed" "$label: smoke test failed"
    # The menu entry: its Exec line, run as a desktop session would (its usual PATH).
    exec_line="$(sed -n 's/^Exec=//p' "$desktop" | head -n 1)"
    exec_line="${exec_line#\"}"
    exec_line="${exec_line%\"}"
    rc=0
    (cd "$WORK" && ${TO[@]+"${TO[@]}"} env -i "HOME=$home" PATH=/usr/local/bin:/usr/bin:/bin \
        LANG=C.UTF-8 PE_STUDIO_SELFTEST=1 QT_QPA_PLATFORM=offscreen "$exec_line") \
        > "$WORK/$label-menu.log" 2>&1 || rc=$?
    verdict $rc "  $label: the menu entry (Exec=$exec_line) starts the app" \
        "$label: menu entry Exec=$exec_line exited $rc"
}

# The .deb (installed system-wide) and the .tar.gz (installed into a temporary HOME) are
# checked side by side: neither touches what the other installs, each runs the app from
# its own folders. Each check counts its own failures and keeps its output, printed in
# this order afterwards (what each prints on stdout and stderr, there again).
# ------------------------------------------------------------------ 3. .deb --
check_deb() {
    FAILURES=0
    SUDO=()
    if [[ $(id -u) -ne 0 ]] && sudo -n true 2>/dev/null; then SUDO=(sudo -n); fi
    if [[ "${CHECK_DEB:-1}" == "0" || $HAVE_DPKG == 0 || ! -f "$DEB" ]]; then
        say ".deb: check skipped (CHECK_DEB=0, no dpkg, or no .deb)"
    elif [[ $(id -u) -ne 0 && ${#SUDO[@]} -eq 0 ]]; then
        say ".deb: check skipped (needs root or password-less sudo for dpkg -i)"
    elif dpkg-query -W -f='${Status}' "$APP" 2>/dev/null | grep -q 'ok installed'; then
        fail ".deb: $APP is already installed on this machine; not touching it (dpkg -r $APP first)"
    else
        say ".deb: $(basename "$DEB")"
        DESKTOP="/usr/share/applications/$APP.desktop"
        ICON="$(dpkg-deb -c "$DEB" | awk '{ print $6 }' | sed -n 's|^\./\(usr/share/icons/.*\.png\)$|/\1|p')"
        PATHS=("/opt/$APP" "/usr/bin/$APP" "$DESKTOP" "$ICON" "/usr/share/doc/$APP")
        MISSING=()
        for dep in $(dpkg-deb -f "$DEB" Depends | tr ',' '\n' | sed 's/([^)]*)//; s/|.*//; s/ //g'); do
            dpkg-query -W -f='${Status}' "$dep" 2>/dev/null | grep -q 'ok installed' || MISSING+=("$dep")
        done
        FORCE=()
        if [[ ${#MISSING[@]} -gt 0 ]]; then
            say "  note: declared but not installed here: ${MISSING[*]} (apt installs them; forced past for this offscreen check)"
            FORCE=(--force-depends)
        fi
        if ${SUDO[@]+"${SUDO[@]}"} dpkg -i ${FORCE[@]+"${FORCE[@]}"} "$DEB" > "$WORK/dpkg-i.log" 2>&1; then
            for p in "${PATHS[@]}"; do [[ -e "$p" ]] || fail ".deb: $p not installed"; done
            if [[ "$(readlink -f "/usr/bin/$APP")" != "/opt/$APP/$APP" ]]; then
                fail ".deb: /usr/bin/$APP does not lead to /opt/$APP/$APP"
            fi
            N_BEFORE="$(find "/opt/$APP" | wc -l)"
            mkdir -p "$WORK/deb-bin" "$WORK/deb-home"
            ln -s "/usr/bin/$APP" "$WORK/deb-bin/$APP"
            check_installed deb "$WORK/deb-bin" "$DESKTOP" "$WORK/deb-home"
            if [[ "$(find "/opt/$APP" | wc -l)" != "$N_BEFORE" ]]; then fail ".deb: the app wrote files under /opt/$APP"; fi
        else
            sed 's/^/    /' "$WORK/dpkg-i.log" >&2
            fail ".deb: dpkg -i failed"
        fi
        ${SUDO[@]+"${SUDO[@]}"} dpkg -r "$APP" > "$WORK/dpkg-r.log" 2>&1 || fail ".deb: dpkg -r failed"
        ${SUDO[@]+"${SUDO[@]}"} dpkg -P "$APP" > "$WORK/dpkg-p.log" 2>&1 || fail ".deb: dpkg -P failed"
        LEFT=()
        for p in "${PATHS[@]}"; do if [[ -e "$p" || -L "$p" ]]; then LEFT+=("$p"); fi; done
        if dpkg-query -W -f='${Status}' "$APP" 2>/dev/null | grep -q 'installed'; then LEFT+=("its dpkg status"); fi
        verdict ${#LEFT[@]} "  deb: dpkg -r and -P removed everything (${PATHS[*]})" \
            ".deb: left behind after dpkg -r/-P: ${LEFT[*]:-}"
    fi
    return "$FAILURES"
}

# ---------------------------------------------------------------- 4. .tar.gz --
# What a per-user install leaves in HOME, apart from the app's own ~/.config and ~/.cache.
home_state() {
    (cd "$1" && find . \( -path ./.config -o -path ./.cache \) -prune -o -printf '%p %y %s %l\n' | sort)
    cat "$1/.local/share/applications/$APP.desktop" 2>/dev/null || true
}
home_files() {
    (cd "$1" && find . \( -path ./.config -o -path ./.cache \) -prune -o \( -type f -o -type l \) -print)
}
check_tarball() {
    FAILURES=0
    if [[ -f "$TARBALL" ]]; then
        say ".tar.gz: $(basename "$TARBALL"), per-user install into a temporary HOME"
        H="$WORK/home dir"  # a space, as in many real home folders' subpaths
        mkdir -p "$H" "$WORK/unpack"
        tar -C "$WORK/unpack" -xzf "$TARBALL"
        TOP="$WORK/unpack/$(basename "$TARBALL" .tar.gz)"
        USER_ENV=(env -i "HOME=$H" PATH=/usr/bin:/bin LANG=C.UTF-8)
        rc=0; "${USER_ENV[@]}" "$TOP/install.sh" > "$WORK/install1.log" 2>&1 || rc=$?
        verdict $rc "  install.sh: installed" "install.sh (1st run) exited $rc: $(tail -n 3 "$WORK/install1.log")"
        S1="$(home_state "$H")"
        rc=0; "${USER_ENV[@]}" "$TOP/install.sh" > "$WORK/install2.log" 2>&1 || rc=$?
        verdict $rc "  install.sh again: installed" "install.sh (2nd run) exited $rc"
        if [[ "$S1" == "$(home_state "$H")" ]]; then same=0; else same=1; fi
        verdict $same "  install.sh twice: the same files both times" "install.sh is not idempotent"
        for p in ".local/opt/$APP/$APP" ".local/opt/$APP/uninstall.sh" ".local/bin/$APP" \
            ".local/share/applications/$APP.desktop" ".local/share/icons/hicolor/256x256/apps/$APP.png"; do
            [[ -e "$H/$p" ]] || fail "install.sh did not install ~/$p"
        done
        check_installed tarball "$H/.local/bin" "$H/.local/share/applications/$APP.desktop" "$H"
        rc=0; "${USER_ENV[@]}" "$TOP/uninstall.sh" > "$WORK/uninstall1.log" 2>&1 || rc=$?
        verdict $rc "  uninstall.sh: removed" "uninstall.sh (1st run) exited $rc"
        rc=0; "${USER_ENV[@]}" "$TOP/uninstall.sh" > "$WORK/uninstall2.log" 2>&1 || rc=$?
        if [[ $rc -eq 0 ]] && ! grep -q 'nothing to remove' "$WORK/uninstall2.log"; then rc=1; fi
        verdict $rc "  uninstall.sh again: nothing to remove" "uninstall.sh (2nd run) failed or removed something"
        left="$(home_files "$H")"
        if [[ -z "$left" && ! -e "$H/.local/opt" ]]; then rc=0; else rc=1; fi
        verdict $rc "  uninstall.sh: nothing left in HOME (the app's own ~/.config and ~/.cache are kept)" \
            "uninstall.sh left: ${left:-$H/.local/opt}"
        rc=0; "${USER_ENV[@]}" "$TOP/install.sh" > /dev/null 2>&1 || rc=$?
        "${USER_ENV[@]}" "$H/.local/opt/$APP/uninstall.sh" > "$WORK/uninstall3.log" 2>&1 || rc=$?
        left="$(home_files "$H")"
        if [[ -n "$left" ]]; then rc=1; fi
        verdict $rc "  ~/.local/opt/$APP/uninstall.sh (the installed copy): nothing left" \
            "install + installed uninstall.sh failed or left: $left"
    else
        fail "missing $TARBALL"
    fi
    return "$FAILURES"
}

check_deb >"$WORK/check-deb.out" 2>"$WORK/check-deb.err" &
deb_check=$!
check_tarball >"$WORK/check-tgz.out" 2>"$WORK/check-tgz.err" &
tgz_check=$!
deb_failed=0
wait "$deb_check" || deb_failed=$?
tgz_failed=0
wait "$tgz_check" || tgz_failed=$?
for part in deb tgz; do
    cat "$WORK/check-$part.out"
    cat "$WORK/check-$part.err" >&2
done
FAILURES=$((FAILURES + deb_failed + tgz_failed))

if [[ $FAILURES -ne 0 ]]; then
    say "RESULT: FAILED ($FAILURES check(s))"
    exit 1
fi
say "RESULT: OK"
