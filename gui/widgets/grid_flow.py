"""How many plot columns fit, and how a view's panel grid flows into fewer of them.

A view lays its panels out in a grid (``Panel.row``, ``col`` and spans) meant for a
wide window at 100 %. At a larger UI scale or in a narrower window the same grid gives
plots too small to read, so the grid drops to fewer columns (:func:`columns_for`) and
its panels flow into them (:func:`flow_grid`): the grid's columns are cut into blocks
as wide as the columns that fit, and the blocks are stacked, so small multiples (Word
order's 3 × 3 matrix, the clock's hands) keep their rows together. A panel as wide as
the whole grid (ALiBi's mosaic, Compare's table) stays as wide as the new grid. A
single column takes the panels in reading order. A column whose small grid needs more
width for its indices and values than the others (Word order's 3 x 16 differences
beside its 3 x 3 matrices) is made wider than them (:func:`weighted_widths`) before the
grid drops to fewer columns (:func:`fits_columns`). Nothing here draws.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping

Position = tuple[int, int, int, int]  # row, column, row span, column span

MIN_PANEL_WIDTH = 240  # px at 100 %: the narrowest plot whose title and ticks read well
MIN_PANEL_HEIGHT = 180  # px at 100 %: the lowest one (title, data, axis)
PRESENT_WIDTH_FACTOR = 1.25  # presenting, a plot needs more room: fewer, larger columns


def min_panel_size(scale: float, presenting: bool = False) -> tuple[float, float]:
    """The smallest legible plot, in pixels, at UI ``scale`` (1.0 = 100 %)."""
    width = MIN_PANEL_WIDTH * scale * (PRESENT_WIDTH_FACTOR if presenting else 1.0)
    return width, MIN_PANEL_HEIGHT * scale


def grid_shape(count: int, max_cols: int = 3) -> tuple[int, int]:
    """Rows and columns of the grid that lays out ``count`` chosen panels (1–3 in a row,
    4 as 2 × 2, then three columns; never more than ``max_cols``, the columns that fit)."""
    cols = max(count, 1) if count <= 3 else 2 if count == 4 else 3
    cols = max(1, min(cols, max_cols))
    return math.ceil(count / cols), cols


def grid_columns(positions: Mapping[str, Position]) -> int:
    """Number of columns of a panel grid (at least 1)."""
    return max((col + cs for _r, col, _rs, cs in positions.values()), default=1)


def columns_for(width: float, grid: int, min_width: float) -> int:
    """How many of a grid's ``grid`` columns fit into ``width`` pixels with every column
    at least ``min_width`` wide (at least 1, at most ``grid``)."""
    if min_width <= 0:
        return max(grid, 1)
    return max(1, min(grid, int(width // min_width)))


def column_needs(
    positions: Mapping[str, Position], need: Mapping[str, float], floor: float = 0.0
) -> list[float]:
    """The width (px) each column of a laid-out grid needs: ``floor`` (the smallest
    legible plot), or more where a panel in it needs more (``need``, key → the plot
    width it needs; a panel spanning columns shares its need among them)."""
    out = [floor] * grid_columns(positions)
    for key, (_r, col, _rs, cs) in positions.items():
        share = need.get(key, 0.0) / max(cs, 1)
        for c in range(col, col + max(cs, 1)):
            out[c] = max(out[c], share)
    return out


def fits_columns(
    positions: Mapping[str, Position],
    need: Mapping[str, float],
    columns: int,
    room: float,
    gap: float,
    floor: float,
    alike: Collection[str] | None = None,
) -> bool:
    """Whether ``positions`` flowed into ``columns`` columns (:func:`flow_grid`) fit
    ``room`` px (the gaps between columns, ``gap`` each, left out) with every column
    as wide as the widest need in it (:func:`column_needs`): in equal columns or in
    columns weighted by their needs (:func:`weighted_widths`, ``alike`` as there: the
    panels that must stay alike in a row, as the columns are then weighted). Word order's
    A | B | out_B - out_A rows on stage at 1920 x 1080 / 150 %: the 3 x 3 grids need
    the smallest plot (450 px), the 3 x 16 differences 638 px for their values; in
    equal columns they took two columns of 935 px, the rows broken up."""
    where = flow_grid(positions, columns)
    needs = column_needs(where, need)
    free = room - gap * (len(needs) - 1)
    if max(needs, default=0.0) * len(needs) <= free:  # equal columns do
        return True
    return weighted_widths(where, need, free, floor, alike=alike) is not None


def keeps_rows(positions: Mapping[str, Position], columns: int) -> bool:
    """Whether ``positions`` flowed into ``columns`` columns (:func:`flow_grid`) keep
    each row of the grid in one row: the panels that start a row together still do
    (a :func:`side_column` beside the rows left out). Word order in two columns put
    each condition's out_B - out_A grid rows below its A and B matrices."""
    where = flow_grid(positions, columns)
    side = side_column(positions)
    rows: dict[int, set[int]] = {}
    for key, (row, _c, _rs, _cs) in positions.items():
        if key not in side:
            rows.setdefault(row, set()).add(where[key][0])
    return all(len(now) == 1 for now in rows.values())


def weighted_widths(
    positions: Mapping[str, Position],
    need: Mapping[str, float],
    room: float,
    floor: float,
    *,
    least: float | None = None,
    alike: Collection[str] | None = None,
) -> list[float] | None:
    """Widths (px) for the columns of a laid-out grid that share ``room`` px (gaps left
    out) in proportion to their needs (:func:`column_needs`, at least ``floor``), so
    that a column whose panels need more (a 16-column grid's values) is wider than one
    that needs only the smallest plot (a 3 x 3 grid's). ``None`` (equal columns) when
    the columns need the same, when their needs do not fit, or when a row's panels
    that need no more than ``floor`` would differ in width (A's and B's matrices in
    one row, the differences in another: the matrices stay alike). ``None`` too when
    equal columns give each its need (ALiBi's course grid beside three plots keeps
    its equal column).

    ``least``: where the needs do not fit with every other column at ``floor``, the
    columns that need no more than the floor share what the others leave, each at
    least ``least`` px (on stage, the window's smallest plot) and its own need, and the
    others get their needs. ``alike``: the keys of the panels that must stay alike in a row (``None``:
    all; curves beside each other may differ). Relative on stage at 1920 x 1080 /
    150 %: its grids' 540 + 421 + 467 px beside the 450 px bucket plot did not fit
    1851 px, and DeBERTa's two curves below (in the T5 grid's column and the bucket
    plot's) had to stay alike: equal columns, the course grid width-bound at 9 pt."""
    needs = column_needs(positions, need, floor)
    total = sum(needs)
    if len(needs) < 2 or max(needs) * len(needs) <= room:
        return None
    if total <= room:
        widths = [room * n / total for n in needs]
    else:
        plain = [c for c, n in enumerate(needs) if n <= floor]
        share = (room - sum(n for n in needs if n > floor)) / max(len(plain), 1)
        own = column_needs(positions, need)  # (a grid needing less than the floor)
        if least is None or not plain or share < max(least, *(own[c] for c in plain)):
            return None
        widths = [share if n <= floor else n for n in needs]
    # alike in a row: the panels that need no more than the floor, and the grids
    # among ``alike`` that need the same (Word order's 9 x 9 matrices of A and B with
    # a 9-word sentence, each needing 646 px on stage at 200 %: A's column, shared
    # with the differences below, was 1069 px wide, B's 787)
    rows: dict[tuple[int, float | None], list[float]] = {}
    for key, (row, col, rs, cs) in positions.items():
        wanted = need.get(key, 0.0)
        if cs != 1 or not (alike is None or key in alike):
            continue
        if wanted <= floor:
            group: float | None = None
        elif alike is not None:
            group = round(wanted, 1)
        else:
            continue
        for r in range(row, row + rs):
            rows.setdefault((r, group), []).append(widths[col])
    if any(max(w) - min(w) > 1.0 for w in rows.values()):
        return None
    return widths


def side_column(positions: Mapping[str, Position]) -> set[str]:
    """The keys of a grid's last column when it stands beside the others rather than
    continuing their rows: a column of its own (nothing else reaches it) in which a
    panel spans rows that the panels beside it do not (Word order's layer plots, two
    rows tall beside its one-row conditions). Empty for a last column that follows the
    rows (RoPE's, the clock's hands). Stacked in one column, Word order's layer plot
    came between the no-positions row and the causal-mask one."""
    grid = grid_columns(positions)
    if grid < 2:
        return set()
    last = grid - 1
    side = {k: p for k, p in positions.items() if p[1] == last}
    rest = {k: p for k, p in positions.items() if p[1] != last}
    if not side or not rest or any(p[1] + p[3] > last for p in rest.values()):
        return set()
    rows = {(p[0], p[2]) for p in rest.values()}
    if all((p[0], p[2]) in rows for p in side.values()):
        return set()
    return set(side)


def flow_grid(positions: Mapping[str, Position], columns: int) -> dict[str, Position]:
    """``positions`` (key → row, column, spans) laid out anew in ``columns`` columns.

    Unchanged when the grid has no more columns than that. Otherwise the grid is cut
    into horizontal bands (a panel spanning every column is a band of its own; the rows
    between such panels are one band), each band into blocks of ``columns`` columns, and
    the blocks are stacked top to bottom, each keeping only the rows it uses. A panel
    reaching past its block is cut to the block; a last, narrower block is stretched
    over the columns when they are a multiple of its width, and a last block of one
    column with no more panels than columns becomes one row, its panels side by side.
    ``columns == 1`` stacks the panels in reading order (row, then column), a
    :func:`side_column` after the rest.
    """
    grid = grid_columns(positions)
    if columns >= grid or not positions:
        return dict(positions)
    columns = max(columns, 1)
    if columns == 1:
        out: dict[str, Position] = {}
        cursor = 0
        side = side_column(positions)
        for key, (_r, _c, rs, _cs) in sorted(
            positions.items(), key=lambda kv: (kv[0] in side, kv[1][:2])
        ):
            out[key] = (cursor, 0, rs, 1)
            cursor += rs
        return out
    full = sorted(
        ((k, p) for k, p in positions.items() if p[1] == 0 and p[3] >= grid),
        key=lambda kv: kv[1][0],
    )
    starts = [pos[0] for _k, pos in full]
    groups: list[dict[str, Position]] = [{} for _ in range(len(full) + 1)]
    for key, pos in positions.items():
        if pos[1] == 0 and pos[3] >= grid:
            continue
        groups[sum(1 for s in starts if s <= pos[0])][key] = pos  # full-width ones above
    # bands top to bottom: the panels above the first full-width panel, that panel, ...
    bands: list[dict[str, Position]] = [groups[0]]
    for (key, pos), group in zip(full, groups[1:], strict=True):
        bands += [{key: pos}, group]
    out = {}
    cursor = 0
    wide = {key for key, _pos in full}
    for members in bands:
        if len(members) == 1 and next(iter(members)) in wide:
            key, (_r, _c, rs, _cs) = next(iter(members.items()))
            out[key] = (cursor, 0, rs, columns)
            cursor += rs
            continue
        for start in range(0, grid, columns):
            block = {k: p for k, p in members.items() if start <= p[1] < start + columns}
            if not block:
                continue
            width = min(columns, grid - start)
            if width == 1 and 1 < len(block) <= columns:
                # a last single column (Word order's layer plots, the clock's slow hands)
                # reads left to right in one row rather than stacked at full width:
                # one row of the stage instead of one per panel (or two for a panel
                # that spanned two rows beside the grid)
                ordered = sorted(block, key=lambda k: block[k][0])
                share, extra = divmod(columns, len(ordered))
                col = 0
                for i, key in enumerate(ordered):  # the first ones take what is left over
                    span = share + (1 if i < extra else 0)
                    out[key] = (cursor, col, 1, span)
                    col += span
                cursor += 1
                continue
            stretch = columns // width if columns % width == 0 else 1
            rows = sorted({r for p in block.values() for r in range(p[0], p[0] + p[2])})
            new_row = {r: i for i, r in enumerate(rows)}
            for key, (row, col, rs, cs) in block.items():
                cs = min(cs, start + width - col)
                out[key] = (cursor + new_row[row], (col - start) * stretch, rs, cs * stretch)
            cursor += len(rows)
    return out


def balance_rows(
    need: Mapping[int, float],
    overhead: Mapping[int, float],
    height: float,
    caps: Mapping[int, float] | None = None,
) -> dict[int, float]:
    """Heights for a grid's rows that share ``height`` px so that their data areas are
    as large as possible and equal.

    ``need`` is each row's smallest height (its legible plot, legend, title, table);
    ``overhead`` what a row takes besides its data (the largest of its plots' title,
    legend strip and axes; a plot spanning rows counts its share in each). A row with
    no overhead (a table's alone) keeps its need. The others get the same data height
    ``d``, ``overhead + d``, where that is at least their need: the largest ``d`` for
    which all rows fit ``height``. Each row keeps at least its need (with less
    ``height`` than the needs the rows are their needs, and the view scrolls). A row
    with a cap in ``caps`` (matrices no taller than their width allows) is at most its
    cap (and at least its need): the height it cannot use goes to the others.

    >>> balance_rows({0: 100, 1: 100}, {0: 50, 1: 50}, 600, {0: 200})
    {0: 200, 1: 400.0}
    """
    heights = dict(need)
    flexible = [r for r in need if r in overhead]
    if not flexible:
        return heights
    caps = caps or {}
    fixed = sum(h for r, h in need.items() if r not in overhead)
    low = {r: need[r] for r in flexible}
    high = {r: max(caps[r], need[r]) if r in caps else math.inf for r in flexible}

    def total(data: float) -> float:
        return fixed + sum(min(max(overhead[r] + data, low[r]), high[r]) for r in flexible)

    # the rows' heights are piecewise linear in the shared data height: find where
    # they add up to ``height`` between the points where a row meets its need or cap
    points = sorted(
        {low[r] - overhead[r] for r in flexible}
        | {high[r] - overhead[r] for r in flexible if high[r] < math.inf}
    )
    data = points[0]
    if total(data) < height:
        for before, after in zip(points, points[1:], strict=False):
            if total(after) >= height:
                slope = (total(after) - total(before)) / (after - before)
                data = before + (height - total(before)) / slope
                break
        else:
            last = points[-1]
            free = sum(1 for r in flexible if high[r] == math.inf)
            data = last + (height - total(last)) / free if free else last
    for r in flexible:
        heights[r] = min(max(overhead[r] + data, low[r]), high[r])
    return heights
    caps = caps or {}
    fixed = {r for r in need if r not in flexible}
    while flexible:
        room = height - sum(heights[r] for r in fixed)
        data = (room - sum(overhead[r] for r in flexible)) / len(flexible)
        held = {r for r in flexible if need[r] > overhead[r] + data}
        capped = {
            r for r in flexible - held if r in caps and overhead[r] + data > max(caps[r], need[r])
        }
        if not held and not capped:
            for r in flexible:
                heights[r] = overhead[r] + data
            break
        for r in capped:  # (a capped row is also held at its need: never below it)
            heights[r] = max(caps[r], need[r])
        fixed |= held | capped  # these keep their need or cap; the rest share the rest
        flexible -= held | capped
    return heights
    fixed = {r for r in need if r not in flexible}
    while flexible:
        room = height - sum(need[r] for r in fixed)
        data = (room - sum(overhead[r] for r in flexible)) / len(flexible)
        held = {r for r in flexible if need[r] > overhead[r] + data}
        if not held:
            for r in flexible:
                heights[r] = overhead[r] + data
            break
        fixed |= held  # these keep their need; the rest share what is left
        flexible -= held
    return heights
