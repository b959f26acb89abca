"""Display-side helpers for plotted data: colours, heatmap levels, change detection.

No math of the views here: only how their arrays are shown (colour of a series, the
colour range of a heatmap, masked cells as transparent) and whether an array changed.
"""

from __future__ import annotations

import numpy as np

from core.toeplitz import as_dtype
from core.viewdata import Panel, Series
from gui.theme import Theme

# Okabe–Ito: colour-blind-safe categorical palette.
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def series_color(index: int, theme: Theme) -> str:
    """Colour of the ``index``-th series (Okabe–Ito, black swapped for the foreground,
    the blue for the theme's ``primary``, readable on a dark background)."""
    color = OKABE_ITO[index % len(OKABE_ITO)]
    if color == "#0072B2":
        return theme.primary
    return theme.foreground if color == "#000000" else color


def display_image(image: np.ndarray) -> np.ndarray:
    """Image as drawn: float32. Masked cells (NaN, ±inf) are drawn transparent.

    A Toeplitz view (the relative grids, sinusoidal similarity: strided views of one
    vector, :func:`core.toeplitz.by_offset`) stays a view of its vector converted: a
    512 × 512 int64 grid was copied cell by cell on every frame (~0.2 ms each)."""
    return as_dtype(image, np.float32)


def color_levels(panel: Panel, img: np.ndarray) -> tuple[float, float]:
    """The colour range of a heatmap: the panel's levels, else its finite values'.

    A diverging map's range is always symmetric about zero (given levels too), so zero
    gets the map's neutral middle colour and the colour bar's middle tick reads 0.
    """
    if panel.levels is not None:
        lo, hi = (float(v) for v in panel.levels)
    else:
        finite = img[np.isfinite(img)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if panel.colormap == "diverging":
        reach = max(abs(lo), abs(hi)) or 1.0
        lo, hi = -reach, reach
    if hi <= lo:
        hi = lo + 1.0
    return float(lo), float(hi)


SMALL_ARRAY = 4096  # elements: up to this size two arrays of one dtype compare by bytes
_BYTE_KINDS = frozenset("biufcmM")  # dtypes whose equal bytes mean equal values


def same_array(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    """Whether two arrays hold the same values (NaN equal to NaN), cheaply when not.

    Views of the same memory with the same layout (the core's cached tables, sliced anew
    for each frame) hold the same values by definition. Float arrays of one dtype are
    compared bit for bit (NaN payloads and ±0 count as a change: a redundant redraw at
    worst), which is an order of magnitude faster than a NaN-aware comparison; small
    arrays of one dtype (up to :data:`SMALL_ARRAY` elements) by their bytes, whatever
    their layout.
    """
    if a is b:
        return True
    if a is None or b is None:
        return False
    if type(a) is not np.ndarray:
        a = np.asarray(a)
    if type(b) is not np.ndarray:
        b = np.asarray(b)
    if a.shape != b.shape or a.dtype.kind != b.dtype.kind:
        return False
    if a.size <= SMALL_ARRAY and a.dtype == b.dtype and a.dtype.kind in _BYTE_KINDS:
        # a curve's few hundred points, an arrow's two: their bytes compared (~0.4 µs;
        # the checks below cost ~10 µs an array, some 60 arrays a frame in the clock)
        return a.tobytes() == b.tobytes()
    if (
        a.dtype == b.dtype
        and a.strides == b.strides
        and a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    ):
        return True
    if a.size > 4096:  # most changed arrays differ everywhere: look at a few cells first
        step = a.size // 64
        if not np.array_equal(
            a.reshape(-1)[::step], b.reshape(-1)[::step], equal_nan=a.dtype.kind == "f"
        ):
            return False
    if (
        a.dtype == b.dtype
        and a.dtype.kind == "f"
        and a.dtype.itemsize in (2, 4, 8)
        and a.flags.c_contiguous
        and b.flags.c_contiguous
    ):
        bits = np.dtype(f"u{a.dtype.itemsize}")
        return bool(np.array_equal(a.view(bits), b.view(bits)))
    return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))


def same_arrays(old: tuple, new: tuple) -> bool:
    """Element-wise :func:`same_array` of two tuples of arrays."""
    return all(same_array(a, b) for a, b in zip(old, new, strict=True))


def run_ends(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A curve's points less those inside its runs: each run of finite points between
    NaN separators keeps its first and last point, the separators stay. For a series
    whose runs are straight (:attr:`core.viewdata.Series.straight`) the lines drawn are
    the same: ALiBi's "all 8 heads" (~900 points, dashed) took 0.25-0.4 ms a frame to
    stroke on the 150 % stage, its eight lines drawn from their ends ~0.05 (and
    ALiBi's stage frame 0.55 ms less in paired runs). The arrays as given where no
    point goes."""
    n = x.size
    if n <= 2 or y.size != n:
        return x, y
    finite = np.isfinite(x) & np.isfinite(y)
    keep = ~finite
    keep[0] = keep[-1] = True
    keep[1:] |= ~finite[:-1]  # (a point after a separator starts a run)
    keep[:-1] |= ~finite[1:]  # (a point before one ends it)
    if keep.all():
        return x, y
    return x[keep], y[keep]


def drawn_xy(series: Series) -> tuple[np.ndarray, np.ndarray]:
    """The points a plot draws ``series`` with, as float arrays: a straight series' run
    ends (:func:`run_ends`), every point of the others."""
    x, y = np.asarray(series.x, float), np.asarray(series.y, float)
    return run_ends(x, y) if series.straight else (x, y)


DRAWN_ALIKE = 1e-9  # of a curve's largest |y|: closer values draw the same pixels

SAME, ALIKE, MOVED = "same", "alike", "moved"


def curve_change(old: tuple, new: tuple) -> str:
    """How the curve ``new`` (``(x, y)``) differs from ``old``: :data:`SAME` arrays
    (:func:`same_arrays`), :data:`ALIKE` or :data:`MOVED`.

    ``ALIKE``: ``new`` draws as ``old`` does. The same x values (bit for bit), and y
    values that differ from ``old``'s by at most :data:`DRAWN_ALIKE` of its largest
    magnitude (a millionth of a pixel on any plot that shows ``old`` whole), NaN where
    ``old`` has NaN. RoPE's score against the offset is the same curve at every query
    position up to rounding (~1e-13): redrawing it, its range, axes and grid on each
    step of ``m`` changed no pixel.

    Each array pair is compared once (a drawn curve is checked on every frame: the
    clock's ~30 moved lines were compared two and three times).
    """
    (ox, oy), (nx, ny) = old, new
    if ox is None or oy is None:
        return SAME if same_arrays(old, new) else MOVED
    if not same_array(ox, nx):
        return MOVED
    if same_array(oy, ny):
        return SAME
    if type(oy) is not np.ndarray:
        oy = np.asarray(oy)
    if type(ny) is not np.ndarray:
        ny = np.asarray(ny)
    if oy.shape != ny.shape or oy.dtype.kind != "f" or ny.dtype.kind != "f" or oy.size == 0:
        return MOVED
    # (ufunc reductions: np.array_equal, ndarray.all and np.max without their wrappers,
    # a dozen calls each; RoPE's scores are compared on every frame of a drag)
    every, most = np.logical_and.reduce, np.maximum.reduce
    gone = np.isnan(oy)
    if not every(gone == np.isnan(ny)):  # (one shape: np.array_equal)
        return MOVED
    old_kept, new_kept = oy[~gone], ny[~gone]
    if not (every(np.isfinite(old_kept)) and every(np.isfinite(new_kept))):
        return ALIKE if np.array_equal(old_kept, new_kept) else MOVED
    if old_kept.size == 0:
        return ALIKE
    reach = float(most(np.abs(old_kept)))
    return ALIKE if most(np.abs(old_kept - new_kept)) <= DRAWN_ALIKE * reach else MOVED
