"""Compare view: all methods vs distance, extrapolation past the training length, a table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from core import tablecache
from core.alibi import (
    alibi_slopes,
    fire_bias,
    kerple_log_bias,
    kerple_power_bias,
    sandwich_bias,
)
from core.formula import approx_text, number, plain_text
from core.learned import learned_table_rows
from core.memory import check_allocation
from core.params import Param, ParamModel
from core.relative import shaw_relative_index, t5_relative_bucket
from core.rope import rope_decay, rope_inv_freq
from core.sinusoidal import sinusoidal_dot_vs_offset
from core.viewdata import (
    ComputeContext,
    ExportData,
    Panel,
    Series,
    ViewData,
    ViewSpec,
    sample_axis,
    sampled_label,
    sampled_note,
)
from core.views.rope import banded, fast_pairs

SHAW_K = 16
T5_BUCKETS, T5_MAX_DISTANCE = 32, 128
LEARNED_SEED = 0
CURVES = (
    "sinusoidal",
    "rope",
    "alibi_head1",
    "alibi_mean",
    "learned",
    "t5_bucket",
    "shaw_index",
    "alibi_bias_head1",
    "kerple_log",
    "kerple_power",
    "sandwich_head1",
    "fire_last_query",
)
#: largest difference (rounding) at which the RoPE curve is drawn from sinusoidal's array
SAME_CURVE = 1e-9
BIAS_ROWS = slice(7, 12)  # additive biases (0 at Δ = 0), drawn in the "biases" panel

MODEL = ParamModel(
    "compare",
    "Compare",
    (
        Param("seq_len", "int", 64, "Distance range", "Distances Δ = 0..seq_len−1.", 2, 65536, 1),
        Param(
            "d_model",
            "int",
            64,
            "Model / head width d",
            "Width for sinusoidal PE and RoPE (even; an odd value is rounded down).",
            2,
            4096,
            2,
        ),
        Param("heads", "int", 8, "ALiBi heads", "Number of ALiBi heads (slopes m_h).", 1, 64, 1),
        Param(
            "train_len",
            "int",
            32,
            "Training length",
            "Longest sequence seen in training: a learned table has exactly this many rows.",
            1,
            65536,
            1,
        ),
        Param(
            "base",
            "float",
            10000.0,
            "Base",
            "Frequency base for sinusoidal PE and RoPE.",
            10.0,
            1e7,
            1000.0,
            log_scale=True,
        ),
        Param(
            "kerple_r1",
            "float",
            1.0,
            "KERPLE r₁",
            "KERPLE's scale r₁ > 0 (learned per head; a fixed value here): log variant "
            "−r₁·log(1 + r₂·Δ), power variant −r₁·Δ^r₂.",
            0.01,
            10.0,
            0.1,
        ),
        Param(
            "kerple_r2",
            "float",
            0.5,
            "KERPLE r₂",
            "KERPLE's r₂ > 0 (the power variant needs r₂ ≤ 2).",
            0.01,
            2.0,
            0.05,
        ),
    ),
)

EXPLANATION = (
    "The methods differ in where position enters and what it looks like from attention's "
    "point of view. Additive encodings (sinusoidal, learned) change the input; RoPE rotates "
    "queries and keys; ALiBi, Shaw and T5 act on the scores through the distance only. "
    "Left: how similar (or how strongly weighted) two tokens Δ apart are, each scaled to 1 at "
    "Δ = 0, and which learned index a relative method uses. Third: a learned table simply "
    "stops at the training length, while the formula-based methods still produce values "
    "there — values the model never saw, which is a different problem from having none. "
    "Far right: biases added to the scores against distance — ALiBi's line, KERPLE's "
    "logarithmic and power kernels, Sandwich's shifted sinusoid inner product, and FIRE's "
    "learned function of a log-scaled, length-normalised distance. Layers without any "
    "positional encoding (NoPE), as SmolLM3 and Llama 4 use, are in Word order."
)

HEADER = [
    "method",
    "position enters",
    "absolute / relative",
    "extra parameters",
    "beyond training length",
    "used in",
]
TABLE = [
    [
        "sinusoidal",
        "input (added)",
        "absolute (dot products depend on offset)",
        "none",
        "defined, but unseen values; degrades in practice",
        "original Transformer",
    ],
    [
        "learned",
        "input (added)",
        "absolute",
        "max_positions × d table",
        "undefined: no row (error)",
        "BERT, RoBERTa, GPT-2, GPT-3, OPT",
    ],
    [
        "RoPE",
        "attention (rotates q, k)",
        "relative (score depends on m − n)",
        "none",
        "defined; needs scaling (PI, NTK, YaRN, Llama 3.1) to work well",
        "GPT-NeoX, LLaMA, Mistral, Qwen, Gemma",
    ],
    [
        "ALiBi",
        "attention (score bias)",
        "relative (distance)",
        "none (fixed slopes)",
        "defined, extrapolates gracefully by design",
        "BLOOM, MPT",
    ],
    [
        "Shaw et al.",
        "attention (learned vectors)",
        "relative (clipped offset)",
        "2·(2k + 1)·d_head per layer (one table for keys, one for values)",
        "defined: offsets beyond k share the last vector",
        "Shaw et al. 2018; Music Transformer (variant)",
    ],
    [
        "T5 buckets",
        "attention (score bias)",
        "relative (log buckets)",
        "buckets × heads scalars",
        "defined: distances ≥ max_distance share one bucket",
        "T5, Flan-T5",
    ],
    [
        "NoPE / hybrid",
        "nowhere (causal mask only)",
        "implicit (a causal query counts its keys)",
        "none",
        "nothing to run out of",
        "SmolLM3, Llama 4: every 4th layer",
    ],
    [
        "KERPLE / Sandwich / FIRE",
        "attention (score bias)",
        "relative (kernel / sinusoid / MLP of Δ)",
        "2 per head / none / MLP",
        "defined; FIRE rescales to the range seen",
        "Chi 2022 / Chi 2023 / Li 2023",
    ],
]


def _learned_rows(positions: np.ndarray, d: int) -> np.ndarray:
    """Rows of the seeded random position table (only the rows asked for are drawn)."""
    return learned_table_rows(d, LEARNED_SEED, positions)


def distance_curves(params: Mapping[str, Any], deltas: np.ndarray) -> np.ndarray:
    """Rows of :data:`CURVES` at distances ``deltas`` (key ``Δ`` positions before the query).

    Sinusoidal, RoPE and ALiBi (as the weight factor ``exp(−m·Δ)``) are 1 at ``Δ = 0``;
    learned is the cosine between rows 0 and Δ of a random table with ``train_len`` rows
    (NaN from ``train_len`` on: no row); T5 and Shaw give their (integer) index. Rows 7–11
    are additive biases, 0 at ``Δ = 0``: ALiBi head 1 ``−m₁Δ``, KERPLE log and power,
    Sandwich head 1 and FIRE (toy MLP) at the last query (:func:`fire_row`).
    """
    d = params["d_model"] - params["d_model"] % 2
    dl = np.asarray(deltas, dtype=np.int64)
    slopes = alibi_slopes(params["heads"])
    sin = sinusoidal_dot_vs_offset(dl, d, params["base"])
    out = np.full((len(CURVES), dl.size), np.nan)
    out[0] = sin / sinusoidal_dot_vs_offset(np.zeros(1), d, params["base"])[0]
    out[1] = rope_decay(dl, rope_inv_freq(d, params["base"])[0])
    out[2] = np.exp(-slopes[0] * dl)
    out[3] = np.exp(-slopes.mean() * dl)
    ok = dl < params["train_len"]
    if np.any(ok):
        rows, row0 = _learned_rows(dl[ok], d), _learned_rows(np.zeros(1, dtype=np.int64), d)[0]
        out[4, ok] = rows @ row0 / (np.linalg.norm(rows, axis=1) * np.linalg.norm(row0))
    out[5] = t5_relative_bucket(-dl, True, T5_BUCKETS, T5_MAX_DISTANCE)
    out[6] = shaw_relative_index(1, SHAW_K, rows=dl, cols=np.zeros(1, dtype=np.int64))[:, 0]
    out[7] = -slopes[0] * dl + 0.0
    out[8] = kerple_log_bias(dl, params["kerple_r1"], params["kerple_r2"]) + 0.0
    out[9] = kerple_power_bias(dl, params["kerple_r1"], params["kerple_r2"]) + 0.0
    out[10] = sandwich_bias(dl, d, params["heads"], 1)
    out[11] = fire_row(params, dl)
    return out


def fire_row(params: Mapping[str, Any], deltas: np.ndarray) -> np.ndarray:
    """FIRE's bias at distance Δ seen from the last query ``i = seq_len − 1`` (the only one
    that sees every distance), ``L = train_len``; NaN where ``Δ > i``."""
    i = params["seq_len"] - 1
    dl = np.asarray(deltas, dtype=np.float64)
    out = fire_bias(np.full(dl.shape, float(i)), i - dl, params["train_len"])
    return np.where(dl <= i, out, np.nan)


def _display_curves(params: Mapping[str, Any], count: int, stride: int) -> np.ndarray:
    """:func:`distance_curves` at ``Δ = 0, s, …, (count−1)·s`` (read-only).

    The curves at a distance do not depend on how many distances are shown, so they are
    computed once for a capacity and sliced while ``seq_len`` is dragged.
    """
    cap = tablecache.capacity(count)
    key = (
        "compare-curves",
        *(params[k] for k in ("d_model", "heads", "train_len", "base", "kerple_r1", "kerple_r2")),
        int(stride),
        cap,
    )
    full = tablecache.cached(
        key,
        lambda: distance_curves(params, stride * np.arange(cap)),
        direct=lambda: distance_curves(params, stride * np.arange(count)),
    )
    out = np.vstack([full[:-1, :count], fire_row(params, stride * np.arange(count))[None]])
    out.flags.writeable = False  # FIRE follows seq_len (its last query): never cached
    return out


def _sandwich_series(
    params: Mapping[str, Any], x: np.ndarray, exact: np.ndarray, stride: int
) -> Series:
    """Sandwich head 1: exact, or — when some of its frequencies turn by π or more between
    sampled distances — its slow part with the fast cosines as the band they can add."""
    d = params["d_model"] - params["d_model"] % 2
    k = np.arange(1, d // 2 + 1, dtype=np.float64)
    freqs = 1.0 / np.power(10000.0, 2.0 * k / d)
    fast = fast_pairs(freqs, stride)
    if not fast.any():
        return Series(sampled_label("Sandwich h1", stride), x, exact)
    scale = 8.0 / params["heads"]
    slow = (np.cos(x[:, None] * freqs[None, ~fast]).sum(axis=1) - d / 2.0) / scale
    bx, by = banded(x, slow, fast.sum() / scale)
    return Series(f"Sandwich h1: {int(fast.sum())} fast cos as a band", bx, by)


def _bias_panels(
    params: Mapping[str, Any], x: np.ndarray, curves: np.ndarray, stride: int, marker: Any
) -> tuple[list[Panel], list[str]]:
    """Bias families against distance (row 0, column 3): ALiBi, KERPLE, Sandwich, FIRE."""
    n, t = params["seq_len"], params["train_len"]
    r1, r2 = params["kerple_r1"], params["kerple_r2"]
    m1 = float(alibi_slopes(params["heads"])[0])
    biases = [
        Series(sampled_label("ALiBi h1", stride), x, curves[7]),
        Series(sampled_label("KERPLE log", stride), x, curves[8]),
        Series(sampled_label("KERPLE power", stride), x, curves[9]),
        _sandwich_series(params, x, curves[10], stride),
        Series(sampled_label("FIRE (toy)", stride), x, curves[11]),
    ]
    finite = curves[BIAS_ROWS][np.isfinite(curves[BIAS_ROWS])]
    low = float(finite.min()) if finite.size else -1.0
    biases += marker(low, 0.0)
    panel = Panel(
        "biases",
        "Bias added to the score vs distance Δ (ALiBi, KERPLE, Sandwich, FIRE)",
        "curves",
        "distance Δ = i − j",
        "bias",
        series=biases,
        note=f"ALiBi head 1: −{m1:.3g}·Δ; KERPLE r₁ = {r1:g}, r₂ = {r2:g}; Sandwich d = "
        f"{params['d_model'] - params['d_model'] % 2}, head 1 of {params['heads']}; FIRE "
        f"toy MLP at query {n - 1}, L = {t}",
        row=0,
        col=3,
    )
    return [panel], []


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the compare view (distances sampled to ``ctx.max_points``)."""
    n, t = params["seq_len"], params["train_len"]
    notes = []
    if params["d_model"] % 2:
        notes.append(f"d_model {params['d_model']} rounded down to {params['d_model'] - 1}")
    d = params["d_model"] - params["d_model"] % 2
    freqs = rope_inv_freq(d, params["base"])[0]  # ω_i of the sinusoidal PE are the same θ_i
    dl, stride = sample_axis(n, ctx.max_points)
    if fast_pairs(freqs, stride).any():  # those curves become bands: two points per distance
        dl, stride = sample_axis(n, ctx.max_points // 2)
    curves = _display_curves(params, dl.size, stride)
    x = dl.astype(float)
    # Short legend names; the formula line gives each definition.
    names = ["sinusoidal", "RoPE", "ALiBi head 1", "ALiBi mean m", "learned (random)"]
    fast = fast_pairs(freqs, stride)
    same = float(np.nanmax(np.abs(curves[0] - curves[1]))) if x.size else 0.0
    notes.append(
        "sinusoidal and RoPE are the same curve (max difference here "
        f"{approx_text(same, 1)}), so one line hides the other: PE_p·PE_q = Σ_i cos((p − q)·ω_i) is "
        "the RoPE score ⟨R_p q, R_q k⟩ for q = k = (1, 0) in every pair, with θ_i = ω_i"
    )
    about: dict[str, tuple[str, ...]] = {notes[-1]: ("distance",)}  # a note's panels

    def marker(lo: float, hi: float) -> list[Series]:
        if t >= n:
            return []
        return [
            Series(f"train_len = {t}", np.array([t, t], dtype=float), np.array([lo, hi]), "dashed")
        ]

    if t >= n:
        notes.append(f"train_len {t} ≥ seq_len {n}: every distance shown was seen in training")
    # RoPE's row is sinusoidal's up to rounding (``same`` above): drawn from the same
    # array, the RoPE line hides the sinusoidal one pixel for pixel, and the window
    # leaves the hidden line's live strokes out (gui.render.line_item.LineItem.cover)
    rows = list(curves[:5])
    if same <= SAME_CURVE:
        rows[1] = rows[0]
    sim = [Series(sampled_label(nm, stride), x, rows[i]) for i, nm in enumerate(names)]
    sim += marker(-1.0, 1.0)
    if fast.any():  # a plain sample of the fast pairs aliases: draw what they can add
        slow = np.cos(x[:, None] * freqs[None, ~fast]).sum(axis=1) / freqs.size
        bx, by = banded(x, slow, fast.sum() / freqs.size)
        for i in (0, 1):
            sim[i] = Series(f"{names[i]}: {int(fast.sum())} fast pairs as a band", bx, by)
        notes.append(
            f"sinusoidal and RoPE: distances sampled every {stride}; the {int(fast.sum())} "
            f"pairs turning by π or more between samples are drawn as the band they can add"
        )
        about[notes[-1]] = ("distance",)
    idx = [
        Series(sampled_label("T5 bucket", stride), x, curves[5], "step"),
        Series(sampled_label("Shaw index", stride), x, curves[6], "step"),
    ] + marker(0.0, T5_BUCKETS)
    lanes = []
    lane_names = ("T5 / Shaw", "ALiBi", "RoPE", "sinusoidal", "learned")
    for lane, name in enumerate(lane_names):
        y = np.full(x.size, float(lane))
        if name == "learned":
            y[dl >= t] = np.nan
        lanes.append(Series(sampled_label(name, stride), x, y))
    lanes += marker(-0.5, 4.5)
    defined = ", ".join(reversed(lane_names[:-1]))  # all but learned, top row first

    def probe_defined(px: float, py: float) -> str:
        """What the lanes mean at position ``px`` (their heights are only where a
        lane is drawn): which methods give a value there."""
        p = int(round(px))
        if not 0 <= p < n:
            return ""
        if p < t:
            return f"position {p}: learned (row {p} of {t}), {defined} defined"
        return f"position {p}: learned — no value (beyond its {t} rows); {defined} defined"

    notes += [s for s in [sampled_note("distances", n, stride)] if s]
    bias_panels, bias_notes = _bias_panels(params, x, curves, stride, marker)
    notes += bias_notes
    panels = [
        Panel(
            "distance",
            "Similarity / weight factor vs distance (1 at Δ = 0)",
            "curves",
            "distance Δ = i − j",
            "relative to Δ = 0",
            series=sim,
            note="learned: random init, no structure until trained",
            row=0,
            col=0,
        ),
        Panel(
            "indices",
            f"Index used by T5 ({T5_BUCKETS} buckets, max {T5_MAX_DISTANCE}) and Shaw (k={SHAW_K})",
            "curves",
            "distance Δ (key Δ positions before the query)",
            "bucket / index",
            series=idx,
            row=0,
            col=1,
        ),
        Panel(
            "extrapolation",
            "Defined for which positions? (gap = no value)",
            "curves",
            "position / distance",
            "method",
            series=lanes,
            y_ticks=list(enumerate(lane_names)),  # a lane is named where it is drawn
            probe=probe_defined,  # (the lanes' heights are offsets, not values)
            note=f"from {t} on (rows 0..{t - 1} exist): learned has no row; the others give "
            "values never seen in training",
            row=0,
            col=2,
        ),
        Panel(
            "table",
            "How the methods compare",
            "table",
            header=list(HEADER),
            rows=[list(r) for r in TABLE],
            row=1,
            col=0,
            col_span=4,
        ),
    ]
    panels[3:3] = bias_panels
    m = alibi_slopes(params["heads"])
    formula = (  # core.formula markup; two spaces separate terms
        f"sinusoidal \\frac{{Σ_i cos(Δω_i)}}{{d/2}};  RoPE mean_i cos(Δθ_i),  θ_i = "
        f"{number(params['base'])}^{{−2i/{params['d_model'] - params['d_model'] % 2}}};  "
        f"ALiBi exp(−mΔ),  m_1 = {m[0]:.4g}, m̄ = {m.mean():.4g};  learned table "
        f"{t} × d;  T5 bucket(−Δ),  Shaw clip(−Δ, ±{SHAW_K}) + {SHAW_K}"
    )
    return ViewData(
        "compare",
        dict(params),
        panels,
        plain_text(formula),
        notes=notes,
        formula_markup=formula,
        note_panels=about,
    )


def export(params: Mapping[str, Any]) -> ExportData:
    """The ``(12, seq_len)`` distance-curve matrix over Δ = 0..seq_len−1 (rows: CURVES)."""
    n = params["seq_len"]
    check_allocation("distance curves", (len(CURVES), n))
    block = max(1, 2**20 // params["d_model"])  # Δ × frequency temporaries stay ~8 MiB
    out = np.concatenate(
        [distance_curves(params, np.arange(s, min(s + block, n))) for s in range(0, n, block)],
        axis=1,
    )
    return ExportData(
        "curves",
        out,
        ("curve", "distance"),
        "rows: " + ", ".join(CURVES) + "; columns Δ = 0..seq_len−1",
    )


SPEC = ViewSpec(
    "compare",
    "Compare",
    MODEL,
    EXPLANATION,
    compute,
    export,
    "(12, seq_len) float64 over distance Δ = 0..seq_len−1; rows: [0] sinusoidal "
    "PE_p·PE_p+Δ / (d/2), [1] RoPE mean cos(Δθ_i), [2] ALiBi head 1 exp(−m₁Δ), "
    "[3] ALiBi exp(−m̄Δ) with the mean slope, [4] learned cos(E_0, E_Δ) of a random "
    "train_len-row table (NaN from train_len on), [5] T5 bucket of −Δ "
    "(bidirectional, 32 buckets, max distance 128), [6] Shaw index clip(−Δ, ±16) + 16, "
    "[7] ALiBi head 1 bias −m₁Δ, [8] KERPLE −r₁·log(1 + r₂Δ), [9] KERPLE −r₁·Δ^r₂, "
    "[10] Sandwich head 1, [11] FIRE (toy MLP) at query seq_len − 1, L = train_len",
)
