"""RoPE clock: q and k turning in their rotation planes as positions advance.

The positions are real numbers (``m``, ``n`` and a common ``shift``), so an animation of
any of them moves the hands continuously. One pair is drawn large, with the trail of
both tips, the arc of the angle (m − n)·θ between them and q·k as the projection of q
onto k; next to it several pairs, from the fastest to the slowest, are clock hands
turning at their own speeds θ_i (fast pairs wrap around, slow pairs creep). The
frequencies are the RoPE view's (:func:`core.views.rope.frequencies`, with the selected
context scaling).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from core.formula import approx, approx_text, number, plain_text
from core.params import Param, ParamModel
from core.viewdata import (
    Arrow,
    ComputeContext,
    ExportData,
    Label,
    Panel,
    Series,
    ViewData,
    ViewSpec,
)
from core.views import rope as rope_view

# The frequency parameters are the RoPE view's own (same names, ranges and help).
_ROPE_PARAMS = (
    "head_dim",
    "base",
    "scaling",
    "factor",
    "original_max_position_embeddings",
    "partial_rotary_factor",
    "beta_fast",
    "beta_slow",
    "low_freq_factor",
    "high_freq_factor",
)
TRAIL_SEGMENTS = 5  # a trail fades in this many steps, oldest faintest
CIRCLE_POINTS = 96  # points per full turn of a drawn trail or arc
Q, K, ARC, DOT = 0, 1, 2, 5  # palette indices: q, k, the angle, the projection

MODEL = ParamModel(
    "clock",
    "RoPE clock",
    (
        Param(
            "m",
            "float",
            2.0,
            "Query position m",
            "Position of the query; any real number, so an animation turns q smoothly.",
            0.0,
            100_000.0,
            0.1,
            decimals=3,
        ),
        Param(
            "n",
            "float",
            1.0,
            "Key position n",
            "Position of the key.",
            0.0,
            100_000.0,
            0.1,
            decimals=3,
        ),
        Param(
            "shift",
            "float",
            0.0,
            "Shift both by s",
            "Adds s to both positions: q and k turn together and the angle (m − n)·θ "
            "between them, hence the score, stays the same.",
            0.0,
            100_000.0,
            0.1,
            decimals=3,
        ),
        Param(
            "pair",
            "int",
            0,
            "Pair drawn large",
            "Rotation pair i drawn with its angle and projection (clamped to d_rot/2 − 1).",
            0,
            511,
            1,
            limit=rope_view.last_pair,
        ),
        Param(
            "hands",
            "int",
            4,
            "Clock hands",
            "How many pairs turn side by side, spread from the fastest (pair 0) to the "
            "slowest (the last pair).",
            1,
            8,
            1,
        ),
        Param(
            "trail",
            "float",
            2.0,
            "Trail (positions)",
            "How far back each tip's fading trail reaches, in positions.",
            0.0,
            64.0,
            0.5,
        ),
        *(rope_view.MODEL[name] for name in _ROPE_PARAMS[:2]),
        Param(
            "seq_len",
            "int",
            256,
            "Current length",
            "The current sequence length: dynamic NTK raises the base once it exceeds "
            "the original context.",
            2,
            1_048_576,
            1,
        ),
        *(rope_view.MODEL[name] for name in _ROPE_PARAMS[2:]),
    ),
)

EXPLANATION = (
    "RoPE turns each pair of query and key dimensions like the hand of a clock: by p·θ_i "
    "at position p. q at m and k at n are hands at angles m·θ and n·θ; their dot product "
    "is the length of q's shadow on k, cos((m − n)·θ) for unit vectors, so it depends only "
    "on the angle (m − n)·θ between them. Shift both positions by the same s and both hands "
    "turn by s·θ: the angle and the score stay. Each pair has its own speed θ_i = "
    "base^(−2i/d): the fast pairs spin round many times within a few tokens, the slow ones "
    "barely move over the whole context; context scaling slows some of them further."
)


def hand_pairs(half: int, hands: int) -> list[int]:
    """``hands`` pair indices (at most ``half``) spread geometrically from pair 0 (fastest)
    to pair ``half − 1`` (slowest), increasing and distinct."""
    count = max(1, min(int(hands), int(half)))
    if count == 1:
        return [0]
    picked = np.round(np.geomspace(1, half, count)).astype(int) - 1
    if len(set(picked.tolist())) < count:  # too few pairs for distinct geometric steps
        picked = np.round(np.linspace(0, half - 1, count)).astype(int)
    return sorted(set(picked.tolist()))


def positions(params: Mapping[str, Any]) -> tuple[float, float]:
    """``(m + s, n + s)``: where q and k are after the common shift ``s``."""
    s = float(params["shift"])
    return float(params["m"]) + s, float(params["n"]) + s


def wrapped(angle: float) -> float:
    """``angle`` wrapped to (−π, π] (the atan2 of its cos and sin)."""
    return math.atan2(math.sin(angle), math.cos(angle))


def _arc(a0: float, sweep: float, radius: float) -> tuple[np.ndarray, np.ndarray]:
    count = max(2, math.ceil(abs(sweep) / (2 * math.pi) * CIRCLE_POINTS) + 1)
    t = a0 + np.linspace(0.0, sweep, count)
    return radius * np.cos(t), radius * np.sin(t)


def trail_series(
    name: str, p: float, theta: float, trail: float, radius: float, color: int
) -> list[Series]:
    """The path of a tip from position ``p − trail`` to ``p`` (angles ``p·θ``) at
    ``radius``, as :data:`TRAIL_SEGMENTS` pieces fading from old (faint) to new.

    The pieces are the rows of one array, computed in one pass (each piece's points
    are :func:`_arc`'s for its start and sweep: the same values); a drawing may keep
    them together."""
    if trail <= 0:
        return []
    return [
        Series(f"{name} trail", x, y, color=color, opacity=0.12 + 0.6 * j / TRAIL_SEGMENTS)
        for j, (x, y) in enumerate(_trail_pieces(p, theta, trail, radius))
    ]


@functools.lru_cache(maxsize=64)
def _trail_pieces(
    p: float, theta: float, trail: float, radius: float
) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """:func:`trail_series`' pieces' points, kept per position, speed, trail and radius
    (read-only): a drag of m leaves k's trails where they were, and the frame gets the
    same arrays, which the plots see unchanged at a glance (their identity; compared
    value by value, ~25 pairs of arrays a frame)."""
    # at most ~2 turns are drawn: a longer trail would only paint the circle over
    span = min(trail * theta, 2 * 2 * math.pi)
    sweep = span / TRAIL_SEGMENTS
    count = max(2, math.ceil(abs(sweep) / (2 * math.pi) * CIRCLE_POINTS) + 1)
    starts = np.array([p * theta - span * (1 - j / TRAIL_SEGMENTS) for j in range(TRAIL_SEGMENTS)])
    t = starts[:, None] + np.linspace(0.0, sweep, count)
    xs, ys = radius * np.cos(t), radius * np.sin(t)
    xs.flags.writeable = ys.flags.writeable = False  # shared by frames: nobody may write
    return tuple((xs[j], ys[j]) for j in range(TRAIL_SEGMENTS))


def _radians(angle: float) -> str:
    """An angle in radians to four significant digits, its whole part always whole: at
    m = 99999.5 the title read "(99999.5 − 1)·1 = 1e+05 rad" (``.4g``).

    >>> _radians(1.0), _radians(0.56234), _radians(99998.5), _radians(-3.2e-05)
    ('1', '0.5623', '99998.5', '-3.2·10⁻⁵')
    """
    whole = len(str(int(abs(angle))))
    return approx_text(angle, max(4, whole + 1))


UNIT_SPACE = "\u202f"  # (narrow, no break) between a number and its unit: kept on one line


def _turns(angle: float) -> str:
    """An angle as whole and part turns from one turn on (the noun agreeing with the
    number shown: pair 2 at s = 9.2 read "q: 1 turns"), in degrees below.

    >>> _turns(math.pi), _turns(2 * math.pi + 0.01), _turns(-2 * math.pi), _turns(11.2)
    ('180.0°', '1\u202fturn', '-1\u202fturn', '1.78\u202fturns')
    """
    turns = angle / (2 * math.pi)
    if abs(turns) < 1:
        return f"{math.degrees(angle):.1f}°"
    number = approx_text(turns)
    noun = "turn" if number.lstrip("-−") == "1" else "turns"
    return f"{number}{UNIT_SPACE}{noun}"


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the clock at positions ``m + shift`` and ``n + shift``."""
    d_rot, snapped = rope_view.rotary_width(params)
    half = d_rot // 2
    inv, af = rope_view.frequencies(params)
    notes = [snapped] if snapped else []
    pair = MODEL["pair"].effective(params)
    if pair != params["pair"]:
        notes.append(f"pair {params['pair']} clamped to {pair} (d_rot/2 − 1 = {half - 1})")
    if af != 1.0:
        notes.append(f"YaRN's attention factor {af:.4g} scales q and k; drawn at unit length")
    pq, pk = positions(params)
    m, n, shift, trail = params["m"], params["n"], params["shift"], params["trail"]
    theta = float(inv[pair])
    aq, ak = pq * theta, pk * theta
    delta = (m - n) * theta
    dw = wrapped(delta)
    dot = math.cos(delta)

    series = [
        *trail_series("k", pk, theta, trail, 0.94, K),
        *trail_series("q", pq, theta, trail, 1.0, Q),
    ]
    arc_x, arc_y = _arc(ak, dw, 0.3)
    series.append(Series("angle (m − n)·θ", arc_x, arc_y, color=ARC))
    kx, ky = math.cos(ak), math.sin(ak)
    px, py = dot * kx, dot * ky  # the projection of q onto k
    series.append(
        Series(
            "q's shadow on k",
            np.array([math.cos(aq), px]),
            np.array([math.sin(aq), py]),
            "dashed",
            color=DOT,
        )
    )
    series.append(Series("q·k", np.array([0.0, px]), np.array([0.0, py]), color=DOT))
    mid = ak + dw / 2
    # q·k beside its line on q's side, in the triangle of q, its shadow and q·k (on
    # k's left side it sat outside the angle whenever q was clockwise of k); both
    # texts in their wedge where they fit (the angle's, and the triangle's at 0)
    # (half the triangle's height there, at most 0.25: in it at narrow angles too)
    side = min(0.25, abs(math.sin(dw)) / 4) * (1.0 if dw >= 0 else -1.0)
    along = ak if dot >= 0 else ak + math.pi  # q·k's direction
    labels = [
        Label(
            f"{math.degrees(dw):+.1f}°",
            0.45 * math.cos(mid),
            0.45 * math.sin(mid),
            ARC,
            wedge=(ak, dw),
            wedge_first=True,
        ),
        Label(
            f"q·k = {dot:+.3f}",
            px * 0.5 - side * ky,
            py * 0.5 + side * kx,
            DOT,
            wedge=(along, wrapped(aq - along)),
        ),
        # texts that follow the positions are labels: an axis title would re-lay out the
        # plot on every frame of an animation. They name no point of the plane: in the
        # strip above it (below the circle they covered q's and k's heads on stage)
        Label(
            f"q at (m + s)·θ = {_radians(aq)}{UNIT_SPACE}rad ({_turns(aq)})",
            0.0,
            0.0,
            Q,
            strip=True,
        ),
        Label(
            f"k at (n + s)·θ = {_radians(ak)}{UNIT_SPACE}rad ({_turns(ak)})",
            0.0,
            0.0,
            K,
            strip=True,
        ),
    ]
    # the title names the plane and stays put while m or n is dragged; the angle's
    # arithmetic, new on every frame, is the plane's note (the notes line under the
    # plots), the formula line's and, wrapped, its wedge's. As the title it re-wrapped
    # (two or three lines on the stage) and re-laid out the plot on every frame of a
    # drag (~1 ms of a stage frame) and said what the notes line said under it.
    theta_text = approx_text(theta, 4)
    plane = Panel(
        "plane",
        f"Pair {pair}, θ = {theta_text}: angle (m − n)·θ",
        "arrows",
        "",
        "",
        series=series,
        arrows=[Arrow(f"q (m={pq:g})", math.cos(aq), math.sin(aq)), Arrow(f"k (n={pk:g})", kx, ky)],
        labels=labels,
        note=(
            f"({m:g} − {n:g})·{theta_text} = {_radians(delta)} rad → {math.degrees(dw):+.1f}°; "
            f"q·k = cos((m − n)·θ) = {dot:+.4f} for unit q, k: the length of q's shadow on k"
        ),
        row=0,
        col=0,
    )
    picked = hand_pairs(half, params["hands"])
    cols = math.ceil(len(picked) / 2) if len(picked) > 1 else 1
    plane.row_span, plane.col_span = (2 if len(picked) > 1 else 1), cols
    panels = [plane]
    for j, i in enumerate(picked):
        th = float(inv[i])
        hq, hk = pq * th, pk * th
        wavelength = 2 * math.pi / th
        hand_series = [
            *trail_series("k", pk, th, trail, 0.94, K),
            *trail_series("q", pq, th, trail, 1.0, Q),
        ]
        hx, hy = _arc(hk, wrapped((m - n) * th), 0.3)
        hand_series.append(Series("angle", hx, hy, color=ARC))
        panels.append(
            Panel(
                f"hand{j}",
                f"pair {i}: θ = {approx_text(th)}, one turn per {approx_text(wavelength)} positions",
                "arrows",
                "",
                "",
                series=hand_series,
                labels=[Label(f"q: {_turns(hq)}", 0.0, 0.0, Q, strip=True)],
                arrows=[
                    Arrow("q", math.cos(hq), math.sin(hq)),
                    Arrow("k", math.cos(hk), math.sin(hk)),
                ],
                x_axis=False,
                y_axis=False,
                row=j % 2 if len(picked) > 1 else 0,
                col=cols + j // 2 if len(picked) > 1 else 1,
            )
        )
    scale_txt = "" if params["scaling"] == "none" else f" ({params['scaling']} scaling)"
    formula = (  # core.formula markup; two spaces separate terms
        f"q at (m + s)·θ_i,  k at (n + s)·θ_i,  θ_i = {number(params['base'])}^{{−2i/{d_rot}}}"
        f"{scale_txt};  s = {number(shift)} cancels:  angle (m − n)·θ_{{{pair}}} = "
        f"{number(m - n)}·{approx(theta, 6)} = {approx(delta, 6)} rad;  "
        f"q·k = cos({approx(delta, 6)}) = {dot:.6f}"
    )
    return ViewData(
        "clock", dict(params), panels, plain_text(formula), notes=notes, formula_markup=formula
    )


def export(params: Mapping[str, Any]) -> ExportData:
    """Per clock hand: ``[pair i, θ_i, (m + s)·θ_i, (n + s)·θ_i]`` (angles not wrapped)."""
    d_rot, _ = rope_view.rotary_width(params)
    inv, _ = rope_view.frequencies(params)
    pq, pk = positions(params)
    pairs = hand_pairs(d_rot // 2, params["hands"])
    rows = [[float(i), float(inv[i]), pq * float(inv[i]), pk * float(inv[i])] for i in pairs]
    return ExportData(
        "hands",
        np.array(rows, dtype=np.float64),
        ("hand", "pair i | θ_i | q angle | k angle"),
        "RoPE clock hands: pair index, θ_i, (m + s)·θ_i and (n + s)·θ_i in radians",
    )


SPEC = ViewSpec(
    "clock",
    "RoPE clock",
    MODEL,
    EXPLANATION,
    compute,
    export,
    "(hands, 4) float64 rows [pair i, θ_i, (m + s)·θ_i, (n + s)·θ_i], radians, not wrapped, "
    "selected scaling applied",
)
