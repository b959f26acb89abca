"""RoPE view: one rotation pair as arrows, frequencies with scalings (LongRoPE, YaRN
with DeepSeek's mscale, Llama 3.1), score vs offset, mean cos with xPos, RoFormer's decay
bound, the course's "simplified RoPE" against the real rotation, and 2-D / M-RoPE on
image patches (Qwen2-VL)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal, NamedTuple

import numpy as np

from core import tablecache
from core.formula import approx, approx_text, number, plain_text
from core.memory import check_allocation
from core.params import Param, ParamModel
from core.rope import (
    ROPE_SCALINGS,
    ROPE_STYLES,
    apply_rope,
    mrope_angles,
    mrope_pair_axes,
    mrope_position_ids,
    roformer_decay_bound,
    rope_decay,
    rope_inv_freq,
    rope_pair_indices,
    rope_score_vs_offset,
    snapped_rotary_width,
    vision_2d_angles,
    xpos_weights,
    xpos_zeta,
    yarn_get_mscale,
)
from core.rope_fast import rope_cos_sin
from core.viewdata import (
    Arrow,
    ComputeContext,
    ExportData,
    Panel,
    Series,
    ViewData,
    ViewSpec,
    block_envelope,
    envelope_xy,
    fmt_value,
    sample_axis,
    sampled_label,
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
            limit=lambda v: last_pair(v),  # (defined below)
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
        Param(
            "mscale",
            "float",
            0.0,
            "YaRN mscale",
            "DeepSeek-style YaRN: with mscale and mscale_all_dim both set (> 0), cos/sin are "
            "scaled by get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim) "
            "(HF _compute_yarn_parameters); 0 = unset (plain YaRN: 0.1·ln(factor) + 1).",
            0.0,
            10.0,
            0.1,
        ),
        Param(
            "mscale_all_dim",
            "float",
            0.0,
            "YaRN mscale_all_dim",
            "DeepSeek-V2/V3 also multiply the softmax scale by get_mscale(factor, "
            "mscale_all_dim)²; 0 = unset.",
            0.0,
            10.0,
            0.1,
        ),
        Param(
            "xpos_scale_base",
            "float",
            512.0,
            "xPos scale base",
            "xPos (Sun et al., 2022) scales q at m by ζ_i^(m/b) and k at n by ζ_i^(−n/b), "
            "ζ_i = (2i + 0.4·d)/(1.4·d): pair i of the score decays as ζ_i^((m−n)/b). "
            "torchscale default b = 512.",
            1.0,
            1e6,
            64.0,
            log_scale=True,
        ),
        Param(
            "topic",
            "choice",
            "sequence",
            "Panels",
            "sequence: the rotation, frequencies, the course's simplified RoPE, score, mean "
            "cos with xPos and RoFormer's bound; images: image patches under M-RoPE or 2-D "
            "RoPE next to 1-D RoPE, and Qwen2-VL's position ids.",
            choices=("sequence", "images"),
        ),
        Param(
            "image_rope",
            "choice",
            "mrope",
            "Image positions",
            "mrope: Qwen2-VL's LLM (M-RoPE: pairs split into temporal/height/width sections "
            "by mrope_section); 2d: Qwen2-VL's vision encoder (first half of the pairs turn by "
            "row, second half by column).",
            choices=("mrope", "2d"),
        ),
        Param(
            "mrope_section",
            "int_list",
            (16, 24, 24),
            "mrope_section (t, h, w)",
            "Pairs per axis (temporal, height, width), fastest first; the image panels use "
            "head dimension 2·sum (Qwen2-VL: 16, 24, 24 → 128).",
            0,
            512,
            1,
            max_items=3,
        ),
        Param(
            "grid_h",
            "int",
            6,
            "Image rows",
            "Rows of LLM image tokens (after the 2×2 merge).",
            1,
            64,
            1,
        ),
        Param("grid_w", "int", 8, "Image columns", "Columns of LLM image tokens.", 1, 64, 1),
        Param(
            "patch_row",
            "int",
            2,
            "Query patch row",
            "Row of the query patch (clamped to the grid).",
            0,
            63,
            1,
            limit=lambda v: v["grid_h"] - 1,
        ),
        Param(
            "patch_col",
            "int",
            3,
            "Query patch column",
            "Column of the query patch (clamped to the grid).",
            0,
            63,
            1,
            limit=lambda v: v["grid_w"] - 1,
        ),
    ),
)

# LongRoPE per-pair factors of Phi-3.5-mini-instruct (head_dim 96: 48 pairs; original
# context 4096, extended 131072), rounded to the two decimals they were searched at, as
# its config.json lists them (rope_scaling short_factor / long_factor).
PHI35_SHORT_FACTOR = (
    (1.0, 1.02, 1.03, 1.03)
    + (1.05,) * 5
    + (1.07, 1.1, 1.11, 1.16, 1.16, 1.17, 1.29, 1.34)
    + (1.68, 1.79, 1.82, 1.85, 1.88, 1.91, 1.94, 1.99)
    + (2.02,) * 6
    + (2.03,) * 9
    + (2.08, 2.09, 2.19, 2.22, 2.59, 2.73, 2.75, 2.84)
)
PHI35_LONG_FACTOR = (
    1.08,
    1.11,
    1.14,
    1.34,
    1.59,
    1.6,
    1.62,
    2.62,
    3.23,
    3.23,
    4.79,
    7.4,
    7.7,
    9.09,
    12.2,
    17.67,
    24.46,
    28.57,
    30.42,
    30.84,
    32.59,
    32.93,
    42.32,
    44.96,
    50.34,
    50.45,
    57.55,
    57.93,
    58.21,
    60.14,
    62.61,
    62.62,
    62.71,
    63.14,
    63.14,
    63.77,
    63.93,
    63.96,
    63.97,
    64.03,
    64.07,
    64.08,
    64.12,
    64.41,
    64.48,
    64.51,
    64.53,
    64.84,
)


def longrope_factors(half: int) -> tuple[np.ndarray, np.ndarray]:
    """Phi-3.5-mini's LongRoPE ``(short_factor, long_factor)`` for ``half`` pairs: exact
    for 48 pairs, otherwise linearly resampled over the relative pair index ``i/(half−1)``."""
    src = np.linspace(0.0, 1.0, len(PHI35_SHORT_FACTOR))
    dst = np.linspace(0.0, 1.0, half) if half > 1 else np.zeros(1)
    return (
        np.interp(dst, src, np.asarray(PHI35_SHORT_FACTOR)),
        np.interp(dst, src, np.asarray(PHI35_LONG_FACTOR)),
    )


EXPLANATION = (
    "RoPE adds nothing to the token. Inside attention it rotates each pair of query and key "
    "dimensions by the angle p·θ_i: a real rotation, using cos and sin together (multiplying "
    "by cos alone, as some simplified notes do, is not a rotation and loses the property "
    "below). Rotating q by m·θ and k by n·θ leaves their dot product depending only on the "
    "angle between them, (m − n)·θ, so the score sees the relative offset. Fast pairs wrap "
    "around the circle many times, slow pairs barely move; context-extension methods (linear, "
    "dynamic NTK, YaRN, Llama 3.1) slow some frequencies down so longer inputs stay in the "
    "angle range seen during training. "
    "The course errs twice: its 'simplified RoPE' (× cos, no sin) is no rotation and its "
    "score depends on m + n, not on m − n alone (course panel); and RoPE alone does not "
    "'extrapolate excellently': longer contexts need PI, NTK, YaRN, LongRoPE or Llama 3.1 "
    "scaling (frequency panel), usually with fine-tuning. Mean cos oscillates; RoFormer's "
    "decay is a bound on |score| (bound panel), xPos adds a real decay, and Qwen2-VL's "
    "M-RoPE / 2-D RoPE turn pairs by time, row and column (image panels)."
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
    out: dict[str, Any] = {
        "rope_type": kind,
        "factor": params["factor"],
        "original_max_position_embeddings": params["original_max_position_embeddings"],
        "beta_fast": params["beta_fast"],
        "beta_slow": params["beta_slow"],
        "low_freq_factor": params["low_freq_factor"],
        "high_freq_factor": params["high_freq_factor"],
    }
    if kind == "yarn":
        for key in ("mscale", "mscale_all_dim"):
            if params.get(key):
                out[key] = params[key]
    if kind == "longrope":
        d_rot, _ = rotary_width(params)
        short, long = longrope_factors(d_rot // 2)
        out["short_factor"], out["long_factor"] = short, long
    return out


def rotary_width(params: Mapping[str, Any]) -> tuple[int, str]:
    """``d_rot`` for ``params`` (snapped to an even width) and a note when snapped."""
    return snapped_rotary_width(params["head_dim"], params["partial_rotary_factor"])


def last_pair(params: Mapping[str, Any]) -> int:
    """The last rotation pair, ``d_rot/2 − 1`` (what a ``pair`` parameter is clamped to)."""
    return rotary_width(params)[0] // 2 - 1


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


def _weighted_decay_series(
    name: str,
    x: np.ndarray,
    inv: np.ndarray,
    stride: int,
    weights: np.ndarray,
    style: Literal["line", "dashed"],
) -> Series:
    """``mean_i w_i(Δ)·cos(Δ·θ_i)`` (xPos: ``w = ζ_i^(Δ/b)``), with the fast pairs as a
    band of half-width ``Σ_fast w_i(Δ)/(d/2)`` when the sampling would alias them."""
    fast = fast_pairs(inv, stride)
    cos = rope_cos_sin(x, inv)[0]
    if not fast.any():
        return Series(name, x, (weights * cos).mean(axis=1), style)
    slow = (weights[:, ~fast] * cos[:, ~fast]).sum(axis=1) / inv.size
    width = weights[:, fast].sum(axis=1) / inv.size
    bx, by = envelope_xy(x, slow - width, slow + width)
    return Series(f"{name}: {int(fast.sum())} fast pairs as a band", bx, by, style)


_BOUND_EXACT_ITEMS = 2**20  # offsets × pairs computed in full for a min–max envelope


def _bound_series(
    name: str,
    L: int,
    pos: np.ndarray,
    stride: int,
    inv: np.ndarray,
    style: Literal["line", "dashed"],
) -> Series:
    """RoFormer's bound ``mean_j |S_j|`` over offsets ``0..L−1``: exact when every offset
    is drawn; a per-block min–max envelope of the exact values when sampled (and small
    enough); beyond that the fast pairs' part as a band (``| |G_j| − c_j | ≤ |S_j| ≤
    |G_j| + c_j`` with ``G_j`` the slow pairs' partial sum and ``c_j`` the fast pairs in it)."""
    x = pos.astype(float)
    if stride == 1:
        y = tablecache.cached(
            ("roformer-bound-exact", inv.tobytes(), L), lambda: roformer_decay_bound(x, inv)
        )
        return Series(name, x, y, style)
    if L * inv.size <= _BOUND_EXACT_ITEMS:
        lo, hi = tablecache.cached(
            ("roformer-bound", inv.tobytes(), L, stride),
            lambda: block_envelope(roformer_decay_bound(np.arange(L), inv)[None, :], stride),
        )
        bx, by = envelope_xy(x, lo[0][: x.size], hi[0][: x.size])
        return Series(f"{name}: min–max per {stride} offsets", bx, by, style)
    fast = fast_pairs(inv, stride)
    cos, sin = rope_cos_sin(x, inv)
    cos[:, fast], sin[:, fast] = 0.0, 0.0
    g = np.hypot(np.cumsum(cos, axis=1), np.cumsum(sin, axis=1))
    c = np.cumsum(fast)[None, :].astype(float)
    lo_b, hi_b = np.maximum(g - c, 0.0).mean(axis=1), (g + c).mean(axis=1)
    bx, by = envelope_xy(x, lo_b, hi_b)
    return Series(f"{name}: {int(fast.sum())} fast pairs as a band", bx, by, style)


SIMPLIFIED_SHIFTS = 128  # shifts s = 0..127 of (m + s, n + s) in the course panel
SIMPLIFIED_SHIFT = 100  # the second concrete pair: (m + 100, n + 100)


def simplified_scores(
    q: np.ndarray, k: np.ndarray, m: int, n: int, shifts: np.ndarray, inv: np.ndarray, style: str
) -> tuple[np.ndarray, np.ndarray, float]:
    """Scores of the pairs ``(m + s, n + s)`` for the real rotation and the course's
    "simplified RoPE" (each dimension of pair i multiplied by ``cos(p·θ_i)``, no sin), and
    the course code as written (dimension j multiplied by ``cos(j/d)``: no position)."""
    hd = q.size
    s = np.asarray(shifts, dtype=np.float64)
    qr = apply_rope(np.broadcast_to(q, (s.size, hd)), m + s, inv, style)
    kr = apply_rope(np.broadcast_to(k, (s.size, hd)), n + s, inv, style)
    real = np.einsum("sd,sd->s", qr, kr)
    a_idx, b_idx = rope_pair_indices(2 * inv.size, style)
    cm, cn = np.ones((s.size, hd)), np.ones((s.size, hd))
    cos_m, cos_n = rope_cos_sin(m + s, inv)[0], rope_cos_sin(n + s, inv)[0]
    cm[:, a_idx], cm[:, b_idx] = cos_m, cos_m
    cn[:, a_idx], cn[:, b_idx] = cos_n, cos_n
    cos_only = np.einsum("sd,sd->s", cm * q[None, :], cn * k[None, :])
    literal = float(np.sum(q * k * np.cos(np.arange(hd) / hd) ** 2))
    return real, cos_only, literal


IMAGE_TEXT_BEFORE = 3  # text tokens before the image in the position-id table
IMAGE_TEXT_AFTER = 2


def image_layout(params: Mapping[str, Any]) -> tuple[int, int, int, int, int]:
    """``(grid_h, grid_w, query row, query col, d_img)``: the query patch clamped to the
    grid, ``d_img = 2·sum(mrope_section)`` the head dimension of the image panels."""
    gh, gw = params["grid_h"], params["grid_w"]
    sec = tuple(params["mrope_section"])
    if len(sec) != 3:
        raise ValueError(
            f"mrope_section needs three sizes (temporal, height, width), got {len(sec)}"
        )
    d_img = 2 * sum(sec)
    if d_img < 2:
        raise ValueError("mrope_section sums to 0: no pair to rotate")
    if params["image_rope"] == "2d" and d_img % 4:
        raise ValueError(
            f"2-D RoPE splits the pairs into rows and columns: 2·sum(mrope_section) = {d_img} "
            "must be divisible by 4"
        )
    row, col = MODEL["patch_row"].effective(params), MODEL["patch_col"].effective(params)
    return gh, gw, row, col, d_img


def image_angles(params: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, angles_2d, angles_1d)`` for the image's patches in raster order: the
    Qwen2-VL position ids ``(3, h·w)`` of the image alone, each patch's pair angles under
    the selected scheme, and under plain 1-D RoPE of the raster index ``row·w + col``."""
    gh, gw, _, _, d_img = image_layout(params)
    base = params["base"]
    ids = mrope_position_ids(0, 1, gh, gw, 0)
    inv = rope_inv_freq(d_img, base)[0]
    if params["image_rope"] == "mrope":
        ang = mrope_angles(ids, inv, tuple(params["mrope_section"]))
    else:
        ang = vision_2d_angles(ids[1], ids[2], d_img, base)
    raster = np.arange(gh * gw, dtype=np.float64)
    return ids, ang, raster[:, None] * inv[None, :]


def _levels(image: np.ndarray) -> tuple[float, float]:
    """Colour range of a similarity map: its data range (a constant map gets a unit span)."""
    lo, hi = float(image.min()), float(image.max())
    return (lo, hi) if hi > lo else (lo - 0.5, hi + 0.5)


def _image_panels(params: Mapping[str, Any]) -> tuple[list[Panel], str]:
    """The patch similarity heatmaps (2-D scheme vs 1-D raster) and the position-id table."""
    gh, gw, r0, c0, d_img = image_layout(params)
    sec = tuple(params["mrope_section"])

    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ids, ang, ang1 = image_angles(params)
        q_at = r0 * gw + c0
        # q = k = (1, 0) in every pair: the score is mean_i cos(angle_q,i − angle_k,i)
        m2, m1 = (np.cos(a[q_at][None, :] - a).mean(axis=1).reshape(gh, gw) for a in (ang, ang1))
        return ids, m2, m1

    key = ("rope-image", gh, gw, r0, c0, sec, params["image_rope"], params["base"])
    ids, *maps = tablecache.cached(key, make)
    scheme = f"M-RoPE {list(sec)}" if params["image_rope"] == "mrope" else "2-D RoPE (ViT)"

    r1, c1 = (r0 + 1 if r0 + 1 < gh else r0 - 1), (c0 + 1 if c0 + 1 < gw else c0 - 1)
    top = float(maps[0][r0, c0])
    row_step = top - float(maps[0][r1, c0]) if gh > 1 else 0.0
    col_step = top - float(maps[0][r0, c1]) if gw > 1 else 0.0

    def probe_for(image: np.ndarray, what: str) -> Any:
        def probe(x: float, y: float) -> str:
            c, r = int(round(x)), int(round(y))
            if not (0 <= r < gh and 0 <= c < gw):
                return ""
            t_, h_, w_ = ids[:, r * gw + c]
            return (
                f"patch (row {r}, col {c}): {what}; ids (t, h, w) = ({t_}, {h_}, {w_}), "
                f"raster {r * gw + c}; score {fmt_value(float(image[r, c]))}"
            )

        return probe

    common = dict(
        kind="heatmap",
        x_label="patch column",
        y_label="patch row",
        x_coords=np.arange(gw, dtype=float),
        y_coords=np.arange(gh, dtype=float),
        colormap="sequential",
        value_label="mean_i cos",
        square=True,
        row=0,
    )
    panels = [
        Panel(
            "patches",
            f"{scheme}: query patch ({r0}, {c0}) vs all (min {maps[0].min():.4g})",
            image=maps[0],
            levels=_levels(maps[0]),
            probe=probe_for(maps[0], scheme),
            note=(
                "q = k = (1, 0) per pair: mean_i cos of the angle difference, a function of "
                f"(Δrow, Δcol); one row step lowers it by {approx_text(row_step)}, one column step "
                f"by {approx_text(col_step)}"
                + (
                    ". M-RoPE turns rows and columns with the slower pairs (the fastest follow "
                    "time, constant in one image), columns with the slowest (Qwen3-VL "
                    "interleaves t, h, w instead)"
                    if params["image_rope"] == "mrope"
                    else ""
                )
            ),
            col=0,
            **common,  # type: ignore[arg-type]
        ),
        Panel(
            "patches_1d",
            f"1-D RoPE of the raster index row·{gw} + col, same θ (min {maps[1].min():.4g})",
            image=maps[1],
            levels=_levels(maps[1]),
            probe=probe_for(maps[1], "1-D raster"),
            note=(
                f"flattened, the patch above is {gw} positions away and the row's last patch "
                "sits next to the next row's first"
            ),
            col=1,
            **common,  # type: ignore[arg-type]
        ),
    ]
    full = mrope_position_ids(IMAGE_TEXT_BEFORE, 1, gh, gw, IMAGE_TEXT_AFTER)
    n_img = gh * gw
    kinds = ["text"] * IMAGE_TEXT_BEFORE + ["image"] * n_img + ["text"] * IMAGE_TEXT_AFTER
    shown = list(range(IMAGE_TEXT_BEFORE))
    img = list(range(IMAGE_TEXT_BEFORE, IMAGE_TEXT_BEFORE + n_img))
    shown += img if n_img <= 8 else img[:4] + [-1] + img[-3:]
    shown += list(range(IMAGE_TEXT_BEFORE + n_img, full.shape[1]))
    resume = int(full[0, IMAGE_TEXT_BEFORE + n_img]) if IMAGE_TEXT_AFTER else 0
    rows = []
    for j in shown:
        if j < 0:
            rows.append(["…", "", "", "", ""])
            continue
        label = (
            kinds[j]
            if kinds[j] == "text"
            else (f"patch ({(j - IMAGE_TEXT_BEFORE) // gw}, {(j - IMAGE_TEXT_BEFORE) % gw})")
        )
        rows.append([str(j), label, *(str(int(v)) for v in full[:, j])])
    panels.append(
        Panel(
            "mrope_ids",
            "Qwen2-VL position ids (get_rope_index): text, image, text",
            "table",
            header=["token", "what", "t", "h", "w"],
            rows=rows,
            note=(
                f"text after the image resumes at max + 1 = {resume}, not at token index "
                f"{IMAGE_TEXT_BEFORE + n_img}"
            ),
            row=0,
            col=2,
        )
    )
    if params["image_rope"] == "mrope":
        axes = mrope_pair_axes(d_img // 2, sec)
        turned = ", ".join(
            f"{name} pairs {int(np.flatnonzero(axes == a)[0])}..{int(np.flatnonzero(axes == a)[-1])}"
            for a, name in enumerate(("t", "h", "w"))
            if (axes == a).any()
        )
        text = (
            f"\\text{{M-RoPE}} (head\\_dim {d_img}):  pair i turns by t·θ_i, h·θ_i or w·θ_i by section:  "
            f"{turned.replace(', ', ',  ')};  θ_i = {number(params['base'])}^{{−2i/{d_img}}}"
        )
    else:
        text = (
            f"2-D RoPE (head\\_dim {d_img}):  pairs 0..{d_img // 4 - 1} turn by row·θ_j,  pairs "
            f"{d_img // 4}..{d_img // 2 - 1} by col·θ_j,  θ_j = {number(params['base'])}^{{−4j/{d_img}}}"
        )
    return panels, text


#: Parameters a frame of the RoPE view changes alone while the rest stays: the query and
#: key positions and the pair drawn (a drag of m). What depends on none of them is kept.
FRAME_PARAMS = frozenset({"m", "n", "pair"})
#: largest difference (rounding, relative to the curve's scale) at which the score
#: curves of the two query positions are drawn from one array
SAME_CURVE = 1e-9


class Fixed(NamedTuple):
    """What the RoPE view computes alike for every ``m``, ``n`` and pair: frequencies,
    the sampled offsets, the toy q and k, the decay and bound curves (:func:`fixed`).
    Its arrays are read-only: every frame of a drag shares them."""

    d_rot: int
    snapped: str  # the note when the rotary width was snapped ("" if not)
    inv0: np.ndarray  # θ_i unscaled
    inv: np.ndarray  # θ_i with the selected scaling
    af: float  # attention factor
    a_idx: np.ndarray
    b_idx: np.ndarray
    skipped: tuple[str, ...]  # "<scaling> curve skipped: …" notes
    freq: tuple[Series, ...]
    pos: np.ndarray  # sampled offsets 0, stride, …
    stride: int
    fast: np.ndarray  # pairs drawn as a band (θ_i·stride ≥ π)
    offs: np.ndarray  # the score panel's signed offsets
    q: np.ndarray
    k: np.ndarray
    qf: np.ndarray  # q and k in the fast pairs only (zero elsewhere)
    kf: np.ndarray
    amp: float  # the most the fast pairs add to the score
    decay: tuple[Series, ...]
    zeta: np.ndarray
    bound: tuple[Series, ...]


def fixed(params: Mapping[str, Any], max_points: int) -> Fixed:
    """:class:`Fixed` for ``params`` (all but :data:`FRAME_PARAMS` count) and the point
    budget, kept for the last few (a drag of m recomputed them on every frame, about
    half of the view's compute)."""
    key = tuple(sorted((k, v) for k, v in params.items() if k not in FRAME_PARAMS))
    try:
        hash(key)
    except TypeError:  # a value that cannot be a key: computed anew
        return _compute_fixed(params, max_points)
    return _fixed_cached(key, int(max_points))


@lru_cache(maxsize=8)
def _fixed_cached(key: tuple[tuple[str, Any], ...], max_points: int) -> Fixed:
    return _compute_fixed(dict(key), max_points)


def _read_only(*arrays: np.ndarray) -> None:
    for array in arrays:
        if isinstance(array, np.ndarray):
            array.flags.writeable = False


def _compute_fixed(params: Mapping[str, Any], max_points: int) -> Fixed:
    hd, style, L = params["head_dim"], params["style"], params["seq_len"]
    d_rot, snapped = rotary_width(params)
    half, kind = d_rot // 2, params["scaling"]
    skipped: list[str] = []
    inv0, _ = frequencies(params, "none")
    inv, af = frequencies(params)
    a_idx, b_idx = rope_pair_indices(d_rot, style)
    pairs = np.arange(half, dtype=float)
    freq = [Series("unscaled", pairs, inv0)]
    orig = params["original_max_position_embeddings"]
    for other in ROPE_SCALINGS:
        try:
            values = inv if other == kind else frequencies(params, other)[0]
        except ValueError as exc:
            skipped.append(f"{other} curve skipped: {exc}")
            continue
        sel = other == kind
        if other == "longrope":  # the length picks the factor list
            which = f"long_factor (L > {orig})" if orig < L else f"short_factor (L ≤ {orig})"
            freq.append(
                Series(
                    f"longrope {which}" + (" (selected)" if sel else ""),
                    pairs,
                    values,
                    "line" if sel else "dashed",
                )
            )
            continue
        freq.append(
            Series(
                f"{other} ×{params['factor']:g}" + (" (selected)" if sel else ""),
                pairs,
                values,
                "line" if sel else "dashed",
            )
        )

    pos, stride = sample_axis(L, max_points // 2)
    fast = fast_pairs(inv, stride)
    if fast.any():  # half the points again: every sampled offset becomes a stroke
        pos, stride = sample_axis(L, max_points // 4)
        fast = fast_pairs(inv, stride)
    offs = np.concatenate([-pos[:0:-1], pos]).astype(float)
    q, k = np.random.default_rng(TOY_QK_SEED).standard_normal((2, hd))
    # exact score = slow pairs + fast pairs; the fast pairs add at most Σ |q_i||k_i|
    fast_dims = np.concatenate([a_idx[fast], b_idx[fast]])
    qf, kf = np.zeros(hd), np.zeros(hd)
    qf[fast_dims], kf[fast_dims] = q[fast_dims], k[fast_dims]
    amp = af**2 * float(
        np.sum(np.hypot(q[a_idx], q[b_idx])[fast] * np.hypot(k[a_idx], k[b_idx])[fast])
    )
    xd = pos.astype(float)
    decay = [_decay_series("RoPE mean cos", xd, inv0, stride, "line")]
    if kind != "none":
        decay.append(_decay_series(f"{kind} ×{params['factor']:g}", xd, inv, stride, "dashed"))
    xb = params["xpos_scale_base"]
    xw = xpos_weights(xd, 2 * inv0.size, xb)
    decay.append(_weighted_decay_series(f"xPos (b = {xb:g})", xd, inv0, stride, xw, "line"))
    decay.append(Series(sampled_label("xPos envelope", stride), xd, xw.mean(axis=1), "dashed"))
    zeta = xpos_zeta(2 * inv0.size)
    bound = [_bound_series("RoPE", L, pos, stride, inv0, "line")]
    if kind != "none":
        bound.append(_bound_series(f"{kind} ×{params['factor']:g}", L, pos, stride, inv, "dashed"))
    _read_only(inv0, inv, a_idx, b_idx, pos, fast, offs, q, k, qf, kf, zeta)
    for series in (*freq, *decay, *bound):
        _read_only(series.x, series.y)
    return Fixed(
        d_rot,
        snapped,
        inv0,
        inv,
        af,
        a_idx,
        b_idx,
        tuple(skipped),
        tuple(freq),
        pos,
        stride,
        fast,
        offs,
        q,
        k,
        qf,
        kf,
        amp,
        tuple(decay),
        zeta,
        tuple(bound),
    )


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the RoPE view (offset curves sampled to ``ctx.max_points``)."""
    hd, style, m, n, L = (params[k] for k in ("head_dim", "style", "m", "n", "seq_len"))
    f = fixed(params, ctx.max_points)
    d_rot, snapped, inv0, inv, af = f.d_rot, f.snapped, f.inv0, f.inv, f.af
    a_idx, b_idx, stride, fast, offs, q, k = (
        f.a_idx,
        f.b_idx,
        f.stride,
        f.fast,
        f.offs,
        f.q,
        f.k,
    )
    half, kind = d_rot // 2, params["scaling"]
    orig = params["original_max_position_embeddings"]
    notes = [snapped] if snapped else []
    about: dict[str, tuple[str, ...]] = {}  # the panels a note speaks of (a stage shows some)
    pair = MODEL["pair"].effective(params)
    if pair != params["pair"]:
        notes.append(f"pair {params['pair']} clamped to {pair} (d_rot/2 − 1 = {half - 1})")
    if d_rot < hd:
        notes.append(f"partial rotary: dims {d_rot}..{hd - 1} pass through unrotated")
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
    af_note = f"; {kind} scales both by {af:.4g} (drawn at unit length)" if af != 1.0 else ""
    for note in f.skipped:
        notes.append(note)
        about[note] = ("frequencies",)
    freq = list(f.freq)
    score = []
    if fast.any():
        qf, kf, amp = f.qf, f.kf, f.amp
        for qp, who in ((m, "m"), (m + L, f"m + {L}")):
            slow = af**2 * (
                rope_score_vs_offset(q, k, offs, inv, style, qp)
                - rope_score_vs_offset(qf, kf, offs, inv, style, qp)
            )
            x, y = banded(offs, slow, amp)
            score.append(
                Series(
                    f"query at {who}: {int(fast.sum())} fast pairs as a ±{amp:.3g} band",
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
        about[notes[-1]] = ("score", "decay")
    else:
        ys = [af**2 * rope_score_vs_offset(q, k, offs, inv, style, qp) for qp in (m, m + L)]
        # the score depends on m − n alone: the two query positions give the same curve
        # up to rounding, drawn from one array (the window then leaves the hidden line's
        # live strokes out: gui.render.line_item.LineItem.cover)
        scale = float(np.max(np.abs(ys[0]))) if ys[0].size else 0.0
        if ys[0].shape == ys[1].shape and np.all(np.abs(ys[1] - ys[0]) <= SAME_CURVE * scale):
            ys[1] = ys[0]
        score = [
            Series(f"query at {who}", offs, y, "line" if who == "m" else "dashed")
            for who, y in zip(("m", f"m + {L}"), ys, strict=True)
        ]
    # The legend names the lines, not the values of the moment (m, m − n: the formula
    # line's): names new on every frame of a drag were re-measured and re-laid out in
    # their strip on each (~0.4 ms at 150 % on the stage). The x axis reads the dot's m − n.
    if abs(m - n) < L:
        score.append(
            Series(
                "q at m, k at n",
                np.array([m - n], dtype=float),
                af**2 * rope_score_vs_offset(q, k, np.array([m - n]), inv, style, m),
                "scatter",
            )
        )
    decay, zeta, bound = list(f.decay), f.zeta, list(f.bound)

    shifts = np.arange(min(SIMPLIFIED_SHIFTS, max(ctx.max_points // 2, 2)), dtype=float)
    real, cos_only, literal = simplified_scores(q, k, m, n, shifts, inv0, style)
    s1 = min(SIMPLIFIED_SHIFT, shifts.size - 1)
    course = [
        Series("rotation (real RoPE)", shifts, real),
        Series("× cos(p·θ_i) (course)", shifts, cos_only, "dashed"),
        Series(
            "× cos(i/d), no p (course code)",
            shifts,
            np.full(shifts.size, literal),
            "dashed",
        ),
        Series(
            f"the two pairs: s = 0 and s = {s1}",
            np.array([0.0, float(s1), 0.0, float(s1)]),
            np.array([real[0], real[s1], cos_only[0], cos_only[s1]]),
            "scatter",
        ),
    ]
    course_note = (
        f"({m}, {n}) and ({m + s1}, {n + s1}), same m − n = {m - n}: rotation "
        f"{real[0]:.4f} and {real[s1]:.4f}; cos alone {cos_only[0]:.4f} and "
        f"{cos_only[s1]:.4f}, since cos(mθ)·cos(nθ) = ½[cos((m−n)θ) + cos((m+n)θ)] depends "
        f"on m + n. Course code (× cos(i/d), no p): {literal:.4f} for every m, n"
    )
    if kind == "yarn" and params["mscale"] and params["mscale_all_dim"]:
        f_, ms, msa = params["factor"], params["mscale"], params["mscale_all_dim"]
        soft = yarn_get_mscale(f_, msa) ** 2
        notes.append(
            f"YaRN mscale {ms:g}, mscale_all_dim {msa:g} (DeepSeek): cos/sin × "
            f"get_mscale({f_:g}, {ms:g}) / get_mscale({f_:g}, {msa:g}) = {af:.6g}; DeepSeek's "
            f"attention also multiplies the softmax scale by get_mscale({f_:g}, {msa:g})² = "
            f"{soft:.6g}, so logits grow by {af**2 * soft:.6g} = get_mscale({f_:g}, {ms:g})²"
        )
        about[notes[-1]] = ("frequencies", "score")
    elif kind == "yarn" and (params["mscale"] or params["mscale_all_dim"]):
        notes.append(
            "YaRN: mscale and mscale_all_dim act only together (HF: 'if mscale and "
            f"mscale_all_dim'); with one unset the factor is 0.1·ln({params['factor']:g}) + 1 "
            f"= {af:.6g}"
        )
        about[notes[-1]] = ("frequencies", "score")
    if kind == "longrope":
        notes.append(
            "LongRoPE: per-pair factors of Phi-3.5-mini (48 pairs"
            + ("" if half == 48 else f", resampled to {half}")
            + f"); L = {L} {'>' if orig < L else '≤'} original {orig}: "
            f"{'long' if orig < L else 'short'}_factor; attention factor "
            f"sqrt(1 + ln {params['factor']:g} / ln {orig}) = {af:.6g}"
        )
        about[notes[-1]] = ("frequencies", "score")
    if kind == "none" and orig < L:
        notes.append(
            f"offsets up to {L - 1} exceed the original context {orig}: RoPE alone does not "
            "extrapolate (the course's 'excellent extrapolation' holds only with PI, NTK, "
            "YaRN, LongRoPE or Llama 3.1 scaling and usually fine-tuning)"
        )
        about[notes[-1]] = ("frequencies", "score", "decay")
    if orig >= L:
        notes.append(
            f"dynamic ×{params['factor']:g} equals unscaled here (its line lies under it): "
            f"dynamic NTK raises the base only once the length L = {L} exceeds the original "
            f"context {orig}"
        )
        about[notes[-1]] = ("frequencies",)
    notes += [t for t in [sampled_note("offsets", L, stride)] if t]
    panels = [
        # The title and axis say what the plane shows, not the values of the moment: a
        # title new on every frame of a drag of m was re-wrapped, re-measured and
        # repainted on each (~0.3 ms at 150 % on the stage), and said again what the
        # formula line and the arrows' names say. The angles start the plane's note.
        Panel(
            "plane",
            f"Pair {pair}, θ = {approx_text(theta, 6)}: q turned by m·θ, k by n·θ",
            "arrows",
            "",
            "",
            arrows=arrows,
            # (the notes line writes it after the title: "Pair 0, θ = 1: q turned by m·θ,
            # k by n·θ: m·θ = 5 rad (…)")
            note=f"m·θ = {approx_text(m * theta, 4)} rad ({_turns(tq)}; atan2 {wq:+.1f}°), "
            f"n·θ = {approx_text(n * theta, 4)} rad ({_turns(tk)}; atan2 {wk:+.1f}°); "
            f"pair {pair} = dims ({a}, {b}); angle from k to q: (m − n)·θ → {wd:+.1f}°{af_note}",
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
            "mean_i cos(Δθ_i) oscillates (not a decay); xPos decays",
            "curves",
            "offset Δ = m − n (query after key)",
            "mean over pairs",
            series=decay,
            note=(
                "mean cos = the score for q = k = (1, 0) per pair, / (d/2): it swings, it does "
                "not decay. xPos: pair i × ζᵢ^(Δ/b), ζᵢ = (2i + 0.4·d)/(1.4·d) from "
                f"{zeta[0]:.4f} to {zeta[-1]:.4f}; its envelope is meanᵢ ζᵢ^(Δ/b)"
            ),
            row=1,
            col=1,
        ),
        Panel(
            "simplified",
            "Course's 'simplified RoPE' (× cos) vs the real rotation",
            "curves",
            "shift s: query at m + s, key at n + s",
            "score",
            series=course,
            note=course_note,
            row=0,
            col=2,
        ),
        Panel(
            "bound",
            "RoFormer long-term decay bound (1/(d/2))·Σ_j |S_j|",
            "curves",
            "offset Δ",
            "mean_j |S_j|",
            series=bound,
            note=(
                "Sⱼ = Σ over k < j of exp(iΔθₖ); |score| ≤ maxᵢ |hᵢ₊₁ − hᵢ| · Σⱼ |Sⱼ| (RoFormer "
                f"§3.4.3); from (d/2 + 1)/2 = {(inv0.size + 1) / 2:g} it decays, with ripples"
            ),
            row=1,
            col=2,
        ),
    ]
    scale_txt = {
        "none": "",
        "linear": f",  θ_i / {params['factor']:g} (linear)",  # two spaces: a new term
        "dynamic": f",  dynamic NTK base at length {L}",
        "yarn": ",  YaRN blend",
        "longrope": ",  θ_i / LongRoPE factor_i",
        "llama3": ",  Llama 3.1 bands  (kept / blended / divided by factor)",
    }[kind]
    formula = (  # core.formula markup; two spaces separate terms
        f"R_p rotates pair i = dims (a_i, b_i) by p·θ_i,  θ_i = {number(params['base'])}"
        f"^{{−2i/{d_rot}}}{scale_txt};  pair {pair}: m·θ = {m}·{approx(theta, 6)} = "
        f"{approx(m * theta, 6)} rad;  ⟨R_m q, R_n k⟩ depends on m − n = {m - n} only"
    )
    if af != 1.0:
        formula += f";  attention factor {af:.4g} multiplies cos and sin  (score × {af**2:.4g})"
    if params["topic"] == "images":  # the image panels instead of the 1-D ones
        panels, formula = _image_panels(params)
        notes, about = [], {}
    return ViewData(
        "rope",
        dict(params),
        panels,
        plain_text(formula),
        notes=notes,
        formula_markup=formula,
        note_panels=about,
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
