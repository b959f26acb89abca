"""Export a view (or one plot of it) to PNG, SVG, CSV or NPY: the single code path.

The window's export actions and ``main.py export`` both call :func:`export_view`.
Data formats (CSV/NPY) never touch Qt, so importing this module is Qt-free; images
build an offscreen :class:`gui.widgets.view_widget.ViewWidget`, compute its
:class:`core.viewdata.ViewData` synchronously at a resolution fitting the requested
pixel size, and render it with :mod:`gui.render.snapshot`. Every file is written
atomically: an existing file is replaced only once the new content is complete.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypedDict, Unpack

import numpy as np

from core.atomicio import atomic_open, check_can_write
from core.memory import check_allocation
from core.viewdata import ComputeContext, Panel, ViewData, ViewSpec
from core.views import compute_view, get_view

FORMATS: tuple[str, ...] = ("png", "svg", "csv", "npy")
IMAGE_FORMATS: tuple[str, ...] = ("png", "svg")
DEFAULT_WIDTH, DEFAULT_HEIGHT = 1600, 1000
MAX_SIDE = 32768  # pixels; larger requests are refused with a one-line message
MAX_UI_SCALE = 3.0  # gui.theme's largest UI scale
#: Smallest layout, as a share of the default size, a view is laid out at: a smaller
#: image draws that layout scaled down (at 640 x 360 a view laid out at its size had
#: squashed plots under titles and legends lying over each other).
MIN_LAYOUT_FIT = 0.72  # 1152 x 720 at 16:9, 1280 x 800 at 16:10


def names_folder(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` ends with a path separator: it names a folder, not a file.

    ``Path("adir.png/")`` drops the slash, so without this check ``-o adir.png/`` wrote a
    file ``adir.png``.
    """
    text = os.fspath(path)
    return text.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep))


def folder_problem(path: str | os.PathLike[str], what: str, suffixes: str) -> str | None:
    """The one-line refusal of an output ``path`` that names a folder (``None``: it does
    not); ``what`` names the output, ``suffixes`` the file types it takes."""
    if not names_folder(path):
        return None
    return (
        f"{what} '{os.fspath(path)}' ends with '{os.fspath(path)[-1]}', so it names a folder; "
        f"give a file name ending in {suffixes}"
    )


def export_format(path: str | os.PathLike[str]) -> str:
    """The format (``png``, ``svg``, ``csv`` or ``npy``) chosen by ``path``'s extension.

    Raises
    ------
    ValueError
        Unsupported or missing extension, or a path ending with a separator (a folder).
    """
    problem = folder_problem(path, "output", ".png, .svg, .csv or .npy")
    if problem is not None:
        raise ValueError(problem)
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in FORMATS:
        problem = f"has unsupported file type '.{ext}'" if ext else "has no file extension"
        raise ValueError(f"output '{os.fspath(path)}' {problem}; use .png, .svg, .csv or .npy")
    return ext


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise a one-line ``OSError`` if ``path`` cannot be written: its folder is missing
    or not writable (tried: a file is created there and removed, see
    :func:`core.atomicio.check_can_write`), it is a folder or a read-only file. Call it
    before the work whose result goes there."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.exists():
        raise FileNotFoundError(
            f"cannot write '{os.fspath(path)}': folder '{folder}' does not exist"
        )
    if not folder.is_dir():
        raise NotADirectoryError(f"cannot write '{os.fspath(path)}': '{folder}' is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(
            f"cannot write '{os.fspath(path)}': no permission to write in folder '{folder}'"
        )
    if target.is_dir():
        raise IsADirectoryError(f"cannot write '{os.fspath(path)}': it is a folder")
    try:  # (os.access says yes to root everywhere: /proc, a read-only mount)
        check_can_write(path)
    except OSError as exc:
        if exc.filename is None or not exc.strerror or target.exists():
            raise  # (a read-only file: "cannot write 'x.png': the file is read-only")
        raise type(exc)(
            f"cannot write '{os.fspath(path)}': no file can be created in folder "
            f"'{folder}' ({exc.strerror})"
        ) from None


def context_for_size(width: int, height: int) -> ComputeContext:
    """A :class:`ComputeContext` whose resolution fits a ``width`` x ``height`` image.

    Heatmaps get about one computed cell per pixel of a half-width plot; curves at
    least the interactive 2048 points.
    """
    side = max(int(width), int(height))
    return ComputeContext(
        max_cells=int(min(4096, max(64, side // 2))),
        max_points=int(min(16384, max(2048, 2 * side))),
    )


def pixel_size(
    width: int | None, height: int | None, scale: float | None
) -> tuple[int, int, int, int]:
    """Validate a size request; return ``(layout w, layout h, pixel w, pixel h)``.

    The layout size defaults to 1600 x 1000; ``scale`` multiplies it into the pixel
    size (text and lines grow with it).
    """
    w = DEFAULT_WIDTH if width is None else width
    h = DEFAULT_HEIGHT if height is None else height
    for name, value in (("width", w), ("height", h)):
        if isinstance(value, bool) or int(value) != value or not 1 <= value <= MAX_SIDE:
            raise ValueError(f"{name} must be an integer in 1..{MAX_SIDE} pixels, got {value}")
    if scale is not None and not (0 < scale <= 16):
        raise ValueError(f"scale must be in (0, 16], got {scale:g}")
    s = 1.0 if scale is None else float(scale)
    pw, ph = max(1, round(w * s)), max(1, round(h * s))
    if max(pw, ph) > MAX_SIDE:
        raise ValueError(f"image of {pw}x{ph} pixels is too large (at most {MAX_SIDE} a side)")
    check_allocation("image", (ph, pw), itemsize=4, copies=2)
    return int(w), int(h), pw, ph


def export_view(
    view_id: str,
    params: Mapping[str, Any],
    path: str | os.PathLike[str],
    *,
    width: int | None = None,
    height: int | None = None,
    transparent: bool = False,
    panel: str | None = None,
    scale: float | None = None,
    title: str | None = None,
    note: str | None = None,
    stage: Callable[[Any], None] | None = None,
    square_cells: Mapping[str, bool] | None = None,
) -> Path:
    """Write view ``view_id`` (or its plot ``panel``) to ``path``; format by extension.

    Parameters
    ----------
    view_id
        A key of :data:`core.views.VIEWS`.
    params
        Parameter values; missing ones take their defaults, all are validated.
    path
        Destination ending in ``.png``, ``.svg``, ``.csv`` or ``.npy``.
    width, height
        Layout size of the image in pixels (default 1600 x 1000). For a single plot's
        CSV/NPY they set the display resolution the plot data is computed at.
    transparent
        PNG only: transparent instead of themed background.
    panel
        Key of one plot; ``None`` exports the whole view (CSV/NPY: the view's
        full-resolution ``spec.export``; a plot's CSV/NPY: ``Panel.data_table()``).
    scale
        PNG only: pixel size = layout size x ``scale`` (text and lines scale too).
    title, note
        Replace the view's title line / add a note line in images (scenes).
    stage
        Images: called with the drawn widget before it is painted (a deck scene's
        panels, reveal step and highlight: :func:`gui.widgets.staging.stage_widget`).
    square_cells
        Images: the lecturer's "Square cells" choice per plot key (a window's
        ``ViewWidget.square_cells``), overriding the automatic one as on screen.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    ValueError
        Unknown view, plot or parameter, invalid value or size, unsupported extension
        (:class:`core.params.ParamError` is a ``ValueError``).
    core.memory.MemoryBudgetError
        The data would exceed the memory budget.
    OSError
        The file cannot be written (an existing file is then untouched).
    """
    request = validate_request(
        view_id, params, path, width=width, height=height, scale=scale, transparent=transparent
    )
    spec, fmt, values = request.spec, request.fmt, request.values
    if fmt in ("csv", "npy") and panel is None:
        data = spec.export(values)
        write_array(path, data.array, data.axes)
        return Path(path)
    view = compute_view(view_id, values, context_for_size(*request.pixels))
    chosen = find_panel(view, panel) if panel is not None else None
    if chosen is not None and fmt in ("csv", "npy"):  # (no plot named: returned above)
        _write_panel_data(path, view_id, chosen)
    else:
        export = ImageExport(
            spec,
            view,
            chosen,
            fmt,
            request.layout,
            request.pixels,
            transparent,
            title,
            note,
            square_cells=square_cells,
        )
        export.write(path, stage)
    return Path(path)


@dataclass(frozen=True)
class ExportRequest:
    """A validated export request (see :func:`validate_request`)."""

    spec: ViewSpec
    fmt: str
    values: dict[str, Any]
    layout: tuple[int, int]  # layout size (width, height) in px
    pixels: tuple[int, int]  # image size (width, height) in px


class ImageSize(TypedDict, total=False):
    """The size options of an image export, as :func:`export_view` takes them."""

    width: int | None
    height: int | None
    scale: float | None
    transparent: bool


def validate_request(
    view_id: str, params: Mapping[str, Any], path: str | os.PathLike[str], **size: Unpack[ImageSize]
) -> ExportRequest:
    """Check an export request as :func:`export_view` does, before any work.

    Raises
    ------
    ValueError
        Unknown view, invalid parameter or size, unsupported extension, ``scale`` or
        ``transparent`` for a format other than PNG.
    OSError
        ``path``'s folder is missing or not writable.
    """
    spec = get_view(view_id)
    fmt = export_format(path)
    values = spec.model.validate(params, partial=True)
    scale, transparent = size.get("scale"), size.get("transparent", False)
    if scale is not None and fmt != "png":
        raise ValueError("scale applies to PNG export only; give width and height instead")
    if transparent and fmt != "png":
        raise ValueError("a transparent background applies to PNG export only")
    w, h, pw, ph = pixel_size(size.get("width"), size.get("height"), scale)
    check_writable(path)
    return ExportRequest(spec, fmt, dict(values), (w, h), (pw, ph))


def find_panel(view: ViewData, key: str) -> Panel:
    """The plot ``key`` of ``view``; ``ValueError`` naming the known keys otherwise."""
    try:
        return view.panel(key)
    except KeyError as exc:  # (its message, not str(): that adds quotes round it)
        raise ValueError(str(exc.args[0]) if exc.args else f"no plot {key!r}") from None


def panel_keys(spec: ViewSpec, params: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(key, title)`` of the plots a view shows for ``params`` (for menus, listings)."""
    view = spec.compute(spec.model.validate(params, partial=True), ComputeContext(64, 256))
    return [(p.key, p.title) for p in view.panels]


# ----------------------------------------------------------------------- images
def export_ui_scale(width: int, height: int) -> float:
    """Font/line scale of an image laid out at ``width`` x ``height``.

    1.0 (the window's 100 % look) from the default 1600 x 1000 up; smaller layouts
    shrink text and lines proportionally (down to 50 %) so titles are not cut off.
    Larger text: use ``scale``, which enlarges the whole layout.
    """
    fit = min(width / DEFAULT_WIDTH, height / DEFAULT_HEIGHT)
    return float(min(1.0, max(0.5, round(fit, 3))))


def export_layout(
    layout: tuple[int, int], pixels: tuple[int, int], *, whole: bool = True
) -> tuple[float, tuple[int, int]]:
    """``(theme UI scale, widget size)`` drawing a ``layout`` image at ``pixels``.

    A ``whole`` view's layout smaller than :data:`MIN_LAYOUT_FIT` of the default size is
    laid out that much larger (same aspect), at that size's UI scale, and drawn scaled
    down to ``pixels``: a small image of a view is its default picture made smaller,
    every title, axis and legend where it is at the default size. (One plot alone is
    laid out at its size: 400 x 400 is a plot's size, not a small view.)

    A ``scale`` (pixels larger than the layout) goes into the theme's UI scale, which
    every font, line width and margin follows, and the widget is laid out at the pixel
    size: ``--scale 2`` at 960 x 540 looks like 1920 x 1080 at scale 1. Enlarging by
    the image's pixel ratio instead also multiplied what is sized in device pixels
    (legend swatches and padding, hairlines) while fonts shrank by the small layout's
    UI scale, so legends spread out. Past the theme's largest UI scale the rest is a
    pixel ratio (the widget is laid out smaller than ``pixels``).
    """
    w, h = layout
    zoom = min(pixels[0] / w, pixels[1] / h)
    fit = min(w / DEFAULT_WIDTH, h / DEFAULT_HEIGHT)
    if whole and fit < MIN_LAYOUT_FIT and zoom <= 1.0:
        k = MIN_LAYOUT_FIT / fit
        w, h = max(1, round(w * k)), max(1, round(h * k))
        return export_ui_scale(w, h), (w, h)
    wanted = export_ui_scale(w, h) * max(zoom, 1.0)
    ui_scale = min(wanted, MAX_UI_SCALE)
    ratio = wanted / ui_scale
    if zoom <= 1.0:
        return ui_scale, (w, h)
    return ui_scale, (max(1, round(pixels[0] / ratio)), max(1, round(pixels[1] / ratio)))


class ImageExport:
    """The drawing of one image export, step by step (GUI thread).

    Builds the offscreen widget of ``view`` (or ``panel``) for the request; iterate
    :meth:`steps` to paint it (``(done, total)`` after each plain widget or plot-sized
    tile: a window shows progress and may stop between steps), then :meth:`encoder`
    gives the file content and :meth:`close` releases the widget. Headless and window
    exports both draw through this class, so they write the same file.

    Parameters
    ----------
    spec, view, panel
        The view, its computed data and optionally one plot of it.
    fmt
        ``"png"`` or ``"svg"``.
    layout, pixels
        Layout and pixel size ``(w, h)`` (see :func:`validate_request`).
    transparent
        PNG: transparent background.
    title, note
        Replace the view's title line / add a note line (scenes).
    square_cells
        The lecturer's "Square cells" choice per plot key (see :func:`build_widget`).
    widget
        A view widget this class built before for ``spec`` (a whole view, same
        request size and theme), drawn again with ``view`` instead of building one:
        :meth:`show_view` updates the plots it has, where building them anew blocks
        the GUI thread for up to a second. The caller keeps it (:meth:`close` leaves
        it); the plots' staging is the caller's (same scene staging: see
        :class:`gui.export.deck.SceneWidgets`).
    """

    def __init__(
        self,
        spec: ViewSpec,
        view: ViewData,
        panel: Panel | None,
        fmt: str,
        layout: tuple[int, int],
        pixels: tuple[int, int],
        transparent: bool,
        title: str | None,
        note: str | None,
        *,
        square_cells: Mapping[str, bool] | None = None,
        widget: Any = None,
    ) -> None:
        from gui.qt_app import ensure_app

        ensure_app(headless=True)  # offscreen platform unless a QApplication already exists
        from gui import theme
        from gui.render import snapshot

        if fmt not in IMAGE_FORMATS:
            raise ValueError(f"not an image format: {fmt!r}")
        self.fmt = fmt
        self.kind = "PNG image" if fmt == "png" else "SVG image"
        ui_scale, size = export_layout(layout, pixels, whole=panel is None)
        previous = theme.current_theme()
        theme.set_theme(ui_scale=ui_scale)
        self.owned = widget is None
        try:
            if widget is None:
                widget = build_widget(spec, view, panel, title, note, square_cells=square_cells)
            else:
                fill_widget(widget, view, title, note, square_cells)
            self.widget = widget
        finally:
            theme.set_theme(ui_scale=previous.ui_scale)  # the window's plots keep their look
        self.widget.resize(*size)
        self.render: Any
        if fmt == "png":
            # pixels smaller than the layout (a scale under 1: the presenter's picture
            # of the next scene, laid out at 1600 x 900, drawn at 640 x 360) draw the
            # layout scaled down; laid out again at the pixel size, its plots were
            # squashed under titles lying over each other
            self.render = snapshot.ImageRender(
                self.widget,
                width=pixels[0],
                height=pixels[1],
                transparent=transparent,
                keep_layout=True,
            )
        else:
            self.render = snapshot.SvgRender(
                self.widget,
                size[0],
                size[1],
                title or (panel.title if panel else spec.title),
                shown=layout if size[0] > layout[0] else None,  # (laid out larger)
            )

    def steps(self) -> Generator[tuple[int, int], None, None]:
        """Paint the image, yielding ``(done, total)`` after each part."""
        yield from self.render.steps()

    def encoder(self) -> Callable[[], bytes]:
        """A function returning the file content once :meth:`steps` has finished. For
        a PNG it encodes the image and may run in any thread; an SVG's text is finished
        here (GUI thread: it measures fonts)."""
        from gui.render.snapshot import png_bytes

        if self.fmt == "png":
            return partial(png_bytes, self.render.image)
        data = self.render.svg_bytes()
        return lambda: data

    def write(
        self, path: str | os.PathLike[str], stage: Callable[[Any], None] | None = None
    ) -> None:
        """Paint in one go, ``stage`` called with the widget first, write ``path``
        atomically and :meth:`close` (the drawing half of :func:`export_view`)."""
        from gui.render.snapshot import run_steps, write_export

        try:
            if stage is not None:
                stage(self.widget)
            run_steps(self.steps())
            write_export(path, self.kind, self.encoder()())
        finally:
            self.close()

    def close(self) -> None:
        """Release the widget (the image or document stays with :meth:`encoder`); a
        widget given to the constructor is left to its owner."""
        if self.widget is not None and self.owned:
            self.widget.deleteLater()
        self.widget = None


def build_widget(
    spec: ViewSpec,
    view: ViewData,
    panel: Panel | None,
    title: str | None,
    note: str | None,
    *,
    square_cells: Mapping[str, bool] | None = None,
) -> Any:
    """A never-shown widget drawing the whole ``view`` as an export shows it, or only
    its plot ``panel``.

    The whole view is a :class:`gui.widgets.view_widget.ViewWidget` without its teaching
    paragraph; ``title`` replaces its title line and ``note`` (plain text, not HTML) leads
    its status line. Fonts and lines follow the current theme's UI scale: callers set
    it for the export size first (see :func:`export_ui_scale`). ``square_cells`` (plot
    key -> bool) is the lecturer's "Square cells" choice, drawn as the window draws it
    (plots not named get the automatic choice). GUI thread only.
    """
    import pyqtgraph as pg

    from gui.plotting.panel_plot import PanelPlot
    from gui.render.fast_axis import hide_spare_axes, make_axes
    from gui.render.view_box import PlotViewBox
    from gui.theme import current_theme

    theme = current_theme()
    chosen = dict(square_cells or {})
    if panel is not None:
        canvas = pg.GraphicsLayoutWidget()
        canvas.setBackground(theme.background)
        # the window's axes and view box: pyqtgraph's own axes drew a single plot's
        # tick labels with an ASCII hyphen ("-0.5", the window's "−0.5") and without
        # the window's label rules (crowded labels left out, index labels shrunk)
        item = canvas.addPlot(axisItems=make_axes(), viewBox=PlotViewBox())
        hide_spare_axes(item)
        plot = PanelPlot(item)
        plot.square_cells = chosen.get(panel.key)
        plot.show(panel)
        return canvas
    from gui.widgets.view_widget import ViewWidget

    widget = ViewWidget(spec)
    widget.explanation.hide()  # the teaching paragraph stays in the app
    fill_widget(widget, view, title, note, chosen)
    return widget


def build_widget_steps(
    spec: ViewSpec,
    view: ViewData,
    layout: tuple[int, int],
    pixels: tuple[int, int],
    *,
    square_cells: Mapping[str, bool] | None = None,
    keep: Callable[[Any], None] | None = None,
) -> Generator[None, None, Any]:
    """:func:`build_widget` of a whole view part by part, for an export of ``layout``
    drawn at ``pixels`` (see :class:`ImageExport`, which draws it given as its
    ``widget``): yields ``None`` after the widget and after each plot is built or drawn
    (:meth:`ViewWidget.show_data_steps`), and returns the widget. Each part runs at the
    export's UI scale, the theme is the window's in between (the stage may draw
    meanwhile). Closed early, it finishes the widget and gives it to ``keep`` (a cache
    of widgets to draw again), else releases it. GUI thread only."""
    from gui import theme
    from gui.render import snapshot
    from gui.widgets.view_widget import ViewWidget

    ui_scale, size = export_layout(layout, pixels)

    def themed(part: Callable[[], Any]) -> Any:
        previous = theme.current_theme()
        theme.set_theme(ui_scale=ui_scale)
        try:
            return part()
        finally:
            theme.set_theme(ui_scale=previous.ui_scale)

    widget = themed(lambda: ViewWidget(spec))
    done = False
    parts: Iterator[None] = iter(())
    try:
        widget.explanation.hide()  # the teaching paragraph stays in the app
        widget.square_cells = dict(square_cells or {})
        # at the picture's size from the start: each plot is laid out where it will be
        # drawn (laying them all out anew at that size was one long part)
        widget.resize(*size)
        snapshot._sync_layout(widget)
        yield None
        parts = widget.show_data_steps(view)
        end = object()
        while themed(lambda: next(parts, end)) is not end:
            yield None
        done = True
    finally:
        if not done:
            # finished before it goes: a half-built view widget crashed the
            # interpreter's exit (a segfault after the presenter closed mid-picture)
            themed(lambda: [None for _ in parts])
            if keep is not None:  # (one left for deletion at exit still crashed it)
                keep(widget)
            else:
                widget.deleteLater()
    return widget


def prepare_layout(widget: Any) -> None:
    """Lay a never-shown export widget out at its size now (what painting it starts
    with), so a caller drawing part by part spends a part of its own on it."""
    from gui.render import snapshot

    snapshot._sync_layout(widget)


def fill_widget(
    widget: Any,
    view: ViewData,
    title: str | None,
    note: str | None,
    square_cells: Mapping[str, bool] | None = None,
) -> None:
    """Draw ``view`` in a view widget made by :func:`build_widget` (again: the plots it
    has are updated), with its title line, note and the "Square cells" choices."""
    from PySide6 import QtCore

    widget.square_cells = dict(square_cells or {})  # given to the plots show_data builds
    for key, plot in widget.plots.items():  # and to those it keeps
        plot.square_cells = widget.square_cells.get(key)
    widget.show_data(view)
    plain = QtCore.Qt.TextFormat.PlainText  # a scene's title and note are not HTML
    widget.title.setTextFormat(plain if title else QtCore.Qt.TextFormat.AutoText)
    widget.title.setText(title or widget.spec.title)
    widget.show_notes_line(note or "")  # then the notes of the plots shown


# ----------------------------------------------------------------------- data files
def _write_panel_data(path: str | os.PathLike[str], view_id: str, panel: Panel) -> None:
    names, table = panel.data_table()
    if table.size == 0:
        if panel.kind == "table" and Path(path).suffix.lower() == ".csv":
            with atomic_open(path, "w", newline="") as handle:
                writer = csv.writer(handle, lineterminator="\n")
                writer.writerow(panel.header)
                writer.writerows(panel.rows)
            return
        raise ValueError(
            f"plot '{panel.key}' of view '{view_id}' has no numeric data to "
            "export" + ("; export it as CSV, PNG or SVG" if panel.kind == "table" else "")
        )
    if panel.kind == "arrows":  # each row named by its arrow ("q (m=5)"), not 0, 1, 2
        arrows = [a.name for a in panel.arrows]
        write_array(path, table, ("arrow", "coordinate"), column_names=names, row_names=arrows)
        return
    write_array(path, table, ("row", "column"), column_names=names)


def write_array(
    path: str | os.PathLike[str],
    array: np.ndarray,
    axes: Sequence[str],
    column_names: Sequence[str] | None = None,
    row_names: Sequence[str] | None = None,
) -> None:
    """Write ``array`` atomically as ``.npy`` (no pickle) or ``.csv`` by ``path``'s suffix.

    CSV layout: 1-D/2-D arrays as a matrix, a header row of column indices (or
    ``column_names``) and a first column of row indices (or ``row_names``); 3-D and
    higher in long format, one column per axis (named from ``axes``) plus ``value``. Floats use ``%.17g``
    (``-inf``/``inf``/``nan`` spelled so ``float()`` reads them), so values round-trip.
    """
    array = np.asarray(array)
    if export_format(path) == "npy":
        with atomic_open(path, "wb") as handle:
            np.save(handle, array, allow_pickle=False)
        return
    with atomic_open(path, "w", newline="") as handle:
        write_csv(handle, array, axes, column_names, row_names)


def _formatter(array: np.ndarray):
    if np.issubdtype(array.dtype, np.integer) or array.dtype == np.bool_:
        return lambda row: [str(int(v)) for v in row]
    return lambda row: ["%.17g" % v for v in row]  # noqa: UP031 (repr-level precision)


_CSV_CHUNK_ITEMS = 65536  # values converted to Python objects at a time


def write_csv(
    handle: Any,
    array: np.ndarray,
    axes: Sequence[str],
    column_names: Sequence[str] | None = None,
    row_names: Sequence[str] | None = None,
) -> None:
    """Write ``array`` as CSV to the open text ``handle`` (see :func:`write_array`)."""
    array = np.asarray(array)
    if array.ndim == 0:
        array = array.reshape(1)
    names = list(axes) + [f"axis {k}" for k in range(len(axes), array.ndim)]
    fmt = _formatter(array)
    writer = csv.writer(handle, lineterminator="\n")
    if array.ndim <= 2:
        matrix = array.reshape(-1, 1) if array.ndim == 1 else array
        cols = (
            list(column_names)
            if column_names is not None
            else ["value"]
            if array.ndim == 1
            else [str(j) for j in range(matrix.shape[1])]
        )
        corner = names[0] if array.ndim == 1 else f"{names[0]} \\ {names[1]}"
        writer.writerow([corner, *cols])
        # A block of rows at a time: Python floats for the whole matrix would need
        # about 4x the array's memory, past the memory guard's estimate.
        step = max(1, _CSV_CHUNK_ITEMS // max(1, matrix.shape[1]))
        for start in range(0, matrix.shape[0], step):
            block = matrix[start : start + step].tolist()
            writer.writerows(
                [str(i) if row_names is None else row_names[i], *fmt(row)]
                for i, row in enumerate(block, start=start)
            )
        return
    writer.writerow([*names[: array.ndim], "value"])
    last = np.arange(array.shape[-1]).tolist()
    for index in np.ndindex(*array.shape[:-1]):
        prefix = [str(k) for k in index]
        writer.writerows(
            [*prefix, str(j), v] for j, v in zip(last, fmt(array[index].tolist()), strict=True)
        )
