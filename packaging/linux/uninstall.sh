#!/usr/bin/env bash
# Remove what install.sh installed for the current user (see install.sh for the list).
#
# Works from the unpacked tarball and as ~/.local/opt/pe-studio/uninstall.sh. Removes only
# files that are install.sh's: the command link only if it points into the app folder,
# the menu entry only if install.sh wrote it. Your settings (~/.config) are kept.
# Running it again when nothing is installed does nothing and succeeds.
set -euo pipefail

main() {
    local app=pe-studio
    [[ -n "${HOME:-}" && -d "$HOME" ]] || { echo "uninstall.sh: HOME is not set to a directory" >&2; exit 1; }
    local opt_dir="$HOME/.local/opt/$app" bin_dir="$HOME/.local/bin"
    local data_dir="${XDG_DATA_HOME:-$HOME/.local/share}"
    local removed=0 f

    if [[ -L "$bin_dir/$app" && "$(readlink "$bin_dir/$app")" == "$opt_dir/$app" ]]; then
        rm -f "$bin_dir/$app" && removed=1
    fi
    f="$data_dir/applications/$app.desktop"
    if [[ -f "$f" ]] && grep -q '^X-PE-Studio-Installed-By=install.sh$' "$f"; then
        rm -f "$f" && removed=1
    fi
    for f in "$data_dir"/icons/hicolor/*/apps/"$app".png; do
        if [[ -f "$f" ]]; then
            rm -f "$f"
            removed=1
        fi
    done
    if [[ -x "$opt_dir/$app" ]]; then
        rm -rf "$opt_dir" && removed=1
    fi
    rmdir "$(dirname "$opt_dir")" 2>/dev/null || true  # ~/.local/opt, if now empty

    if [[ $removed -eq 1 ]]; then
        echo "Removed Positional Encoding Studio from $opt_dir"
    else
        echo "Positional Encoding Studio is not installed in $opt_dir; nothing to remove"
    fi
}

main "$@"
