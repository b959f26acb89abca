"""Check, before Qt starts, that Qt's X11 (xcb) platform plugin can load its libraries.

When a system library the xcb plugin links against is missing, Qt prints a message naming
only ``libxcb-cursor0`` and aborts with a core dump. :func:`xcb_problem` loads each library
the plugin (and Qt's GUI library) needs with :mod:`ctypes` and, if any is missing, returns
one line naming the missing libraries and the ``apt`` command installing them, so that
``main.py`` can print it and exit 2 instead. Qt-free: this module never imports Qt.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence

# System libraries (soname -> Debian/Ubuntu package) that the PySide6 wheel does not ship and
# that its xcb plugin (libqxcb.so, libQt6XcbQpa.so.6) and libQt6Gui.so.6 link against
# (`readelf -d` NEEDED entries; libc, libm, libstdc++ and libgcc_s are always present).
XCB_LIBRARIES: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
}

EXIT_MISSING_LIBRARIES = 2


def uses_xcb(environ: Mapping[str, str], platform: str | None = None) -> bool:
    """Whether Qt will start on its X11 (xcb) platform plugin.

    Parameters
    ----------
    environ
        The process environment (``QT_QPA_PLATFORM``, ``WAYLAND_DISPLAY``,
        ``XDG_SESSION_TYPE``).
    platform
        ``sys.platform`` (default: the running one); only Linux and the BSDs use xcb.

    Returns
    -------
    bool
        ``True`` when ``QT_QPA_PLATFORM`` names xcb first, or is unset outside a
        Wayland session (Qt then falls back to xcb even without ``DISPLAY``).
    """
    platform = sys.platform if platform is None else platform
    if not (platform.startswith("linux") or "bsd" in platform):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        first = chosen.split(";")[0].split(":")[0].strip().lower()
        return first == "xcb"
    wayland = bool(environ.get("WAYLAND_DISPLAY")) and (
        environ.get("XDG_SESSION_TYPE", "").lower() == "wayland"
    )
    return not wayland


def _load(path: str) -> object:
    """Load one shared library (:class:`OSError` if it or a dependency is missing)."""
    return ctypes.CDLL(path)


def _search_dirs() -> list[str]:
    """Folders holding bundled copies of the libraries (PyInstaller bundle), if any."""
    bundle = getattr(sys, "_MEIPASS", None)
    return [bundle] if isinstance(bundle, str) else []


def missing_libraries(
    sonames: Iterable[str],
    load: Callable[[str], object] | None = None,
    dirs: Sequence[str] | None = None,
) -> list[str]:
    """The entries of ``sonames`` that cannot be loaded.

    Parameters
    ----------
    sonames
        Library names such as ``"libxcb-icccm.so.4"``.
    load
        Loader raising :class:`OSError` on failure (default: :func:`ctypes.CDLL`).
    dirs
        Folders tried, in order, after the system search path fails (default: the
        PyInstaller bundle folder when frozen).
    """
    loader = _load if load is None else load
    folders = _search_dirs() if dirs is None else list(dirs)
    missing: list[str] = []
    for soname in sonames:
        candidates = [soname] + [os.path.join(folder, soname) for folder in folders]
        for candidate in candidates:
            try:
                loader(candidate)
            except OSError:
                continue
            break
        else:
            missing.append(soname)
    return missing


def missing_message(missing: Sequence[str]) -> str:
    """One line naming the ``missing`` libraries and the ``apt`` command installing them."""
    packages = sorted({XCB_LIBRARIES.get(name, name) for name in missing})
    return (
        "error: the window cannot open: Qt's X11 (xcb) platform plugin needs "
        f"{', '.join(missing)}, which cannot be loaded; install "
        f"with: sudo apt install {' '.join(packages)}"
    )


def xcb_problem(
    environ: Mapping[str, str] | None = None,
    load: Callable[[str], object] | None = None,
    platform: str | None = None,
) -> str | None:
    """The one-line error when Qt will use xcb and its libraries do not load, else ``None``.

    Parameters
    ----------
    environ
        Process environment (default: ``os.environ``).
    load
        Library loader (default: :func:`ctypes.CDLL`); tests pass a failing one.
    platform
        ``sys.platform`` override (tests).
    """
    env = os.environ if environ is None else environ
    if not uses_xcb(env, platform):
        return None
    missing = missing_libraries(XCB_LIBRARIES, load)
    return missing_message(missing) if missing else None
