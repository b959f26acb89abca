"""Export a parameter sweep of a view as an animated GIF, WebP or an MP4 video.

``main.py export VIEW --animate PARAM=START:END --duration 4 -o out.gif`` calls
:func:`export_animation`. The view is drawn at slide resolution (1920 x 1080 by default),
stage only (no explanation paragraph), once per value of the parameter schedule
(:func:`core.schedule.schedule`); integer parameters take the schedule rounded. One
offscreen :class:`gui.widgets.view_widget.ViewWidget` is built and re-drawn for every
frame, with the code path of :mod:`gui.export.headless`. GIF and WebP are encoded with
Pillow, MP4 (H.264) with PyAV, an optional extra (``pip install av``). The file is written
atomically: a failure or cancel half-way leaves no output file (and an existing file as
it was).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from core.atomicio import atomic_path
from core.memory import check_allocation
from core.params import ParamError
from core.schedule import (
    EASES,
    frame_count,
    frame_durations_ms,
    round_half_up,
    schedule,
    swept,
)
from core.viewdata import ViewSpec
from core.views import compute_view, get_view
from gui.export.headless import (
    check_writable,
    context_for_size,
    export_layout,
    folder_problem,
    pixel_size,
)

ANIMATION_FORMATS: tuple[str, ...] = ("gif", "webp", "mp4")
SLIDE_WIDTH, SLIDE_HEIGHT = 1920, 1080
MAX_FPS = 60
# the largest frame side each encoder takes: libx264 refused a wider MP4 with "internal
# error (ExternalError: ... avcodec_open2("libx264" ...)", WebP's limit is 16383
MAX_SIDE = {"mp4": 16384, "webp": 16383}
PILLOW_MISSING = (
    "GIF/WebP export needs Pillow, which is not part of this installation: the packaged app "
    "leaves it out to stay small; from the source checkout run '.venv/bin/pip install Pillow'"
    if getattr(sys, "frozen", False)
    else "animation export needs Pillow, which is not installed: run 'pip install Pillow'"
)
MP4_MISSING = (
    "MP4 export needs PyAV, which is not part of this installation: the packaged app leaves "
    "it out to stay small; from the source checkout run '.venv/bin/pip install av'"
    if getattr(sys, "frozen", False)
    else "MP4 export needs PyAV, which is not installed: run 'pip install av' (or use .gif)"
)

Progress = Callable[[int, int], None]
"""``progress(done, total)`` after each frame; raise (e.g. :class:`Cancelled`) to stop."""


class Cancelled(Exception):
    """Raised by a progress callback to stop an export; no output file is left."""


@dataclass(frozen=True)
class Sweep:
    """A parameter animated from ``start`` to ``end``."""

    param: str
    start: float
    end: float
    ease: str = "linear"


def animation_format(path: str | os.PathLike[str]) -> str:
    """``gif``, ``webp`` or ``mp4`` from ``path``'s extension; ``ValueError`` otherwise
    (also for a path ending with a separator, which names a folder)."""
    problem = folder_problem(path, "animation output", ".gif, .webp or .mp4")
    if problem is not None:
        raise ValueError(problem)
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in ANIMATION_FORMATS:
        problem = f"has unsupported file type '.{ext}'" if ext else "has no file extension"
        raise ValueError(f"animation output '{os.fspath(path)}' {problem}; use .gif, .webp or .mp4")
    return ext


def parse_sweep(text: str, spec: ViewSpec, ease: str = "linear") -> Sweep:
    """Parse ``PARAM=START:END`` for view ``spec``; both ends must be valid values.

    Raises
    ------
    ValueError
        Malformed text, unknown or non-numeric parameter, a value that is not a number
        or outside the parameter's range, an unknown ``ease``.
    """
    name, sep, rest = text.partition("=")
    first, colon, second = rest.partition(":")
    if not sep or not colon or not name.strip() or not first.strip() or not second.strip():
        raise ValueError(
            f"malformed --animate {text!r}: expected PARAM=START:END, e.g. base=100:100000"
        )
    if ease not in EASES:
        raise ValueError(f"unknown easing {ease!r}; use {' or '.join(EASES)}")
    param = spec.model[name.strip()]  # unknown name: ParamError (a ValueError)
    if param.kind not in ("int", "float"):
        raise ValueError(
            f"parameter '{param.name}' is {param.kind}, not a number; "
            "--animate needs an int or float parameter"
        )
    ends = []
    for part in (first, second):
        try:
            number = float(part)
        except ValueError:
            raise ValueError(f"--animate {param.name}: {part.strip()!r} is not a number") from None
        param.validate(int(number) if param.kind == "int" and number.is_integer() else number)
        ends.append(number)
    return Sweep(param.name, ends[0], ends[1], ease)


def sweep_values(sweep: Sweep, spec: ViewSpec, frames: int) -> list[float] | list[int]:
    """The parameter value of each frame (rounded half up for an int parameter, as
    :func:`core.schedule.swept` for a float one: as the window's sweep sets them)."""
    values = schedule(sweep.start, sweep.end, frames, sweep.ease)
    param = spec.model[sweep.param]
    if param.kind == "int":
        return round_half_up(values)
    return swept(values, sweep.start, sweep.end, sweep.ease, param.decimals)


class FrameSource(Protocol):
    """What :func:`export_animation` needs of a frame renderer."""

    def render(self, values: Mapping[str, Any]) -> Any:
        """The frame for ``values`` as an RGB ``PIL.Image``."""

    def close(self) -> None:
        """Release resources."""


class FrameRenderer:
    """One offscreen view widget, re-drawn for each parameter set, rendered to RGB.

    Parameters
    ----------
    spec
        The view.
    layout, pixels
        Layout and pixel size ``(w, h)`` (see :func:`gui.export.headless.pixel_size`).
    title, note
        Replace the view's title line / add a note line (scenes).
    square_cells
        The lecturer's "Square cells" choice per plot key (a window's animation).
    """

    def __init__(
        self,
        spec: ViewSpec,
        layout: tuple[int, int],
        pixels: tuple[int, int],
        title: str | None = None,
        note: str | None = None,
        *,
        square_cells: Mapping[str, bool] | None = None,
    ) -> None:
        from gui.qt_app import ensure_app

        ensure_app(headless=True)
        self.spec, self.layout, self.pixels = spec, layout, pixels
        self.title, self.note = title, note
        self.square_cells = dict(square_cells or {})
        self.context = context_for_size(*pixels)
        self.widget: Any = None

    def render(self, values: Mapping[str, Any]) -> Any:
        """The view at ``values`` as a ``PIL.Image`` in RGB of the pixel size."""
        from PIL import Image

        from gui import theme
        from gui.export import headless
        from gui.render import snapshot

        view = compute_view(self.spec.view_id, values, self.context)
        # a small frame: the layout of a larger one, drawn scaled down (export_layout)
        ui_scale, laid = export_layout(self.layout, self.pixels)
        previous = theme.current_theme()
        theme.set_theme(ui_scale=ui_scale)  # plots take fonts from it
        try:
            if self.widget is None:
                self.widget = headless.build_widget(
                    self.spec, view, None, self.title, self.note, square_cells=self.square_cells
                )
                self.widget.resize(*laid)
            else:
                self.widget.show_data(view)
                self.widget.show_notes_line(self.note or "")  # as the first frame's
        finally:
            theme.set_theme(ui_scale=previous.ui_scale)  # the window's plots keep their look
        render = snapshot.ImageRender(
            self.widget, width=self.pixels[0], height=self.pixels[1], keep_layout=True
        )
        snapshot.run_steps(render.steps())
        image = render.image
        image = image.convertToFormat(image.Format.Format_RGBA8888)
        size = (image.width(), image.height())
        data = bytes(image.constBits())
        rgba = Image.frombuffer("RGBA", size, data, "raw", "RGBA", image.bytesPerLine(), 1)
        return rgba.convert("RGB")

    def close(self) -> None:
        """Release the widget."""
        if self.widget is not None:
            self.widget.deleteLater()
            self.widget = None


def export_animation(
    view_id: str,
    params: Mapping[str, Any],
    sweep: Sweep,
    path: str | os.PathLike[str],
    *,
    duration: float,
    fps: int = 25,
    width: int | None = None,
    height: int | None = None,
    title: str | None = None,
    note: str | None = None,
    progress: Progress | None = None,
    renderer: Callable[..., FrameSource] = FrameRenderer,
) -> Path:
    """Write view ``view_id`` animated along ``sweep`` to ``path`` (.gif, .webp, .mp4).

    Parameters
    ----------
    view_id, params
        The view and its other parameter values (missing ones take defaults).
    sweep
        The animated parameter (:func:`parse_sweep`).
    path
        Destination; the format follows the extension.
    duration, fps
        Length in seconds and frames per second (1..60); ``round(duration * fps)`` frames.
    width, height
        Frame size in pixels (default 1920 x 1080; MP4 needs even sizes).
    title, note
        Replace the view's title line / add a note line (scenes).
    progress
        Called as ``progress(done, total)`` after each frame; raising stops the export.
    renderer
        Factory of the frame renderer (tests replace it).

    Raises
    ------
    ValueError
        Bad sweep, parameters, size, duration or frame rate, unsupported extension, PyAV
        missing for MP4.
    OSError
        The file cannot be written (nothing is left at ``path``).
    """
    spec = get_view(view_id)
    fmt = animation_format(path)
    if isinstance(fps, bool) or int(fps) != fps or not 1 <= fps <= MAX_FPS:
        raise ValueError(f"frame rate must be a whole number in 1..{MAX_FPS}, got {fps}")
    n = frame_count(duration, fps)
    w, h, pw, ph = pixel_size(
        SLIDE_WIDTH if width is None else width, SLIDE_HEIGHT if height is None else height, None
    )
    _require("PIL", PILLOW_MISSING)
    side = MAX_SIDE.get(fmt)
    if side is not None and max(pw, ph) > side:  # (the encoder refused it after rendering)
        raise ValueError(
            f"{fmt.upper() if fmt == 'mp4' else 'WebP'} frames are at most {side} pixels a "
            f"side, got {pw}x{ph}; use GIF or a smaller size"
        )
    if fmt == "mp4":
        if pw % 2 or ph % 2:
            raise ValueError(f"MP4 needs an even width and height, got {pw}x{ph}")
        _require("av", MP4_MISSING)
    if fmt == "gif":  # Pillow keeps every palette frame until it writes the file
        check_allocation("GIF frames", (n, ph, pw), itemsize=1, copies=1)
    elif fmt == "webp":  # Pillow collects every RGB frame before encoding WebP
        check_allocation("WebP frames", (n, ph, pw, 3), itemsize=1, copies=1)
    values = sweep_values(sweep, spec, n)
    base = spec.model.validate(params, partial=True)
    why = spec.model[sweep.param].unused_why(base)
    if why is not None:  # (every frame the same picture; the window's sweep refuses it too)
        raise ParamError(sweep.param, f"not used now ({why}); nothing to animate")
    frames = [spec.model.validate({**base, sweep.param: v}) for v in values]  # all valid first
    check_writable(path)
    frame_renderer = renderer(spec, (w, h), (pw, ph), title, note)
    try:
        images = _frames(frame_renderer, frames, progress)
        with atomic_path(path) as tmp:
            if fmt == "mp4":
                _write_mp4(tmp, images, fps, (pw, ph))
            else:
                _write_pillow(tmp, fmt, images, frame_durations_ms(n, fps))
    finally:
        frame_renderer.close()
    return Path(path)


def _frames(
    renderer: FrameSource, frames: Sequence[Mapping[str, Any]], progress: Progress | None
) -> Iterator[Any]:
    for i, values in enumerate(frames, start=1):
        yield renderer.render(values)
        if progress is not None:
            progress(i, len(frames))


def _require(module: str, message: str) -> None:
    """Raise ``ValueError(message)`` unless ``module`` can be imported."""
    try:
        importlib.import_module(module)
    except ImportError:
        raise ValueError(message) from None


def _write_pillow(tmp: Path, fmt: str, images: Iterator[Any], durations: list[int]) -> None:
    first = next(images)
    options: dict[str, Any] = {"save_all": True, "append_images": images, "loop": 0}
    if fmt == "gif":
        options["optimize"] = False
    else:
        options.update(quality=90, method=4)
    first.save(tmp, format=fmt.upper(), duration=durations, **options)


def _write_mp4(tmp: Path, images: Iterator[Any], fps: int, size: tuple[int, int]) -> None:
    import av

    with av.open(os.fspath(tmp), mode="w", format="mp4") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height = size
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": "18", "preset": "medium"}
        for image in images:
            frame = av.VideoFrame.from_image(image)
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
