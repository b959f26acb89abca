#!/usr/bin/env bash
# Install Positional Encoding Studio for the current user; no root, no Python needed.
#
# Run it from the unpacked pe-studio-<version>-linux-<arch>.tar.gz:   ./install.sh
#
#   ~/.local/opt/pe-studio/                        the app (replaced as a whole on re-install)
#   ~/.local/bin/pe-studio                      -> ~/.local/opt/pe-studio/pe-studio
#   ~/.local/share/applications/pe-studio.desktop  menu entry (Exec: the absolute path, so it
#                                                  works even if ~/.local/bin is not on PATH)
#   ~/.local/share/icons/hicolor/<N>x<N>/apps/pe-studio.png
# (~/.local/share is $XDG_DATA_HOME when that is set.) Running it again installs the same
# files again (idempotent; also how to upgrade). Undo with ./uninstall.sh, or with
# ~/.local/opt/pe-studio/uninstall.sh once the tarball is gone.
set -euo pipefail

main() {
    local here app=pe-studio
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
    [[ -n "${HOME:-}" && -d "$HOME" ]] || { echo "install.sh: HOME is not set to a directory" >&2; exit 1; }
    local opt_dir="$HOME/.local/opt/$app" bin_dir="$HOME/.local/bin"
    local data_dir="${XDG_DATA_HOME:-$HOME/.local/share}"
    [[ -x "$here/$app/$app" ]] || { echo "install.sh: no app bundle at $here/$app" >&2; exit 1; }
    [[ -f "$here/share/applications/$app.desktop" ]] || { echo "install.sh: $here/share is incomplete" >&2; exit 1; }

    # The app: copy next to the target, then swap, so an interrupted copy never leaves
    # half an app behind.
    mkdir -p "$(dirname "$opt_dir")" "$bin_dir" "$data_dir/applications"
    local staging="$opt_dir.new.$$"
    rm -rf "$staging"
    cp -R "$here/$app" "$staging"
    cp "$here/uninstall.sh" "$staging/uninstall.sh"
    chmod 0755 "$staging/uninstall.sh"
    rm -rf "$opt_dir"
    mv "$staging" "$opt_dir"

    # The command.
    ln -sfn "$opt_dir/$app" "$bin_dir/$app"

    # Menu entry and icon.
    local exe_escaped
    exe_escaped="$(printf '%s' "$opt_dir/$app" | sed 's/[\\|&]/\\&/g')"
    sed -e "s|^Exec=.*|Exec=\"$exe_escaped\"|" -e "s|^TryExec=.*|TryExec=$exe_escaped|" \
        "$here/share/applications/$app.desktop" > "$data_dir/applications/$app.desktop"
    printf 'X-PE-Studio-Installed-By=install.sh\n' >> "$data_dir/applications/$app.desktop"
    local icon rel
    while IFS= read -r icon; do
        rel="${icon#"$here/share/"}"
        mkdir -p "$data_dir/$(dirname "$rel")"
        cp "$icon" "$data_dir/$rel"
    done < <(find "$here/share/icons" -type f -name "$app.png")

    echo "Installed Positional Encoding Studio in $opt_dir"
    echo "  menu entry: $data_dir/applications/$app.desktop"
    case ":${PATH:-}:" in
        *":$bin_dir:"*) echo "  command:    $app" ;;
        *) echo "  command:    $bin_dir/$app  ($bin_dir is not on your PATH; add it in ~/.profile)" ;;
    esac
    echo "  uninstall:  $opt_dir/uninstall.sh"
}

main "$@"
