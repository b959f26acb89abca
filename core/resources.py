"""Locate bundled resources both from a source checkout and from a PyInstaller bundle."""

from __future__ import annotations

import sys
from pathlib import Path


def resource_root() -> Path:
    """Return the folder that holds ``resources/``'s content.

    From source this is ``<repo>/resources``; in a PyInstaller bundle it is
    ``<sys._MEIPASS>/resources`` (``build.spec`` copies the folder there).
    """
    bundle_dir = getattr(sys, "_MEIPASS", None)
    if bundle_dir:
        return Path(bundle_dir) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    """Return the path of a resource, e.g. ``resource_path("decks", "lecture.json")``."""
    return resource_root().joinpath(*parts)
