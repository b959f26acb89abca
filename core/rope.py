"""Rotary position embedding (RoPE; Su et al., 2021) and its context-extension variants.

Each pair of dimensions is *rotated* (a true 2×2 rotation using both cos and sin) by the
angle ``p·θ_i`` with ``θ_i = base^(−2i/d_rot)``. Two pairing conventions exist:

* ``"half"``: pairs ``(i, i + d_rot/2)`` — HF transformers, GPT-NeoX (``rotate_half``);
* ``"interleaved"``: pairs ``(2i, 2i+1)`` — GPT-J, Meta's original LLaMA code.

Scaled frequencies follow HF transformers' ``modeling_rope_utils`` (linear, dynamic NTK,
YaRN, Llama 3). Everything is float64 numpy unless a torch backend is passed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from core.backend import Backend, as_backend
from core.rope_fast import pair_slices, rope_cos_sin, rotate_numpy, score_numpy

ROPE_STYLES = ("half", "interleaved")
ROPE_SCALINGS = ("linear", "dynamic", "yarn", "llama3")


def _need(scaling: Mapping[str, Any], key: str) -> float:
    if scaling.get(key) is None:
        raise ValueError(f"scaling: '{key}' is required for rope_type '{scaling.get('rope_type')}'")
    return float(scaling[key])


def _need_positions(scaling: Mapping[str, Any], key: str) -> int:
    """A required count of positions: a whole number of at least 1."""
    value = _need(scaling, key)
    if not (value >= 1 and value == int(value)):
        raise ValueError(
            f"scaling: '{key}' must be a whole number of positions >= 1, got {value:g}"
        )
    return int(value)


def _base_inv_freq(base: float, d_rot: int) -> np.ndarray:
    return 1.0 / np.power(float(base), np.arange(0, 2 * (d_rot // 2), 2) / d_rot)


def yarn_get_mscale(scale: float, mscale: float = 1.0) -> float:
    """YaRN's attention temperature factor ``0.1·mscale·ln(scale) + 1`` (1 for scale ≤ 1)."""
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def yarn_correction_range(
    beta_fast: float,
    beta_slow: float,
    d_rot: int,
    base: float,
    original_max: int,
    truncate: bool = True,
) -> tuple[float, float]:
    """Dimension range over which YaRN ramps from extrapolation to interpolation."""

    def correction_dim(num_rotations: float) -> float:
        return (d_rot * math.log(original_max / (num_rotations * 2 * math.pi))) / (
            2 * math.log(base)
        )

    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, d_rot - 1)


def rope_inv_freq(
    head_dim: int,
    base: float = 10000.0,
    scaling: Mapping[str, Any] | None = None,
    seq_len: int | None = None,
    partial_rotary_factor: float = 1.0,
) -> tuple[np.ndarray, float]:
    """Inverse frequencies ``θ_i`` of RoPE, optionally scaled for longer contexts.

    Parameters
    ----------
    head_dim
        Size of one attention head.
    base
        RoPE base ("rope_theta").
    scaling
        ``None`` or an HF-style dict: ``rope_type`` in ``linear | dynamic | yarn | llama3``,
        ``factor``, ``original_max_position_embeddings``, and per type ``beta_fast`` (32),
        ``beta_slow`` (1), ``mscale``, ``mscale_all_dim``, ``attention_factor``,
        ``truncate`` (True), ``low_freq_factor`` (1), ``high_freq_factor`` (4).
    seq_len
        Current sequence length (dynamic NTK only; ``None`` means the original length).
    partial_rotary_factor
        Fraction of the head that rotates: ``d_rot = int(head_dim·partial_rotary_factor)``.

    Returns
    -------
    inv_freq : numpy.ndarray
        ``d_rot // 2`` frequencies.
    attention_factor : float
        Multiplier for cos/sin (YaRN's mscale; 1.0 otherwise).
    """
    d_rot = check_rotary_width(head_dim, partial_rotary_factor)
    if base <= 1:
        raise ValueError(f"base must be greater than 1, got {base}")
    inv_freq = _base_inv_freq(base, d_rot)
    if not scaling or scaling.get("rope_type", "default") == "default":
        return inv_freq, 1.0
    kind = scaling.get("rope_type")
    if kind not in ROPE_SCALINGS:
        raise ValueError(f"scaling: rope_type {kind!r} is not one of {', '.join(ROPE_SCALINGS)}")
    factor = _need(scaling, "factor")
    if factor < 1.0 and kind != "linear":
        raise ValueError(f"scaling: factor must be >= 1 for {kind}, got {factor}")
    if kind == "linear":
        if factor <= 0:
            raise ValueError(f"scaling: factor must be positive, got {factor}")
        return inv_freq / factor, 1.0
    orig = _need_positions(scaling, "original_max_position_embeddings")
    if kind == "dynamic":
        length = orig if seq_len is None else max(float(seq_len), orig)
        new_base = (
            base * ((factor * length / orig) - (factor - 1)) ** (d_rot / (d_rot - 2))
            if d_rot > 2
            else base
        )
        return _base_inv_freq(new_base, d_rot), 1.0
    if kind == "yarn":
        return _yarn(scaling, base, d_rot, factor, orig)
    return _llama3(scaling, inv_freq, factor, orig), 1.0


def _yarn(
    scaling: Mapping[str, Any], base: float, d_rot: int, factor: float, orig: int
) -> tuple[np.ndarray, float]:
    attention_factor = scaling.get("attention_factor")
    mscale, mscale_all_dim = scaling.get("mscale"), scaling.get("mscale_all_dim")
    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = yarn_get_mscale(factor, mscale) / yarn_get_mscale(
                factor, mscale_all_dim
            )
        else:
            attention_factor = yarn_get_mscale(factor)
    beta_fast = scaling.get("beta_fast") or 32.0
    beta_slow = scaling.get("beta_slow") or 1.0
    truncate = scaling.get("truncate", True)
    pos_freqs = np.power(float(base), np.arange(0, 2 * (d_rot // 2), 2) / d_rot)
    extrapolation = 1.0 / pos_freqs
    interpolation = 1.0 / (factor * pos_freqs)
    low, high = yarn_correction_range(beta_fast, beta_slow, d_rot, base, orig, truncate)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(d_rot // 2) - low) / (high - low), 0.0, 1.0)
    extrapolation_weight = 1.0 - ramp
    inv_freq = interpolation * (1 - extrapolation_weight) + extrapolation * extrapolation_weight
    return inv_freq, float(attention_factor)


def _llama3(
    scaling: Mapping[str, Any], inv_freq: np.ndarray, factor: float, orig: int
) -> np.ndarray:
    low_ff = float(scaling.get("low_freq_factor", 1.0))
    high_ff = float(scaling.get("high_freq_factor", 4.0))
    if high_ff <= low_ff:
        raise ValueError("scaling: high_freq_factor must be greater than low_freq_factor")
    low_freq_wavelen, high_freq_wavelen = orig / low_ff, orig / high_ff
    wavelen = 2 * math.pi / inv_freq
    scaled = np.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth = (orig / wavelen - low_ff) / (high_ff - low_ff)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = ~(wavelen < high_freq_wavelen) & ~(wavelen > low_freq_wavelen)
    return np.where(medium, smoothed, scaled)


def rope_pair_indices(d_rot: int, style: str = "half") -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(a, b)`` of the dimensions forming rotation pair ``i`` (``(a_i, b_i)``)."""
    if style not in ROPE_STYLES:
        raise ValueError(f"style must be one of {', '.join(ROPE_STYLES)}, got {style!r}")
    half = d_rot // 2
    if style == "half":
        return np.arange(half), np.arange(half) + half
    return np.arange(0, 2 * half, 2), np.arange(1, 2 * half, 2)


def apply_rope(
    x: Any,
    positions: Any,
    inv_freq: Any,
    style: str = "half",
    *,
    attention_factor: float = 1.0,
    backend: Backend | str | None = None,
) -> np.ndarray:
    """Rotate the first ``2·len(inv_freq)`` dims of ``x`` by position-dependent angles.

    Parameters
    ----------
    x
        Array of shape ``(..., seq, d)`` with ``d >= 2·len(inv_freq)``.
    positions
        ``seq`` positions (integers or floats).
    inv_freq
        Frequencies ``θ_i`` (from :func:`rope_inv_freq`).
    style
        ``"half"`` (HF/NeoX: pairs ``(i, i+d_rot/2)``) or ``"interleaved"``
        (GPT-J/Meta: pairs ``(2i, 2i+1)``).
    attention_factor
        Scales cos and sin (YaRN); 1 keeps the rotation norm-preserving.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; dims beyond ``d_rot`` pass through unchanged.
    """
    be = as_backend(backend)
    inv = np.asarray(inv_freq, dtype=np.float64).ravel()
    xa = be.asarray(x)
    d = xa.shape[-1]
    d_rot = 2 * inv.size
    if inv.size == 0:
        raise ValueError("inv_freq is empty: nothing to rotate")
    if d_rot > d:
        raise ValueError(f"rotary width {d_rot} exceeds the last dimension of x ({d})")
    pos = np.asarray(positions, dtype=np.float64).ravel()
    if xa.ndim < 2 or pos.size != xa.shape[-2]:
        raise ValueError(
            f"x must be (..., seq, d) with seq == len(positions) ({pos.size}); "
            f"got shape {tuple(xa.shape)}"
        )
    a_idx, b_idx = rope_pair_indices(d_rot, style)
    if be.name == "numpy":
        return rotate_numpy(xa, pos, inv, pair_slices(inv.size, style), attention_factor)
    angles = be.asarray(pos[:, None] * inv[None, :])
    cos = be.xp.cos(angles) * attention_factor
    sin = be.xp.sin(angles) * attention_factor
    xa_a, xa_b = xa[..., a_idx], xa[..., b_idx]
    out = xa.clone()
    out[..., a_idx] = xa_a * cos - xa_b * sin
    out[..., b_idx] = xa_a * sin + xa_b * cos
    return be.to_numpy(out)


def check_rotary_width(head_dim: int, partial_rotary_factor: float) -> int:
    """Return ``d_rot`` or raise a clear ValueError when it is odd or below 2."""
    d_rot = int(head_dim * partial_rotary_factor)
    if d_rot < 2 or d_rot % 2:
        raise ValueError(
            f"rotary width int({head_dim}·{partial_rotary_factor:g}) = {d_rot} "
            "must be even and at least 2 (dimensions rotate in pairs)"
        )
    return d_rot


def snapped_rotary_width(head_dim: int, partial_rotary_factor: float) -> tuple[int, str]:
    """``d_rot`` for a slider position, snapped to the nearest valid (even, ≥ 2) width.

    ``int(head_dim·fraction)`` is odd for many fractions (HF would fail: dimensions rotate
    in pairs). Returns the even width at or below it (at least 2, at most the head) and a
    note saying what was snapped ("" when nothing was).
    """
    raw = int(head_dim * partial_rotary_factor)
    top = int(head_dim) - int(head_dim) % 2
    d_rot = min(max(2, raw - raw % 2), top)
    if d_rot < 2:
        raise ValueError(f"head_dim {head_dim} is too small to rotate (needs at least 2)")
    if d_rot == raw:
        return d_rot, ""
    why = "odd" if raw % 2 else "below 2"
    return d_rot, (
        f"rotary width int({head_dim}·{partial_rotary_factor:g}) = {raw} is {why} "
        f"(dimensions rotate in pairs): snapped to d_rot = {d_rot}"
    )


def rope_score_vs_offset(
    q: np.ndarray,
    k: np.ndarray,
    offsets: np.ndarray,
    inv_freq: np.ndarray,
    style: str = "half",
    query_position: int = 0,
) -> np.ndarray:
    """``⟨R_m q, R_n k⟩`` for ``n = m − Δ`` over offsets Δ, with ``m = query_position``.

    The result is the same for every ``query_position`` (RoPE scores depend on m − n
    only); the views plot two query positions on top of each other to show it.
    """
    offsets = np.asarray(offsets, dtype=np.float64)
    m = float(query_position)
    qr = apply_rope(q[None, :], [m], inv_freq, style)[0]
    inv = np.asarray(inv_freq, dtype=np.float64).ravel()
    k = np.asarray(k, dtype=np.float64)
    if k.ndim == 1 and k.size == qr.size >= 2 * inv.size:  # numpy: no (Δ, d) rotated keys
        return score_numpy(qr, k, m - offsets, inv, pair_slices(inv.size, style))
    kr = apply_rope(np.broadcast_to(k, (offsets.size, k.size)), m - offsets, inv_freq, style)
    return np.asarray(kr @ qr)


def rope_decay(offsets: np.ndarray, inv_freq: np.ndarray) -> np.ndarray:
    """Long-range decay: mean over pairs of ``cos(Δ·θ_i)`` (the score for q = k = 1)."""
    return np.asarray(rope_cos_sin(offsets, inv_freq)[0].mean(axis=1))
