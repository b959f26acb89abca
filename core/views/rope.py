"""RoPE view: one rotation pair as arrows, frequencies with scalings, score vs offset, decay."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from core.formula import plain_text
from core.memory import check_allocation
from core.params import Param, ParamModel
from core.rope import (
    ROPE_SCALINGS,
    ROPE_STYLES,
    apply_rope,
    rope_decay,
    rope_inv_freq,
    rope_pair_indices,
    rope_score_vs_offset,
    snapped_rotary_width,
)
from core.viewdata import (
    Arrow,
    ComputeContext,
    ExportData,
    Panel,
    Series,
    ViewData,
    ViewSpec,
    envelope_xy,
    sample_axis,
    sampled_note,
)

SCALING_CHOICES = ("none",) + ROPE_SCALINGS

MODEL = ParamModel(
    "rope",
    "RoPE",
    (
        Param(
            "head_dim",
            "int",
            64,
            "Head dimension",
            "Size of one attention head (even: dimensions rotate in pairs).",
            2,
            1024,
            2,
        ),
        Param(
            "base",
            "float",
            10000.0,
            "Base (rope_theta)",
            "θ_i = base^(−2i/d_rot). LLaMA 2: 10000, LLaMA 3: 500000.",
            10.0,
            1e7,
            1000.0,
            log_scale=True,
        ),
        Param(
            "style",
            "choice",
            "half",
            "Pairing",
            "half (HF / GPT-NeoX): pairs (i, i + d/2); "
            "interleaved (GPT-J / Meta LLaMA): pairs (2i, 2i+1). Same math, other layout.",
            choices=ROPE_STYLES,
        ),
        Param(
            "pair",
            "int",
            0,
            "Pair drawn",
            "Rotation pair i drawn in the plane (clamped to d_rot/2 − 1). Pair 0 turns fastest.",
            0,
            511,
            1,
        ),
        Param("m", "int", 5, "Query position m", "Position of the query.", 0, 1_000_000, 1),
        Param("n", "int", 9, "Key position n", "Position of the key.", 0, 1_000_000, 1),
        Param(
            "seq_len",
            "int",
            256,
            "Offset range",
            "Offsets −(L−1)..L−1 in the score and decay "
            "panels; also the current length for dynamic NTK.",
            2,
            65536,
            1,
        ),
        Param(
            "scaling",
            "choice",
            "none",
            "Context scaling",
            "How θ_i is changed to stretch a "
            "model to longer contexts (as in HF transformers' rope_scaling).",
            choices=SCALING_CHOICES,
        ),
        Param(
            "factor", "float", 4.0, "Scaling factor", "Context extension factor.", 1.0, 64.0, 0.5
        ),
        Param(
            "original_max_position_embeddings",
            "int",
            2048,
            "Original context",
            "Training context length before scaling (dynamic, YaRN, Llama 3.1).",
            1,
            1_048_576,
            1,
        ),
        Param(
            "partial_rotary_factor",
            "float",
            1.0,
            "Rotary fraction",
            "Fraction of the head "
            "that rotates (GPT-NeoX: 0.25); d_rot = int(head_dim·fraction), snapped down to "
            "an even width (dimensions rotate in pairs).",
            0.05,
            1.0,
            0.05,
        ),
        Param(
            "beta_fast",
            "float",
            32.0,
            "YaRN β_fast",
            "YaRN: pairs turning more than β_fast "
            "times over the original context keep their frequency.",
            1.0,
            256.0,
            1.0,
        ),
        Param(
            "beta_slow",
            "float",
            1.0,
            "YaRN β_slow",
            "YaRN: pairs turning fewer than β_slow "
            "times are fully interpolated (divided by factor).",
            0.1,
            64.0,
            0.1,
        ),
        Param(
            "low_freq_factor",
            "float",
            1.0,
            "Llama 3.1 low_freq_factor",
            "Wavelengths above original/low_freq_factor are multiplied by factor "
            "(their θ_i divided by it).",
            0.1,
            64.0,
            0.5,
        ),
        Param(
            "high_freq_factor",
            "float",
            4.0,
            "Llama 3.1 high_freq_factor",
            "Wavelengths below original/high_freq_factor are kept; in between they are blended.",
            0.1,
            64.0,
            0.5,
        ),
    ),
)

EXPLANATION = (
    "RoPE adds nothing to the token. Inside attention it rotates each pair of query and key "
    "dimensions by the angle p·θ_i: a real rotation, using cos and sin together (multiplying "
    "by cos alone, as some simplified notes do, is not a rotation and loses the property "
    "below). Rotating q by m·θ and k by n·θ leaves their dot product depending only on the "
    "angle between them, (m − n)·θ, so the score sees the relative offset. Fast pairs wrap "
    "around the circle many times, slow pairs barely move; context-extension methods (linear, "
    "dynamic NTK, YaRN, Llama 3.1) slow some frequencies down so longer inputs stay in the "
    "angle range seen during training."
)

TOY_QK_SEED = 7


def _scaling(params: Mapping[str, Any], kind: str) -> dict[str, Any] | None:
    if kind == "none":
        return None
    if kind == "yarn" and params["beta_slow"] >= params["beta_fast"]:
        raise ValueError(
            f"beta_slow ({params['beta_slow']:g}) must be smaller than beta_fast "
            f"({params['beta_fast']:g}) for YaRN"
        )
    return {
        "rope_type": kind,
        "factor": params["factor"],
        "original_max_position_embeddings": params["original_max_position_embeddings"],
        "beta_fast": params["beta_fast"],
        "beta_slow": params["beta_slow"],
        "low_freq_factor": params["low_freq_factor"],
        "high_freq_factor": params["high_freq_factor"],
    }


def rotary_width(params: Mapping[str, Any]) -> tuple[int, str]:
    """``d_rot`` for ``params`` (snapped to an even width) and a note when snapped."""
    return snapped_rotary_width(params["head_dim"], params["partial_rotary_factor"])


def frequencies(params: Mapping[str, Any], kind: str | None = None) -> tuple[np.ndarray, float]:
    """``(θ_i, attention_factor)`` for ``params`` with scaling ``kind`` (default: selected).

    The frequencies depend on the head only through ``d_rot`` (snapped to an even width).
    """
    d_rot, _ = rotary_width(params)
    return rope_inv_freq(
        d_rot,
        params["base"],
        _scaling(params, params["scaling"] if kind is None else kind),
        seq_len=params["seq_len"],
    )


def fast_pairs(inv: np.ndarray, stride: int) -> np.ndarray:
    """Pairs that turn by π or more between two sampled offsets (``θ_i·stride ≥ π``):
    a plain sample of them aliases, so the views draw them as a band instead."""
    return np.asarray(inv) * stride >= np.pi if stride > 1 else np.zeros(len(inv), bool)


def banded(x: np.ndarray, slow: np.ndarray, half_width: float) -> tuple[np.ndarray, np.ndarray]:
    """Envelope ``slow ± half_width`` at every ``x`` (see :func:`envelope_xy`)."""
    return envelope_xy(x, slow - half_width, slow + half_width)


def angle_parts(angle: float) -> tuple[int, float]:
    """Full turns ``⌊angle / 2π⌋`` and the wrapped angle ``atan2(sin, cos)`` in degrees."""
    return math.floor(angle / (2 * math.pi)), math.degrees(
        math.atan2(math.sin(angle), math.cos(angle))
    )


def _turns(count: int) -> str:
    """``"1 full turn"``, ``"3 full turns"``."""
    return f"{count} full turn" if abs(count) == 1 else f"{count} full turns"


def _decay_series(
    name: str, x: np.ndarray, inv: np.ndarray, stride: int, style: Literal["line", "dashed"]
) -> Series:
    """``mean_i cos(Δ·θ_i)``: exact, or the slow pairs' part with the fast pairs as a band."""
    fast = fast_pairs(inv, stride)
    if not fast.any():
        return Series(name, x, rope_decay(x, inv), style)
    slow = rope_decay(x, inv[~fast]) * (inv.size - fast.sum()) / inv.size if (~fast).any() else 0.0
    bx, by = banded(x, np.broadcast_to(slow, x.shape), fast.sum() / inv.size)
    return Series(f"{name}: {int(fast.sum())} fast pairs as a band", bx, by, style)


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the RoPE view (offset curves sampled to ``ctx.max_points``)."""
    hd, style, m, n, L = (params[k] for k in ("head_dim", "style", "m", "n", "seq_len"))
    d_rot, snapped = rotary_width(params)
    half, kind = d_rot // 2, params["scaling"]
    notes = [snapped] if snapped else []
    pair = min(params["pair"], half - 1)
    if pair != params["pair"]:
        notes.append(f"pair {params['pair']} clamped to {pair} (d_rot/2 − 1 = {half - 1})")
    if d_rot < hd:
        notes.append(f"partial rotary: dims {d_rot}..{hd - 1} pass through unrotated")
    inv0, _ = frequencies(params, "none")
    inv, af = frequencies(params)
    a_idx, b_idx = rope_pair_indices(d_rot, style)
    a, b, theta = int(a_idx[pair]), int(b_idx[pair]), float(inv[pair])
    unit = np.zeros((3, hd))
    unit[:, a] = 1.0
    rot = apply_rope(unit, [0, m, n], inv, style)  # unit q = k in the pair plane
    (tq, wq), (tk, wk) = angle_parts(m * theta), angle_parts(n * theta)
    arrows = [
        Arrow(name, float(rot[r, a]), float(rot[r, b]))
        for r, name in enumerate(("unrotated", f"q (m={m})", f"k (n={n})"))
    ]
    _, wd = angle_parts((m - n) * theta)
    af_note = f"; YaRN scales both by {af:.4g} (drawn at unit length)" if af != 1.0 else ""

    pairs = np.arange(half, dtype=float)
    freq = [Series("unscaled", pairs, inv0)]
    for other in ROPE_SCALINGS:
        try:
            values = inv if other == kind else frequencies(params, other)[0]
        except ValueError as exc:
            notes.append(f"{other} curve skipped: {exc}")
            continue
        sel = other == kind
        freq.append(
            Series(
                f"{other} ×{params['factor']:g}" + (" (selected)" if sel else ""),
                pairs,
                values,
                "line" if sel else "dashed",
            )
        )

    pos, stride = sample_axis(L, ctx.max_points // 2)
    fast = fast_pairs(inv, stride)
    if fast.any():  # half the points again: every sampled offset becomes a stroke
        pos, stride = sample_axis(L, ctx.max_points // 4)
        fast = fast_pairs(inv, stride)
    offs = np.concatenate([-pos[:0:-1], pos]).astype(float)
    q, k = np.random.default_rng(TOY_QK_SEED).standard_normal((2, hd))
    score = []
    if fast.any():
        # exact score = slow pairs + fast pairs; the fast pairs add at most Σ |q_i||k_i|
        fast_dims = np.concatenate([a_idx[fast], b_idx[fast]])
        qf, kf = np.zeros(hd), np.zeros(hd)
        qf[fast_dims], kf[fast_dims] = q[fast_dims], k[fast_dims]
        amp = af**2 * float(
            np.sum(np.hypot(q[a_idx], q[b_idx])[fast] * np.hypot(k[a_idx], k[b_idx])[fast])
        )
        for qp in (m, m + L):
            slow = af**2 * (
                rope_score_vs_offset(q, k, offs, inv, style, qp)
                - rope_score_vs_offset(qf, kf, offs, inv, style, qp)
            )
            x, y = banded(offs, slow, amp)
            score.append(
                Series(
                    f"query at m={qp}: {int(fast.sum())} fast pairs as a ±{amp:.3g} band",
                    x,
                    y,
                    "line" if qp == m else "dashed",
                )
            )
        notes.append(
            f"score and decay: offsets sampled every {stride}; the {int(fast.sum())} pairs "
            f"turning by π or more between samples (θ_i·{stride} ≥ π) would alias, so they "
            "are drawn as the band they can add (the exact curve lies inside it)"
        )
    else:
        score = [
            Series(
                f"query at m={qp}",
                offs,
                af**2 * rope_score_vs_offset(q, k, offs, inv, style, qp),
                "line" if qp == m else "dashed",
            )
            for qp in (m, m + L)
        ]
    if abs(m - n) < L:
        score.append(
            Series(
                f"m − n = {m - n}",
                np.array([m - n], dtype=float),
                af**2 * rope_score_vs_offset(q, k, np.array([m - n]), inv, style, m),
                "scatter",
            )
        )
    decay = [_decay_series("unscaled", pos.astype(float), inv0, stride, "line")]
    if kind != "none":
        decay.append(
            _decay_series(f"{kind} ×{params['factor']:g}", pos.astype(float), inv, stride, "dashed")
        )
    orig = params["original_max_position_embeddings"]
    if orig >= L:
        notes.append(
            f"dynamic ×{params['factor']:g} equals unscaled here (its line lies under it): "
            f"dynamic NTK raises the base only once the length L = {L} exceeds the original "
            f"context {orig}"
        )
    notes += [t for t in [sampled_note("offsets", L, stride)] if t]
    panels = [
        Panel(
            "plane",
            f"Pair {pair} (dims {a}, {b}), θ = {theta:.4g}: q at m·θ = "
            f"{m * theta:.4g} rad ({_turns(tq)}; atan2 {wq:+.1f}°)",
            "arrows",
            f"k at n·θ = {n * theta:.4g} rad ({_turns(tk)}; atan2 {wk:+.1f}°)",
            "",
            arrows=arrows,
            note=f"angle from k to q: (m − n)·θ → {wd:+.1f}°{af_note}",
            row=0,
            col=0,
        ),
        Panel(
            "frequencies",
            "Rotation frequency θ_i per pair",
            "curves",
            "pair index i",
            "θ_i (radians per position)",
            series=freq,
            log_y=True,
            row=0,
            col=1,
        ),
        Panel(
            "score",
            "q·k after rotation vs offset m − n (two query positions coincide)",
            "curves",
            "offset m − n",
            "score ⟨R_m q, R_n k⟩",
            series=score,
            note=f"fixed random q, k (seed {TOY_QK_SEED}); key position n = m − offset, "
            "negative n is a rotation the other way",
            row=1,
            col=0,
        ),
        Panel(
            "decay",
            "Long-range decay: mean_i cos(Δ·θ_i)",
            "curves",
            "offset Δ",
            "mean cos",
            series=decay,
            row=1,
            col=1,
        ),
    ]
    scale_txt = {
        "none": "",
        "linear": f", θ_i / {params['factor']:g} (linear)",
        "dynamic": f", dynamic NTK base at length {L}",
        "yarn": ", YaRN blend",
        "llama3": ", Llama 3.1 bands (kept / blended / divided by factor)",
    }[kind]
    formula = (  # core.formula markup; two spaces separate terms
        f"R_p rotates pair i = dims (a_i, b_i) by p·θ_i,  θ_i = {params['base']:g}"
        f"^{{−2i/{d_rot}}}{scale_txt};  pair {pair}: m·θ = {m}·{theta:.6g} = "
        f"{m * theta:.6g} rad;  ⟨R_m q, R_n k⟩ depends on m − n = {m - n} only"
    )
    if af != 1.0:
        formula += f";  attention factor {af:.4g} multiplies cos and sin  (score × {af**2:.4g})"
    return ViewData(
        "rope", dict(params), panels, plain_text(formula), notes=notes, formula_markup=formula
    )


def export(params: Mapping[str, Any]) -> ExportData:
    """The ``(seq_len, d_rot/2)`` angle matrix ``p·θ_i`` (selected scaling applied; an odd
    ``int(head_dim·fraction)`` snapped to an even ``d_rot`` as in the view)."""
    inv, _ = frequencies(params)
    n = params["seq_len"]
    check_allocation("RoPE angle matrix", (n, inv.size), copies=2)
    return ExportData(
        "angles",
        np.arange(n, dtype=np.float64)[:, None] * inv[None, :],
        ("position p", "pair i"),
        "RoPE angles p·θ_i in radians (seq_len, d_rot/2), scaling applied",
    )


SPEC = ViewSpec(
    "rope",
    "RoPE",
    MODEL,
    EXPLANATION,
    compute,
    export,
    "(seq_len, d_rot/2) float64 angles [p, i] = p·θ_i in radians (not wrapped), "
    "with the selected scaling; YaRN's attention factor scales cos/sin, not angles",
)
