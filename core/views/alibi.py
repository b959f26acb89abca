"""ALiBi view: the bias matrix of every head, slopes, bias vs distance, one softmax row."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from core.alibi import alibi_attention_row, alibi_bias, alibi_slopes, key_index_bias_row
from core.formula import approx_text, plain_text
from core.memory import check_allocation
from core.params import Param, ParamModel, last_position
from core.toeplitz import even_step, offsets, toeplitz_view
from core.viewdata import (
    ComputeContext,
    ExportData,
    Panel,
    Series,
    Tile,
    ViewData,
    ViewSpec,
    fmt_value,
    sample_axis,
    sampled_note,
)

MODEL = ParamModel(
    "alibi",
    "ALiBi",
    (
        Param(
            "seq_len", "int", 16, "Sequence length", "Number of query/key positions.", 1, 65536, 1
        ),
        Param(
            "heads",
            "int",
            8,
            "Heads",
            "Number of attention heads; head h gets slope m_h "
            "(2^(−8h/n) for powers of two, Press et al.'s rule otherwise).",
            1,
            64,
            1,
        ),
        Param(
            "causal",
            "bool",
            True,
            "Causal",
            "Causal: bias −m·(i−j) for keys j ≤ i, keys after "
            "the query masked (−∞). Off: symmetric −m·|i−j|.",
        ),
        Param(
            "head",
            "int",
            1,
            "Head for the softmax row",
            "Which head's slope is applied in the "
            "attention-row panel (1-based; clamped to the number of heads).",
            1,
            64,
            1,
            limit=lambda v: v["heads"],
        ),
        Param(
            "query",
            "int",
            15,
            "Query position",
            "Query row i shown in the attention-row panel (clamped to seq_len−1).",
            0,
            65535,
            1,
            limit=last_position,
        ),
    ),
)

EXPLANATION = (
    "ALiBi adds no vector to the tokens. Instead every attention score gets a penalty that "
    "grows linearly with the distance between query i and key j: bias = −m·(i−j). Each "
    "head has its own slope m, from steep (looks locally) to gentle (looks far). Because "
    "the penalty only depends on distance, it keeps working on sequences longer than "
    "those seen in training. Some code adds +m·j instead: −m·(i−j) = +m·j − m·i, and −m·i "
    "is the same for the whole row, so +m·j gives the same causal softmax; the sign "
    "matters, since −m·j favours the first keys instead of the nearest ones. Bottom: the "
    "course's own example, bias = -0.1 * torch.arange(8) added to an 8×8 score matrix, "
    "broadcasts one bias per key index over every row: −0.1·j, the same for every query. "
    "That is such a key-index bias, not ALiBi: it does not depend on the distance i − j, "
    "it favours the first keys whichever query asks, and it has one fixed slope where "
    "ALiBi gives every head its own m_h."
)

TOY_SCORE_SEED = 11
COURSE_TOY_SLOPE = 0.1  # the course: bias = -0.1 * distance, distance = torch.arange(8)
COURSE_TOY_SIZE = 8  # the course's scores = torch.randn(8, 8)


@functools.lru_cache(maxsize=64)
def head_table(h: int) -> tuple[np.ndarray, np.ndarray]:
    """``(slopes, head numbers 1..h)`` of ``h`` heads, read-only and kept: every frame
    of a drag of another parameter (seq_len, query) hands the slopes panel the same
    arrays, which its plot recognises without comparing them."""
    slopes, numbers = alibi_slopes(h), np.arange(1, h + 1, dtype=float)
    slopes.setflags(write=False)
    numbers.setflags(write=False)
    return slopes, numbers


@functools.lru_cache(maxsize=4)
def _score_stream(size: int) -> np.ndarray:
    """The first ``size`` toy scores (seed :data:`TOY_SCORE_SEED`), read-only and kept."""
    stream = np.random.default_rng(TOY_SCORE_SEED).standard_normal(size)
    stream.setflags(write=False)
    return stream


def toy_scores(n: int) -> np.ndarray:
    """The softmax row's toy scores of ``n`` keys: ``standard_normal(n)`` of a generator
    seeded with :data:`TOY_SCORE_SEED` (read-only).

    A generator's first ``n`` normals are the first ``n`` of any longer draw, so they
    are sliced from one kept draw of the next power of two (at least 1024): a
    ``seq_len`` drag seeded a generator and drew anew on every frame (~11 us of the
    worker's time, which shares the GUI thread's interpreter lock).
    """
    return _score_stream(max(1024, 1 << (int(n) - 1).bit_length()))[:n]


@functools.lru_cache(maxsize=64)
def _course_arrays(h: int, head: int, causal: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions, the course's toy bias and head ``head``'s real bias on the course's
    8 × 8 example, read-only and kept (they do not follow seq_len or the query: a drag
    hands those plots the same arrays)."""
    idx = np.arange(COURSE_TOY_SIZE)
    toy = course_toy_bias(COURSE_TOY_SIZE, idx, idx)
    real = alibi_bias(COURSE_TOY_SIZE, h, causal, heads=np.array([head - 1]))[0]
    for array in (idx, real):
        array.setflags(write=False)
    return idx, toy, real


def _sampled_bias(
    n: int,
    h: int,
    causal: bool,
    idx: np.ndarray,
    ctx: ComputeContext,
    dtype: type[np.floating[Any]] = np.float64,
) -> np.ndarray:
    """``alibi_bias`` on ``idx × idx`` for every head, in ``dtype``.

    The bias depends on ``i − j`` only, so on evenly spaced ``idx`` it is evaluated once
    per offset (as query ``i − j``, key 0) and laid out as Toeplitz matrices: read-only
    views holding exactly the values of the full evaluation (rounded to ``dtype``).
    """
    step = even_step(idx)
    if step is None:
        bias = alibi_bias(n, h, causal, rows=idx, cols=idx, backend=ctx.backend)
        return bias if bias.dtype == dtype else bias.astype(dtype)
    per_offset = alibi_bias(
        n,
        h,
        causal,
        rows=offsets(idx.size, step),
        cols=np.zeros(1, dtype=np.int64),
        backend=ctx.backend,
    )[:, :, 0]
    # kept in memory last offset first: the Toeplitz view reads the offsets backwards
    # along a row, so its rows then run forwards in memory (copying 8 tiles of 256 ×
    # 256 into the mosaic from a row read backwards took ~0.2 ms more a frame)
    backwards = np.ascontiguousarray(per_offset[:, ::-1], dtype=dtype)[:, ::-1]
    return toeplitz_view(backwards, idx.size)


def _tick_labels(
    idx: np.ndarray, offsets: list[int], middle: bool = True
) -> list[tuple[float, str]]:
    """Ticks at the first and last position of every tile starting at ``offsets`` (and
    its middle one with ``middle``), so each tile's range of positions can be read."""
    picks = sorted({0, len(idx) - 1} | ({(len(idx) - 1) // 2} if middle else set()))
    return [(float(o + k), str(int(idx[k]))) for o in offsets for k in picks]


def head_mosaic(
    bias: np.ndarray, slopes: np.ndarray, idx: np.ndarray, grid_cols: int
) -> tuple[np.ndarray, tuple[Tile, ...], int]:
    """All heads' (sampled) bias matrices as one image: a grid of tiles with NaN gaps,
    in ``bias``' dtype.

    Returns
    -------
    (image, tiles, gap)
        ``image[t.row0 + a, t.col0 + b] == bias[k, a, b]`` for tile ``t = tiles[k]``.
    """
    h, c = bias.shape[0], bias.shape[1]
    grid_rows = math.ceil(h / grid_cols)
    gap = max(1, c // 8)
    # every cell is written once: tiles from the bias, gaps and empty slots with NaN
    # (a NaN-filled image overwritten by the tiles wrote the whole image twice)
    image = np.empty((grid_rows * (c + gap) - gap, grid_cols * (c + gap) - gap), bias.dtype)
    tiles = []
    for k in range(grid_rows * grid_cols):
        r0, c0 = (k // grid_cols) * (c + gap), (k % grid_cols) * (c + gap)
        if k < h:
            image[r0 : r0 + c, c0 : c0 + c] = bias[k]
            tiles.append(
                Tile(f"head {k + 1}: m = {float(slopes[k]):.4g}", f"h{k + 1}", r0, c0, idx, idx)
            )
        else:
            image[r0 : r0 + c, c0 : c0 + c] = np.nan
    for start in range(c, image.shape[0], c + gap):  # gap rows, then gap columns
        image[start : start + gap, :] = np.nan
    for start in range(c, image.shape[1], c + gap):
        image[:, start : start + gap] = np.nan
    return image, tuple(tiles), gap


_Mosaic = tuple[np.ndarray, int, np.ndarray, tuple[Tile, ...], int, np.ndarray, np.ndarray]


def _mosaic(n: int, h: int, causal: bool, ctx: ComputeContext) -> _Mosaic:
    """The heads panel's data: ``(idx, stride, image, tiles, gap, x_coords, y_coords)``,
    the positions sampled to fit the display budget (:func:`head_mosaic`)."""
    grid_cols = math.ceil(math.sqrt(h))
    # tiles and their gaps (an eighth of a tile) fit in the display budget together
    cells = max(8, int(ctx.max_cells / (grid_cols + (grid_cols - 1) / 8)))
    idx, stride = sample_axis(n, cells)
    # only drawn: the mosaic in float32, as the heatmap draws it (the same colours; an
    # 832 × 832 stage mosaic is 2.8 MB instead of 5.5 MB to write here and for the GUI
    # to read, and the GUI converted it to float32 on every frame: ~0.5 ms of its CPU)
    dtype = np.float32 if ctx.for_display else np.float64
    bias = _sampled_bias(n, h, causal, idx, ctx, dtype)
    image, tiles, gap = head_mosaic(bias, head_table(h)[0], idx, grid_cols)
    return idx, stride, image, tiles, gap, np.arange(image.shape[1]), np.arange(image.shape[0])


@functools.lru_cache(maxsize=2)  # (a stage mosaic is up to ~4.8 MB: 1024 cells across)
def _kept_mosaic(n: int, h: int, causal: bool, ctx: ComputeContext) -> _Mosaic:
    """:func:`_mosaic` for the window's frames (``ctx.for_display``), read-only and kept
    for these inputs: it does not follow the head or the query, and a drag of those
    (lecture scene 15 sweeps the query) rebuilt it in the worker and handed the heatmap
    a new image, which the GUI then compared cell by cell with the one shown (the
    832 × 832 stage mosaic); the same arrays are recognised without a look."""
    kept = _mosaic(n, h, causal, ctx)
    for array in (kept[0], kept[2], kept[5], kept[6]):
        array.setflags(write=False)
    return kept


def distance_series(n: int, slopes: np.ndarray, head: int, max_points: int) -> list[Series]:
    """Bias against distance for every head (one NaN-separated series), the selected
    head (``head``, 1-based) and, when it is another one, the steepest head.

    The bias is linear in the distance, so the sampled points are exact and the lines
    between them too (no aliasing); the last distance ``n − 1`` is always included.
    """
    h = slopes.size

    def distances(budget: int) -> np.ndarray:
        idx, _ = sample_axis(n, max(budget - 1, 1))  # increasing, from 0, below n
        return (idx if idx[-1] == n - 1 else np.append(idx, n - 1)).astype(float)

    sel = distances(max_points // 4)
    out = []
    if h > 1:
        per_head = distances(max(2, max_points // (2 * h) - 1))
        # every head's line and a NaN after it, filled in place (one product for all
        # heads: the same values as a concatenation of each head's, without its calls)
        k = per_head.size
        lines_x, lines_y = np.empty((h, k + 1)), np.empty((h, k + 1))
        lines_x[:, :k] = per_head
        np.multiply(np.negative(slopes)[:, None], per_head, out=lines_y[:, :k])
        lines_x[:, k] = lines_y[:, k] = np.nan
        out.append(
            Series(
                f"all {h} heads (m = {slopes.min():.3g} … {slopes.max():.3g})",
                lines_x.ravel(),
                lines_y.ravel(),
                "dashed",
                straight=True,
            )
        )
    m = float(slopes[head - 1])
    name = f"head {head}: m = {m:.4g} (softmax row)"
    out.append(Series(name, sel, -m * sel, straight=True))
    steep = int(np.argmax(slopes))
    if steep != head - 1:
        ms = float(slopes[steep])
        steepest = f"steepest: head {steep + 1}, m = {ms:.4g}"
        out.append(Series(steepest, sel, -ms * sel, straight=True))
    return out


def row_keys(n: int, query: int, max_points: int) -> tuple[np.ndarray, str]:
    """Keys drawn in the softmax row: all of them, or a sample that always holds the
    query's own key and its neighbours (where ALiBi puts the weight), and a note."""
    if n <= max_points:
        return np.arange(n), ""
    w = max_points // 8
    grid, stride = sample_axis(n, max_points - (2 * w + 1))
    near = np.arange(max(query - w, 0), min(query + w, n - 1) + 1)
    keys = np.union1d(grid, near)
    return keys, (
        f"softmax row: keys sampled every {stride} of {n}, plus every key within ±{w} of "
        f"the query (j = {near[0]}..{near[-1]})"
    )


def sign_note(
    scores: np.ndarray,
    query: int,
    head: int,
    m: float,
    causal: bool,
    alibi_row: np.ndarray | None = None,
) -> str:
    """Why the sign of a key-index bias matters, with this row's numbers.

    ``alibi_row``: the row's causal ALiBi softmax, ``alibi_attention_row(scores, query,
    m, True)[1]``, when the caller has it (the view's own row, when causal: it is not
    computed a second time); ``None``: computed here.
    """
    if query < 1:
        return "the key-index shortcut +m·j (same causal softmax) vs −m·j: pick a query > 0"
    if alibi_row is None:
        alibi_row = alibi_attention_row(scores, query, m, True)[1]
    alibi = alibi_row[0]
    plus = key_index_bias_row(scores, query, m, +1.0)[0]
    minus = key_index_bias_row(scores, query, m, -1.0)[0]
    text = (
        f"row-constant bias, query {query}, head {head} (m = {m:.4g}), causal: weight on key 0 "
        f"is {approx_text(alibi)} with −m·(i−j), {approx_text(plus)} with +m·j (the same "
        f"softmax), but {approx_text(minus)} with −m·j, which reverses the preference towards the first keys"
    )
    return text if causal else text + " (without the causal mask, +m·j does not match −m·|i−j|)"


def course_toy_bias(n: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The course's ``scores + (-0.1 * torch.arange(n))`` bias: ``[i, j] = −0.1·j`` on
    ``rows × cols`` (broadcast over the query rows; the course's code has no mask)."""
    del n  # every row is the same: the bias only sees the key index
    return np.broadcast_to(
        -COURSE_TOY_SLOPE * np.asarray(cols, dtype=np.float64), (len(rows), len(cols))
    )


def course_panels(
    n: int,
    slopes: np.ndarray,
    head: int,
    query: int,
    causal: bool,
    ctx: ComputeContext,
    slots: list[tuple[int, int]],
) -> tuple[list[Panel], str]:
    """The course's toy on its own 8 × 8 example next to the selected head's real ALiBi
    bias on the same 8 positions (bottom row, at ``slots`` = ``[(col, col_span), (col,
    col_span)]``; they do not follow a seq_len drag), and a note comparing them along the
    view's query row."""
    del ctx  # 8 × 8: nothing to sample
    size = COURSE_TOY_SIZE
    m = float(slopes[head - 1])
    idx, toy, real = _course_arrays(slopes.size, head, causal)

    def probe(kind: str) -> Any:
        def read(x: float, y: float) -> str:
            i, j = int(round(y)), int(round(x))
            if not (0 <= i < size and 0 <= j < size):
                return ""
            if kind == "toy":
                return f"query i={i}, key j={j}: −0.1·j = {fmt_value(-COURSE_TOY_SLOPE * j + 0.0)}"
            v = -math.inf if causal and j > i else -m * (i - j if causal else abs(i - j))
            return f"head {head} (m = {m:.6g}), query i={i}, key j={j}: {fmt_value(v + 0.0)}"

        return read

    common: dict[str, Any] = {
        "x_coords": idx,
        "y_coords": idx,
        "colormap": "sequential",
        "value_label": "bias",
        "row": 2,
        "square": True,
    }
    panels = [
        Panel(
            "course",
            "Course toy (its 8 × 8 code): bias = −0.1·torch.arange(8), [i, j] = −0.1·j",
            "heatmap",
            "key j",
            "query i",
            image=toy,
            levels=(-COURSE_TOY_SLOPE * (size - 1), 0.0),
            probe=probe("toy"),
            note="every row is the same: no distance, no mask",
            col=slots[0][0],
            col_span=slots[0][1],
            **common,
        ),
        Panel(
            "real",
            f"Real ALiBi on the same 8 positions, head {head}: "
            + ("−m·(i − j), j ≤ i" if causal else "−m·|i − j|")
            + f", m = {m:.4g}",
            "heatmap",
            "key j",
            "query i",
            image=real,
            levels=(-m * (size - 1), 0.0),
            probe=probe("real"),
            col=slots[1][0],
            col_span=slots[1][1],
            **common,
        ),
    ]
    near = max(query - 1, 0)
    text = (
        f"course toy vs ALiBi, query {query}: the toy bias is highest at key 0 (0) and "
        f"lowest at key {n - 1} ({approx_text(-COURSE_TOY_SLOPE * (n - 1) + 0.0)}) for every query; "
        f"ALiBi head {head} is highest at the query itself and gives key {near} "
        f"{approx_text(-m * (query - near) + 0.0)} and key 0 {approx_text(-m * query + 0.0)}"
    )
    return panels, text


@functools.lru_cache(maxsize=64)
def _formula(h: int, causal: bool) -> tuple[str, str]:
    """The formula line of ``h`` heads (core.formula markup) and its plain text, kept:
    it does not follow seq_len, the head or the query (a drag of those parsed it anew
    on every frame)."""
    slopes = head_table(h)[0]
    steep = int(np.argmax(slopes))
    kind = "−m·(i−j) for j ≤ i, −∞ for j > i" if causal else "−m·|i−j|"
    formula = (  # core.formula markup; two spaces separate terms
        f"bias[h, i, j] = {kind};  m_h = 2^{{−8h/{h}}}"
        if h & (h - 1) == 0
        else f"bias[h, i, j] = {kind};  slopes by Press et al.'s rule for {h} heads"
    ) + (
        f"  → m_1 = {slopes[0]:.4g},  m_{{{h}}} = {slopes[-1]:.4g}"
        f",  steepest m_{{{steep + 1}}} = {slopes[steep]:.4g}"
    )
    return formula, plain_text(formula)


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the ALiBi view; per-head heatmaps are sampled to fit the grid."""
    n, h, causal = params["seq_len"], params["heads"], params["causal"]
    head = MODEL["head"].effective(params)
    query = MODEL["query"].effective(params)
    slopes, numbers = head_table(h)
    grid_cols = math.ceil(math.sqrt(h))
    grid_rows = math.ceil(h / grid_cols)
    mosaic = _kept_mosaic if ctx.for_display else _mosaic
    idx, stride, image, tiles, gap, x_coords, y_coords = mosaic(n, h, causal, ctx)
    steep = int(np.argmax(slopes))  # not head 1 for head counts that are not powers of two
    lo = -float(slopes[steep]) * (n - 1)
    notes = [t for t in [sampled_note("positions", n, stride)] if t]
    size = len(idx) + gap

    def probe(x: float, y: float) -> str:
        col, row = int(round(x)), int(round(y))
        if col < 0 or row < 0 or col % size >= len(idx) or row % size >= len(idx):
            return ""
        k = (row // size) * grid_cols + col // size
        if k >= h or col // size >= grid_cols:
            return ""
        i, j, m = int(idx[row % size]), int(idx[col % size]), float(slopes[k])
        v = -math.inf if causal and j > i else -m * (abs(i - j) if not causal else i - j)
        return f"head {k + 1} (m = {m:.6g}), query i={i}, key j={j}: {fmt_value(v + 0.0)}"

    # One image for all heads: one plot to lay out and paint instead of one per head.
    panels: list[Panel] = [
        Panel(
            "heads",
            f"Bias of every head ({h} heads)",
            "heatmap",
            "key j",
            "query i",
            image=image,
            x_coords=x_coords,
            y_coords=y_coords,
            colormap="sequential",
            levels=(lo, 0.0),
            value_label="bias",
            probe=probe,
            tiles=tiles,
            x_ticks=_tick_labels(idx, [c * size for c in range(grid_cols)], middle=grid_cols <= 3),
            y_ticks=_tick_labels(idx, [r * size for r in range(grid_rows)]),
            row=0,
            col=0,
            row_span=2,
            col_span=max(grid_cols, 5),
        )
    ]
    total_cols = max(grid_cols, 5)
    base, extra = divmod(total_cols, 5)  # five bottom panels share the columns
    widths = [base + (1 if k < extra else 0) for k in range(5)]
    starts = [sum(widths[:k]) for k in range(5)]
    slots = list(zip(starts, widths, strict=True))
    bottom: dict[str, Any] = {"row": 2, "row_span": 1}
    profile = distance_series(n, slopes, head, ctx.max_points)
    scores = toy_scores(n)
    m_sel = float(slopes[head - 1])
    without, with_bias = alibi_attention_row(scores, query, m_sel, causal)
    toy_row = key_index_bias_row(scores, query, COURSE_TOY_SLOPE, -1.0, causal)
    j_idx, row_note = row_keys(n, query, ctx.max_points)
    tag = " (keys sampled)" if row_note else ""
    row_sign = sign_note(scores, query, head, m_sel, causal, with_bias if causal else None)
    notes.append(row_sign)
    panels += [
        Panel(
            "slopes",
            "Slope m_h per head",
            "bars",
            "head h",
            "slope m_h",
            series=[Series("m_h", numbers, slopes)],
            col=slots[0][0],
            col_span=slots[0][1],
            **bottom,
        ),
        Panel(
            "distance",
            f"Bias vs distance i − j: all {h} heads, head {head} highlighted"
            if h > 1
            else "Bias vs distance i − j",
            "curves",
            "distance i − j",
            "bias",
            series=profile,
            col=slots[1][0],
            col_span=slots[1][1],
            **bottom,
        ),
        Panel(
            "row",
            f"Softmax row of query {query}, head {head} (toy scores)",
            "curves",
            "key j",
            "attention weight",
            series=[
                Series("without bias" + tag, j_idx.astype(float), without[j_idx], "step"),
                Series("with ALiBi" + tag, j_idx.astype(float), with_bias[j_idx], "step"),
                Series("with course toy −0.1·j" + tag, j_idx.astype(float), toy_row[j_idx], "step"),
            ],
            note=row_note,
            col=slots[2][0],
            col_span=slots[2][1],
            **bottom,
        ),
    ]
    toy_panels, toy_note = course_panels(n, slopes, head, query, causal, ctx, slots[3:])
    about = {row_sign: ("row",), toy_note: ("course", "real")}  # a stage shows them with these
    panels += toy_panels
    notes.append(toy_note)
    formula, plain = _formula(h, causal)
    return ViewData(
        "alibi",
        dict(params),
        panels,
        plain,
        notes=notes,
        formula_markup=formula,
        note_panels=about,
    )


def export(params: Mapping[str, Any]) -> ExportData:
    """The full (heads, seq_len, seq_len) bias (−inf above the diagonal when causal)."""
    n, h = params["seq_len"], params["heads"]
    check_allocation("ALiBi bias tensor", (h, n, n), copies=3)
    return ExportData(
        "bias",
        alibi_bias(n, h, params["causal"]),
        ("head", "query i", "key j"),
        "ALiBi bias (heads, seq_len, seq_len); −inf above the diagonal if causal",
    )


SPEC = ViewSpec(
    "alibi",
    "ALiBi",
    MODEL,
    EXPLANATION,
    compute,
    export,
    "(heads, seq_len, seq_len) float64 bias; [h, i, j] = −m_h·(i−j), −inf for "
    "j > i when causal; −m_h·|i−j| otherwise",
)
