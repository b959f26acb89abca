"""Export a lecture deck as slides: one PNG or SVG per scene, headlessly.

``main.py export --deck DECK -o FOLDER`` calls :func:`export_deck`. Each scene is drawn by
:func:`gui.export.headless.export_view` (the window's export code path) with the scene's
view, parameters, title and note, and written to ``FOLDER/NN-<slug of the title>.png``
(``.svg``), numbered from 01 in deck order so that a file listing sorts like the deck.
The whole deck is validated before the first file is written. A scene whose view refuses
its parameters when computing (a deck may show such a limit on purpose) becomes a slide with
the title, the one-line problem in the view's warning banner and the note, as the window
shows it.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

from core.errors import user_message
from core.scenes import Deck, Scene, load_deck
from core.views import get_view
from gui.export.headless import IMAGE_FORMATS, export_ui_scale, export_view, pixel_size

MAX_SLUG = 60


def slugify(text: str) -> str:
    """``text`` as a file-name part: lower-case ASCII letters, digits and single hyphens.

    >>> slugify("RoPE: position 5 vs 9 (θ = 10 000)")
    'rope-position-5-vs-9-10-000'
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug[:MAX_SLUG].rstrip("-")


def slide_names(deck: Deck, fmt: str) -> list[str]:
    """File names of the deck's slides: ``NN-<slug>.<fmt>`` in deck order.

    ``NN`` is the 1-based scene number with at least two digits (more for decks of 100
    scenes or more); the slug comes from the scene's title, or its view id when the title
    has no letters or digits.
    """
    digits = max(2, len(str(len(deck.scenes))))
    return [
        f"{number:0{digits}d}-{slugify(scene.title) or slugify(scene.view_id)}.{fmt}"
        for number, scene in enumerate(deck.scenes, start=1)
    ]


def export_deck(
    deck_path: str | os.PathLike[str],
    folder: str | os.PathLike[str],
    *,
    fmt: str = "png",
    width: int | None = None,
    height: int | None = None,
    scale: float | None = None,
    transparent: bool = False,
) -> list[Path]:
    """Write one image per scene of the deck file ``deck_path`` into ``folder``.

    Parameters
    ----------
    deck_path
        A deck file (:func:`core.scenes.load_deck`).
    folder
        Output folder; created (with missing parents) if it does not exist.
    fmt
        ``"png"`` or ``"svg"``.
    width, height, scale, transparent
        As for :func:`gui.export.headless.export_view` (same defaults).

    Returns
    -------
    list[Path]
        The written files, in deck order.

    Raises
    ------
    ValueError
        Unusable deck (:class:`core.scenes.SceneError`, message prefixed with the deck
        path), unknown format, invalid size.
    OSError
        The folder cannot be created or written.
    """
    if fmt not in IMAGE_FORMATS:
        raise ValueError(f"deck export writes {' or '.join(IMAGE_FORMATS)} images, not {fmt!r}")
    try:
        deck = load_deck(deck_path)
    except ValueError as exc:
        message = str(exc).removeprefix(f"{os.fspath(deck_path)}: ")
        raise ValueError(f"deck '{os.fspath(deck_path)}': {message}") from None
    pixel_size(width, height, scale)  # invalid size: fail before creating anything
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(f"cannot write slides to '{os.fspath(folder)}': not a folder")
    target.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for scene, name in zip(deck.scenes, slide_names(deck, fmt), strict=True):
        path = target / name
        try:
            export_view(
                scene.view_id,
                scene.params,
                path,
                width=width,
                height=height,
                scale=scale,
                transparent=transparent,
                title=scene.title or None,
                note=scene.note or None,
            )
        except ValueError as exc:  # the view refuses these parameters: show it on the slide
            _error_slide(scene, path, fmt, (width, height, scale), transparent, user_message(exc))
        written.append(path)
    return written


def _error_slide(
    scene: Scene,
    path: Path,
    fmt: str,
    size: tuple[int | None, int | None, float | None],
    transparent: bool,
    message: str,
) -> None:
    """Render ``scene``'s view without plots, its banner showing ``message``."""
    from gui.qt_app import ensure_app

    ensure_app(headless=True)
    from gui import theme
    from gui.render import snapshot
    from gui.widgets.view_widget import ViewWidget

    spec = get_view(scene.view_id)
    w, h, pw, ph = pixel_size(*size)
    previous = theme.current_theme()
    theme.set_theme(ui_scale=export_ui_scale(w, h))
    try:
        widget = ViewWidget(spec)
    finally:
        theme.set_theme(ui_scale=previous.ui_scale)
    try:
        widget.explanation.hide()
        widget.title.setText(scene.title or spec.title)
        widget.show_error(message)
        widget.status.setText(scene.note)
        widget.status.setVisible(bool(scene.note))
        widget.resize(w, h)
        if fmt == "png":
            snapshot.render_png(widget, path, width=pw, height=ph, transparent=transparent)
        else:
            snapshot.render_svg(widget, path, width=w, height=h, title=scene.title or spec.title)
    finally:
        widget.deleteLater()
