"""Rotary position embedding (RoPE; Su et al., 2021) and its context-extension variants.

Each pair of dimensions is *rotated* (a true 2×2 rotation using both cos and sin) by the
angle ``p·θ_i`` with ``θ_i = base^(−2i/d_rot)``. Two pairing conventions exist:

* ``"half"``: pairs ``(i, i + d_rot/2)`` — HF transformers, GPT-NeoX (``rotate_half``);
* ``"interleaved"``: pairs ``(2i, 2i+1)`` — GPT-J, Meta's original LLaMA code.

Scaled frequencies follow HF transformers' ``modeling_rope_utils`` (linear, dynamic NTK,
YaRN with DeepSeek's ``mscale``/``mscale_all_dim``, LongRoPE, Llama 3.1). Also here:
RoFormer's long-term decay bound, xPos (Sun et al., 2022), and the multimodal position
ids and rotations of Qwen2-VL (M-RoPE, and the vision encoder's 2-D RoPE). Everything is
float64 numpy unless a torch backend is passed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from core.backend import Backend, as_backend
from core.rope_fast import pair_slices, rope_cos_sin, rotate_numpy, score_numpy

ROPE_STYLES = ("half", "interleaved")
ROPE_SCALINGS = ("linear", "dynamic", "yarn", "longrope", "llama3")


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
        ``None`` or an HF-style dict: ``rope_type`` in
        ``linear | dynamic | yarn | longrope | llama3``, ``factor``,
        ``original_max_position_embeddings``, and per type ``beta_fast`` (32),
        ``beta_slow`` (1), ``mscale``, ``mscale_all_dim``, ``attention_factor``,
        ``truncate`` (True), ``low_freq_factor`` (1), ``high_freq_factor`` (4),
        ``short_factor`` and ``long_factor`` (LongRoPE: one number per pair).
    seq_len
        Current sequence length (dynamic NTK; LongRoPE switches to ``long_factor`` when
        it exceeds the original context; ``None`` means the original length).
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
    if kind == "longrope":
        return _longrope(scaling, inv_freq, factor, orig, seq_len)
    return _llama3(scaling, inv_freq, factor, orig), 1.0


def longrope_attention_factor(factor: float, original_max: int) -> float:
    """LongRoPE's default attention factor ``sqrt(1 + ln(factor) / ln(original))``
    (1 for ``factor <= 1``), as HF ``_compute_longrope_parameters``."""
    if factor <= 1.0:
        return 1.0
    return math.sqrt(1.0 + math.log(factor) / math.log(original_max))


def _longrope(
    scaling: Mapping[str, Any],
    inv_freq: np.ndarray,
    factor: float,
    orig: int,
    seq_len: int | None,
) -> tuple[np.ndarray, float]:
    """HF ``_compute_longrope_parameters``: ``θ_i / ext_i`` with ``ext = long_factor``
    once ``seq_len > original_max_position_embeddings``, else ``short_factor``."""
    if orig < 2:
        raise ValueError("scaling: LongRoPE needs original_max_position_embeddings >= 2")
    lists = {}
    for key in ("short_factor", "long_factor"):
        values = scaling.get(key)
        if values is None:
            raise ValueError(f"scaling: '{key}' is required for rope_type 'longrope'")
        arr = np.asarray(values, dtype=np.float64).ravel()
        if arr.size != inv_freq.size:
            raise ValueError(
                f"scaling: '{key}' has {arr.size} numbers, expected d_rot/2 = {inv_freq.size}"
            )
        if not (np.all(np.isfinite(arr)) and np.all(arr > 0)):
            raise ValueError(f"scaling: '{key}' must hold positive numbers")
        lists[key] = arr
    ext = lists["long_factor"] if seq_len and seq_len > orig else lists["short_factor"]
    attention_factor = scaling.get("attention_factor")
    if attention_factor is None:
        attention_factor = longrope_attention_factor(factor, orig)
    return inv_freq / ext, float(attention_factor)


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
    """Mean over pairs of ``cos(Δ·θ_i)``: the score for ``q = k = (1, 0)`` in every pair,
    divided by ``d_rot/2``. It oscillates (it is not a decay bound; see
    :func:`roformer_decay_bound`)."""
    return np.asarray(rope_cos_sin(offsets, inv_freq)[0].mean(axis=1))


def roformer_partial_sums(offsets: Any, inv_freq: Any) -> np.ndarray:
    """``|S_j|`` for ``j = 1..d_rot/2`` with ``S_j = Σ_{k<j} e^{iΔθ_k}`` (RoFormer §3.4.3),
    shape ``(len(offsets), d_rot/2)``."""
    cos, sin = rope_cos_sin(offsets, inv_freq)
    return np.asarray(np.hypot(np.cumsum(cos, axis=1), np.cumsum(sin, axis=1)))


def roformer_decay_bound(offsets: Any, inv_freq: Any) -> np.ndarray:
    """RoFormer's relative upper bound ``(1/(d/2))·Σ_{j=1}^{d/2} |S_j|`` (§3.4.3, Fig. 2).

    By Abel summation, ``|Σ_i h_i e^{iΔθ_i}| ≤ (max_i |h_{i+1} − h_i|)·Σ_j |S_j|`` for the
    per-pair products ``h_i`` of q and k: the bound's Δ-dependent part decays (with
    ripples) as the relative distance Δ grows. At Δ = 0 it is ``(d/2 + 1)/2``.
    """
    return np.asarray(roformer_partial_sums(offsets, inv_freq).mean(axis=1))


def xpos_zeta(d_rot: int) -> np.ndarray:
    """xPos per-pair decay rates ``ζ_i = (2i + 0.4·d) / (1.4·d)``, ``i = 0..d/2 − 1``
    (torchscale ``XPOS``: ``(arange(0, d, 2) + 0.4·d) / (1.4·d)``); all in [0.29, 1)."""
    if d_rot < 2:
        raise ValueError(f"xPos needs at least one pair (d_rot >= 2), got {d_rot}")
    d = 2 * (int(d_rot) // 2)
    return (np.arange(0, d, 2, dtype=np.float64) + 0.4 * d) / (1.4 * d)


def xpos_weights(offsets: Any, d_rot: int, scale_base: float) -> np.ndarray:
    """``ζ_i^(Δ/scale_base)``, shape ``(len(offsets), d_rot/2)``: xPos scales q at m by
    ``ζ^(m/b)`` and k at n by ``ζ^(−n/b)``, so pair i of the score gains ``ζ_i^((m−n)/b)``."""
    if not scale_base > 0:
        raise ValueError(f"xPos scale_base must be positive, got {scale_base}")
    delta = np.asarray(offsets, dtype=np.float64).ravel()
    return np.asarray(np.power(xpos_zeta(d_rot)[None, :], delta[:, None] / float(scale_base)))


def xpos_decay(offsets: Any, inv_freq: Any, scale_base: float) -> np.ndarray:
    """Mean over pairs of ``ζ_i^(Δ/b)·cos(Δθ_i)``: :func:`rope_decay` with xPos."""
    inv = np.asarray(inv_freq, dtype=np.float64).ravel()
    w = xpos_weights(offsets, 2 * inv.size, scale_base)
    return np.asarray((w * rope_cos_sin(offsets, inv)[0]).mean(axis=1))


# ---------------------------------------------------------------- multimodal (Qwen2-VL)
def mrope_position_ids(
    text_before: int, grid_t: int, grid_h: int, grid_w: int, text_after: int
) -> np.ndarray:
    """Qwen2-VL position ids ``(3, seq)`` = (temporal, height, width) for ``text_before``
    text tokens, one image or video of ``grid_t × grid_h × grid_w`` LLM tokens (the grid
    after the 2×2 spatial merge) and ``text_after`` text tokens, as HF
    ``Qwen2VLModel.get_rope_index``: text gets ``t = h = w`` = running index; the image's
    patches get ``(t, h, w) + start``; text after the image resumes at the maximum + 1.
    """
    for name, v in (("text_before", text_before), ("text_after", text_after)):
        if v < 0:
            raise ValueError(f"{name} must be >= 0, got {v}")
    for name, v in (("grid_t", grid_t), ("grid_h", grid_h), ("grid_w", grid_w)):
        if v < 1:
            raise ValueError(f"{name} must be >= 1, got {v}")
    parts = [np.broadcast_to(np.arange(text_before), (3, text_before))]
    t, h, w = np.meshgrid(np.arange(grid_t), np.arange(grid_h), np.arange(grid_w), indexing="ij")
    parts.append(np.stack([t.ravel(), h.ravel(), w.ravel()]) + text_before)
    start = int(parts[-1].max()) + 1
    parts.append(np.broadcast_to(np.arange(text_after) + start, (3, text_after)))
    return np.concatenate(parts, axis=1).astype(np.int64)


def mrope_pair_axes(half: int, section: tuple[int, ...] | list[int]) -> np.ndarray:
    """Which position axis (0 = t, 1 = h, 2 = w) turns each of the ``half`` pairs.

    HF ``apply_multimodal_rotary_pos_emb`` splits the ``cat(freqs, freqs)`` cos/sin of
    width ``2·half`` into ``mrope_section * 2`` and takes chunk ``k`` from axis ``k % 3``:
    pair ``i`` (and its partner ``i + half``) follows the section that holds ``i``.
    """
    sec = [int(s) for s in section]
    if len(sec) != 3 or min(sec) < 0:
        raise ValueError(f"mrope_section must be three sizes >= 0, got {sec}")
    if sum(sec) != half:
        raise ValueError(f"mrope_section {sec} sums to {sum(sec)}, but d_rot/2 = {half}")
    return np.repeat(np.arange(3), sec)


def mrope_angles(positions: Any, inv_freq: Any, section: tuple[int, ...] | list[int]) -> np.ndarray:
    """M-RoPE angles ``(seq, half)``: pair i turns by ``pos[axis_i]·θ_i`` with the axis of
    its section (:func:`mrope_pair_axes`); ``positions`` is ``(3, seq)``."""
    inv = np.asarray(inv_freq, dtype=np.float64).ravel()
    pos = np.asarray(positions, dtype=np.float64)
    axes = mrope_pair_axes(inv.size, section)
    return np.asarray(pos[axes, :].T * inv[None, :])


def vision_2d_angles(rows: Any, cols: Any, head_dim: int, base: float = 10000.0) -> np.ndarray:
    """2-D RoPE of the Qwen2-VL vision encoder, angles ``(n, head_dim/2)``.

    HF ``VisionRotaryEmbedding(head_dim // 2)`` has ``θ_j = base^(−2j/(head_dim/2))``,
    ``j < head_dim/4``; the first ``head_dim/4`` pairs turn by ``row·θ_j``, the next
    ``head_dim/4`` by ``col·θ_j`` (``cat(table[h], table[w])``, then ``rotate_half``).
    """
    if head_dim < 4 or head_dim % 4:
        raise ValueError(f"2-D RoPE needs head_dim divisible by 4, got {head_dim}")
    dim = head_dim // 2
    theta = 1.0 / np.power(float(base), np.arange(0, dim, 2, dtype=np.float64) / dim)
    r = np.asarray(rows, dtype=np.float64).ravel()[:, None]
    c = np.asarray(cols, dtype=np.float64).ravel()[:, None]
    return np.concatenate([r * theta[None, :], c * theta[None, :]], axis=1)
