"""Export a lecture deck as slides: one PNG or SVG per scene, headlessly.

``main.py export --deck DECK -o FOLDER`` calls :func:`export_deck`. Each scene is drawn by
:func:`gui.export.headless.export_view` (the window's export code path) with the scene's
view, parameters, title and note, and written to ``FOLDER/NN-<slug of the title>.png``
(``.svg``), numbered from 01 in deck order so that a file listing sorts like the deck.
The folder then shows this deck only: the slides are written into a hidden folder inside
it and moved in once all are drawn, and the slides of an earlier export there (files
named like slides, ``NN-<slug>.png`` or ``.svg``) are removed then; other files stay.
An export stopped half-way (an error, Ctrl+C) leaves the folder as it was.
The whole deck is validated before the first file is written, including the table files
its scenes read: a Learned table that is missing or unusable fails the export with one line
naming the scene and the file (the window shows it on the view instead, where another file
can be chosen). A scene whose view refuses its parameters when computing (a deck may show
such a limit on purpose) becomes a slide with the title, the one-line problem in the
view's warning banner and the note, as the window shows it.

``main.py export --deck DECK -o lecture.pdf`` calls :func:`export_deck_pdf`: one PDF page
per scene, drawn with Qt's PDF writer (plots, text and lines stay vector; heatmaps are
images), optionally with the scene's note under each slide as a handout (``--notes``),
written to a temporary file renamed to the ``.pdf`` only when complete.

Both take a ``checkpoint``: called between scenes (and PDF pages) and once more before
the output is put in place; what it raises stops the export with nothing written. The
command line raises ``KeyboardInterrupt`` there after a Ctrl+C, never inside a Qt paint.

Every export shows a scene as the stage does (:func:`gui.widgets.staging.stage_widget`):
only its ``panels``, in their order, and its ``highlight`` with the rest dimmed. A scene
that ``reveal`` s its panels step by step gets one PDF page per step (as Page Down shows
them: the first panel, then the first two, ..., all; the places of the hidden ones kept
free), so the PDF can be presented from. A handout (``--notes``) and the image folder
show each scene once, fully revealed (what a reader needs; the image names stay one per
scene). :func:`scene_image` draws a scene the same way into an image (the presenter
view's picture of the next scene).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import time
import unicodedata
from collections.abc import Callable, Generator
from functools import partial
from pathlib import Path
from typing import Any

from core.atomicio import STALE_SECONDS, atomic_path
from core.errors import user_message
from core.scenes import Deck, Scene, check_scene_files, load_deck
from core.views import compute_view, get_view
from gui.export.animation import ANIMATION_FORMATS
from gui.export.headless import (
    FORMATS,
    IMAGE_FORMATS,
    ImageExport,
    build_widget_steps,
    check_writable,
    context_for_size,
    export_ui_scale,
    export_view,
    folder_problem,
    names_folder,
    pixel_size,
    prepare_layout,
)

MAX_SLUG = 60
SLIDE_NAME = re.compile(r"^[0-9]{2,}-[a-z0-9]+(?:-[a-z0-9]+)*\.(?:png|svg)$")
"""A file name :func:`slide_names` makes (of either image format): an earlier slide."""
STAGING_PREFIX, STAGING_SUFFIX = ".slides-", ".part"  # the hidden folder slides are drawn into


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
    checkpoint: Callable[[], None] | None = None,
) -> list[Path]:
    """Write one image per scene of the deck file ``deck_path`` into ``folder``.

    The slides are drawn into a hidden folder inside ``folder`` and moved in when all
    are done; the slides of an earlier export there (:data:`SLIDE_NAME`) go then, so
    the folder shows this deck's slides only. Other files are left alone. On any
    failure (or what ``checkpoint`` raises) the folder is left as it was.

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
    checkpoint
        Called after each slide and before the slides are moved in; an exception it
        raises (e.g. ``KeyboardInterrupt``) stops the export, nothing written.

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
    _check_folder_name(folder)
    deck = _load(deck_path)
    pixel_size(width, height, scale)  # invalid size: fail before creating anything
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(f"cannot write slides to '{os.fspath(folder)}': not a folder")
    created = not target.exists()
    target.mkdir(parents=True, exist_ok=True)
    _remove_stale_staging(target)
    try:
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, suffix=STAGING_SUFFIX, dir=target))
    except OSError as exc:
        raise _renamed(exc, target) from None
    names = slide_names(deck, fmt)
    try:
        for scene, name in zip(deck.scenes, names, strict=True):
            path = staging / name
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
                    stage=partial(stage_scene, scene),
                )
            except ValueError as exc:  # the view refuses these parameters: show it on the slide
                size = (width, height, scale)
                try:
                    _error_slide(scene, path, fmt, size, transparent, user_message(exc))
                except OSError as error:
                    raise _renamed(error, target / name) from None
            except OSError as exc:
                raise _renamed(exc, target / name) from None
            if checkpoint is not None:
                checkpoint()
        _move_slides_in(staging, target, names)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if created:
            with contextlib.suppress(OSError):  # (only if empty)
                target.rmdir()
        raise
    return [target / name for name in names]


def _renamed(exc: OSError, path: Path) -> OSError:
    """``exc`` naming ``path`` (the slide or folder the user asked for), not the
    hidden folder the slides are drawn in."""
    if exc.errno is None:
        return exc
    return type(exc)(exc.errno, exc.strerror, os.fspath(path))


def earlier_slides(folder: Path) -> list[Path]:
    """The files in ``folder`` named like slides (:data:`SLIDE_NAME`), sorted."""
    return sorted(
        path for path in folder.iterdir() if SLIDE_NAME.match(path.name) and path.is_file()
    )


def _move_slides_in(staging: Path, target: Path, names: list[str]) -> None:
    """Replace the slides in ``target`` by ``names`` from ``staging`` (then removed)."""
    keep = set(names)
    for path in earlier_slides(target):
        if path.name not in keep:
            path.unlink()
    for name in names:
        os.replace(staging / name, target / name)
    shutil.rmtree(staging, ignore_errors=True)


def _remove_stale_staging(target: Path) -> None:
    """Remove hidden slide folders left in ``target`` by an export that was killed
    outright (older than :data:`core.atomicio.STALE_SECONDS`)."""
    now = time.time()
    for path in target.glob(f"{STAGING_PREFIX}*{STAGING_SUFFIX}"):
        with contextlib.suppress(OSError):
            if path.is_dir() and now - path.stat().st_mtime > STALE_SECONDS:
                shutil.rmtree(path)


def _check_folder_name(folder: str | os.PathLike[str]) -> None:
    """Refuse a slide folder named like one of the files the app writes (``-o
    slides.png``: a folder 'slides.png' was made, silently), unless it ends with a
    separator or is a folder already: the slides are many files, or one ``.pdf``."""
    suffix = Path(folder).suffix.lower().lstrip(".")
    if suffix not in (*FORMATS, *ANIMATION_FORMATS) or names_folder(folder):
        return
    if Path(folder).is_dir():
        return
    raise ValueError(
        f"deck output '{os.fspath(folder)}' names a .{suffix} file; a deck writes one image "
        "per scene into a folder (e.g. -o slides/) or one PDF (-o lecture.pdf)"
    )


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

    spec = get_view(scene.view_id)
    w, h, pw, ph = pixel_size(*size)
    previous = theme.current_theme()
    theme.set_theme(ui_scale=export_ui_scale(w, h))
    try:
        widget = _error_widget(scene, message, scene.note)
    finally:
        theme.set_theme(ui_scale=previous.ui_scale)
    try:
        widget.resize(w, h)
        if fmt == "png":
            snapshot.render_png(widget, path, width=pw, height=ph, transparent=transparent)
        else:
            snapshot.render_svg(widget, path, width=w, height=h, title=scene.title or spec.title)
    finally:
        widget.deleteLater()


def stage_scene(scene: Scene, widget: Any, shown: int | None = None) -> None:
    """Give ``widget`` (a drawn view of ``scene``) the scene's panels, reveal step
    ``shown`` (``None``: all) and highlight, as the stage shows them."""
    from gui.widgets.staging import stage_widget

    if scene.panels or scene.highlight is not None or shown is not None:
        stage_widget(widget, scene.panels, shown if scene.reveal else None, scene.highlight)


def scene_steps(scene: Scene, panel_count: int) -> int:
    """The reveal steps of ``scene`` whose view draws ``panel_count`` panels (1 without
    ``reveal``)."""
    from gui.widgets.staging import reveal_steps

    return reveal_steps(scene.panels, scene.reveal, panel_count)


def scene_image(
    scene: Scene, width: int, height: int, shown: int | None = None, *, scale: float | None = None
) -> Any:
    """``scene`` drawn as its slide (title, no note) laid out at ``width`` x ``height``
    into a ``QImage`` of that size times ``scale`` (``None``: 1), staged as on stage, at
    reveal step ``shown`` (``None``: fully revealed).

    A scene whose view refuses its parameters draws the view's warning banner instead.
    GUI thread; the current theme (light/dark, colormaps) is used. In one go:
    :func:`scene_image_steps` draws the same part by part.
    """
    return list(scene_image_steps(scene, width, height, shown, scale=scale))[-1]


class SceneWidgets:
    """Off-screen view widgets kept to draw scenes again (the presenter's pictures).

    Building a view's widget (its plots, axes measured for their labels) blocked the
    GUI thread for 0.2 to 2 s per picture; a kept one only takes the new values. One
    widget is kept per view, scene staging (panels, reveal step, highlight), size and
    theme, the :data:`limit` most recently used.
    """

    limit = 4

    def __init__(self) -> None:
        from collections import OrderedDict

        self._kept: OrderedDict[tuple, tuple[Any, Any]] = OrderedDict()  # key: (theme, widget)

    @staticmethod
    def key(scene: Scene, shown: int | None, size: tuple[int, ...]) -> tuple:
        """What a kept widget must share with ``scene`` to draw it."""
        return (scene.view_id, tuple(scene.panels), shown, scene.highlight, size)

    def take(self, key: tuple, theme: Any) -> Any:
        """The widget kept for ``key`` drawn in ``theme`` (now the caller's), or None."""
        kept = self._kept.pop(key, None)
        if kept is None:
            return None
        if kept[0] != theme:
            kept[1].deleteLater()
            return None
        return kept[1]

    def give(self, key: tuple, theme: Any, widget: Any) -> None:
        """Keep ``widget`` for ``key`` (the least recently used beyond the limit go)."""
        old = self._kept.pop(key, None)
        if old is not None and old[1] is not widget:
            old[1].deleteLater()
        self._kept[key] = (theme, widget)
        while len(self._kept) > self.limit:
            self._kept.popitem(last=False)[1][1].deleteLater()

    def widgets(self) -> list[Any]:
        """The kept widgets, least recently used first."""
        return [widget for _theme, widget in self._kept.values()]

    def clear(self) -> None:
        """Release every kept widget."""
        while self._kept:
            self._kept.popitem()[1][1].deleteLater()


def scene_image_steps(
    scene: Scene,
    width: int,
    height: int,
    shown: int | None = None,
    *,
    scale: float | None = None,
    widgets: SceneWidgets | None = None,
) -> Generator[Any, None, None]:
    """:func:`scene_image` part by part: yields ``None`` after each part (computing the
    view, building its widget, painting one plot-sized tile), then the ``QImage``.

    A caller that returns to the event loop between parts (the presenter view) keeps the
    window responsive; closing the generator early releases the widget. With
    ``widgets`` a view's widget is kept and drawn again for the next scene of that view
    (same staging, size and theme) instead of being built anew.
    """
    w, h, pw, ph = pixel_size(width, height, scale)
    spec = get_view(scene.view_id)
    try:
        values = spec.model.validate(scene.params, partial=True)
        view = compute_view(scene.view_id, values, context_for_size(pw, ph))
    except ValueError as exc:
        from gui.qt_app import ensure_app

        ensure_app(headless=True)
        from gui import theme
        from gui.render import snapshot

        previous = theme.current_theme()
        theme.set_theme(ui_scale=export_ui_scale(w, h))
        try:
            widget = _error_widget(scene, user_message(exc), None)
        finally:
            theme.set_theme(ui_scale=previous.ui_scale)
        try:
            widget.resize(w, h)
            image = snapshot.render_image(widget, pw, ph)
        finally:
            widget.deleteLater()
        yield image
        return
    yield None
    from gui.theme import current_theme

    look = current_theme()
    key = SceneWidgets.key(scene, shown if scene.reveal else None, (w, h, pw, ph))
    kept = widgets.take(key, look) if widgets is not None else None
    if kept is None:  # built a plot per part (in one go: 0.2-0.8 s without the loop)
        keep = partial(widgets.give, key, look) if widgets is not None else None
        kept = yield from build_widget_steps(spec, view, (w, h), (pw, ph), keep=keep)
    export = ImageExport(
        spec, view, None, "png", (w, h), (pw, ph), False, scene.title or None, None, widget=kept
    )
    export.owned = True  # released on failure or when closed early
    try:
        stage_scene(scene, export.widget, shown)
        yield None
        prepare_layout(export.widget)  # the staged layout in a part of its own
        yield None
        for _ in export.steps():
            yield None
        image = export.render.image
        if widgets is not None:
            widgets.give(key, look, export.widget)
            export.widget = None  # kept for the next scene of this view
    finally:
        export.close()
    yield image


def _load(deck_path: str | os.PathLike[str]) -> Deck:
    """:func:`core.scenes.load_deck` with the message prefixed by ``deck '<path>'``, and
    every table file the deck's scenes read checked (:func:`core.scenes.check_scene_files`):
    an export has nobody to show a missing file to, so it fails before writing anything."""
    try:
        deck = load_deck(deck_path)
        for number, scene in enumerate(deck.scenes):
            check_scene_files(scene, f"scenes[{number}].")
    except ValueError as exc:
        message = str(exc).removeprefix(f"{os.fspath(deck_path)}: ")
        raise ValueError(f"deck '{os.fspath(deck_path)}': {message}") from None
    return deck


# ----------------------------------------------------------------------- PDF
PDF_WIDTH, PDF_HEIGHT = 1920, 1080  # slide layout size in px (16:9), as the animation export
PDF_DPI = 96  # px per inch on the page: fonts keep their on-screen size relative to the plots
NOTES_SHARE = 0.4  # a handout page adds this fraction of the slide height for the note


def export_deck_pdf(
    deck_path: str | os.PathLike[str],
    path: str | os.PathLike[str],
    *,
    width: int | None = None,
    height: int | None = None,
    notes: bool = False,
    checkpoint: Callable[[], None] | None = None,
) -> Path:
    """Write the deck as one PDF, one page per scene, atomically.

    Parameters
    ----------
    deck_path
        A deck file (:func:`core.scenes.load_deck`).
    path
        Destination ``.pdf``; its folder must exist.
    width, height
        Slide layout size in px (default 1920 x 1080; a page is that size at 96 px/inch).
    notes
        Handout: each page has the scene's note in large print under the slide (which
        then leaves it out of its own status line).
    checkpoint
        Called after each scene is drawn, after each page is written and before the
        file is renamed into place; an exception it raises (e.g. ``KeyboardInterrupt``)
        stops the export and leaves nothing at ``path``.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    ValueError
        Unusable deck, invalid size, ``path`` not ending in ``.pdf``.
    OSError
        The file cannot be written (nothing is left at ``path``).
    """
    problem = folder_problem(path, "PDF deck output", ".pdf")
    if problem is not None:
        raise ValueError(problem)
    if Path(path).suffix.lower() != ".pdf":
        raise ValueError(f"PDF deck output '{os.fspath(path)}' must end in .pdf")
    deck = _load(deck_path)
    w, h, _, _ = pixel_size(
        PDF_WIDTH if width is None else width, PDF_HEIGHT if height is None else height, None
    )
    check_writable(path)
    from gui.qt_app import ensure_app

    ensure_app(headless=True)
    from PySide6 import QtCore, QtGui

    # one page per reveal step; a handout shows each scene once, fully revealed
    check = checkpoint if checkpoint is not None else _no_checkpoint
    pages = []
    for scene in deck.scenes:
        for picture in _scene_pictures(scene, w, h, with_note=not notes, steps=not notes):
            pages.append((scene, picture))
        check()
    page_h = h + (round(h * NOTES_SHARE) if notes else 0)
    with atomic_path(path) as tmp:
        writer = QtGui.QPdfWriter(os.fspath(tmp))
        writer.setResolution(PDF_DPI)
        writer.setTitle(deck.title or Path(deck_path).stem)
        writer.setCreator("Positional Encoding Studio")
        size = QtCore.QSizeF(w * 72 / PDF_DPI, page_h * 72 / PDF_DPI)
        writer.setPageSize(QtGui.QPageSize(size, QtGui.QPageSize.Unit.Point, "slide"))
        writer.setPageMargins(QtCore.QMarginsF(0, 0, 0, 0))
        painter = QtGui.QPainter()
        if not painter.begin(writer):
            raise OSError(f"cannot write PDF to {os.fspath(path)!r}")
        # Heatmap images lossless (Flate), not JPEG: a 32-pixel matrix must keep its colours.
        painter.setRenderHint(QtGui.QPainter.RenderHint.LosslessImageRendering)
        try:
            for number, (scene, picture) in enumerate(pages):
                if number:
                    writer.newPage()
                painter.drawPicture(0, 0, picture)
                if notes:
                    _draw_note(painter, scene.note, QtCore.QRectF(0, h, w, page_h - h))
                check()
        finally:
            painter.end()
        check()  # (the last chance: once renamed, the PDF is complete)
    return Path(path)


def _no_checkpoint() -> None:
    """The ``checkpoint`` of an export given none."""


def _scene_pictures(scene: Scene, w: int, h: int, *, with_note: bool, steps: bool) -> list[Any]:
    """``scene`` drawn at ``w`` x ``h`` into ``QPicture`` s (vector drawing commands): one
    per reveal step with ``steps``, else one fully revealed."""
    from PySide6 import QtCore, QtGui

    from gui import theme
    from gui.export import headless
    from gui.render import snapshot

    spec = get_view(scene.view_id)
    note = (scene.note or None) if with_note else None
    try:
        values = spec.model.validate(scene.params, partial=True)
        view = compute_view(scene.view_id, values, context_for_size(w, h))
    except ValueError as exc:  # the view refuses these parameters: show it on the slide
        view, problem = None, user_message(exc)
    count = scene_steps(scene, len(view.panels)) if steps and view is not None else 1
    pictures = []
    for step in range(1, count + 1):
        previous = theme.current_theme()
        theme.set_theme(ui_scale=export_ui_scale(w, h))
        try:
            if view is None:
                widget = _error_widget(scene, problem, note)
            else:
                widget = headless.build_widget(spec, view, None, scene.title or None, note)
        finally:
            theme.set_theme(ui_scale=previous.ui_scale)
        picture = QtGui.QPicture()
        try:
            widget.resize(w, h)
            if view is not None:
                stage_scene(scene, widget, step if count > 1 else None)
            snapshot.run_steps(snapshot.paint_steps(widget, picture, QtCore.QSize(w, h)))
        finally:
            widget.deleteLater()
        pictures.append(picture)
    return pictures


def _error_widget(scene: Scene, message: str, note: str | None) -> Any:
    """``scene``'s view without plots, its banner showing ``message``."""
    from gui.render.math_text import set_math_text
    from gui.widgets.view_widget import ViewWidget

    spec = get_view(scene.view_id)
    widget = ViewWidget(spec)
    widget.explanation.hide()
    widget.title.setText(scene.title or spec.title)
    widget.show_error(message)
    set_math_text(widget.status, note or "")  # its math typeset, as on screen
    widget.status.setVisible(bool(note))
    return widget


def _note_document(note: str, font: Any, width: float) -> Any:
    """The speaker note laid out as a handout page draws it: its math typeset as on
    screen (:func:`gui.render.math_text.math_html`: ``m_h`` as m with a subscript h,
    ``2^(−8h/n)`` with its exponent raised), every other character as written (``<``,
    ``&``, runs of spaces, line breaks), word-wrapped to ``width`` in ``font``."""
    from PySide6 import QtGui

    from gui.render.math_text import math_html

    document = QtGui.QTextDocument()
    document.setDocumentMargin(0)
    document.setDefaultFont(font)
    rich = math_html(note)
    if rich is None:  # no math: the note as plain text (never read as HTML)
        document.setPlainText(note)
    else:
        document.setHtml(rich)
    document.setTextWidth(width)
    return document


def _draw_note(painter: Any, note: str, area: Any) -> None:
    """The speaker note, word-wrapped in large print, in ``area`` under the slide, its
    math typeset (:func:`_note_document`)."""
    from PySide6 import QtGui

    from gui.theme import current_theme

    theme = current_theme()
    painter.save()
    painter.fillRect(area, QtGui.QColor(theme.background))
    font = QtGui.QFont(painter.font())
    font.setPixelSize(max(12, round(area.height() / 10)))
    margin = area.height() / 8
    text = area.adjusted(margin, margin / 2, -margin, -margin / 2)
    document = _note_document(note or "", font, text.width())
    context = QtGui.QAbstractTextDocumentLayout.PaintContext()
    context.palette.setColor(QtGui.QPalette.ColorRole.Text, QtGui.QColor(theme.foreground))
    painter.setClipRect(text)  # (as drawText clips to its rectangle)
    painter.translate(text.topLeft())
    document.documentLayout().draw(painter, context)
    painter.restore()
