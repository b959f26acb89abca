"""The app's version (the one place it is written) and the versions of what it runs on.

``__version__`` is read by ``main.py --version``, the About dialog, ``build.spec`` (the
macOS ``Info.plist``) and the packaging scripts (artifact names, ``.deb`` version), which
parse the assignment line below without importing Python. ``pyproject.toml`` repeats it
(``[project] version``); ``tests/test_version.py`` checks that the two agree.

Nothing here imports Qt or torch: library versions come from modules that are already
imported, or from installed package metadata (:mod:`importlib.metadata`), which costs no
import of the package itself.
"""

from __future__ import annotations

import platform
import sys

__version__ = "1.0.0"

APP_NAME = "pe-studio"
PRETTY_NAME = "Positional Encoding Studio"

#: Library shown in :func:`versions` -> (module name, distribution names to try in order).
LIBRARIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "PySide6": ("PySide6", ("PySide6-Essentials", "PySide6")),
    "pyqtgraph": ("pyqtgraph", ("pyqtgraph",)),
    "numpy": ("numpy", ("numpy",)),
    "superqt": ("superqt", ("superqt",)),
    "torch": ("torch", ("torch",)),
}

NOT_INSTALLED = "not installed"


def version_line() -> str:
    """What ``pe-studio --version`` prints, e.g. ``pe-studio 1.0.0``."""
    return f"{APP_NAME} {__version__}"


def library_version(module: str, distributions: tuple[str, ...]) -> str:
    """Version of one library without importing it.

    Parameters
    ----------
    module
        Import name, e.g. ``"torch"``. If the module is already imported, its
        ``__version__`` is used (that is the code actually running).
    distributions
        Distribution names to look up in the installed metadata, in order (a frozen
        bundle may carry no metadata; then only an imported module gives a version).

    Returns
    -------
    str
        The version, or ``"not installed"`` when neither source knows the library.
    """
    loaded = sys.modules.get(module)
    version = getattr(loaded, "__version__", None)
    if isinstance(version, str) and version:
        return version
    from importlib import metadata

    for dist in distributions:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return NOT_INSTALLED


def versions() -> dict[str, str]:
    """Versions of the app, Python and every library the About dialog lists.

    Returns
    -------
    dict[str, str]
        Ordered ``{name: version}``: ``pe-studio``, ``Python``, then :data:`LIBRARIES`
        (``"not installed"`` for a missing optional one such as torch), then
        ``platform`` (OS and machine architecture). torch is never imported here.
    """
    info = {APP_NAME: __version__, "Python": platform.python_version()}
    for name, (module, dists) in LIBRARIES.items():
        info[name] = library_version(module, dists)
    info["platform"] = f"{platform.system()} {platform.release()} ({platform.machine()})"
    return info
