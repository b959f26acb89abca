"""Independent reference tests: rotary position embeddings (RoPE) and RoPE scaling.

``core.encodings.rope_inv_freq`` and ``core.encodings.apply_rope`` are checked
against reference implementations written here from the published sources.
Nothing is taken from the code under test.

References
----------
RoPE
    Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding"
    (2021). Each pair of dimensions is rotated by the 2 x 2 matrix
    ``[[cos t, -sin t], [sin t, cos t]]`` with ``t = position * inv_freq_i`` and
    ``inv_freq_i = base ** (-2i / d_rot)``. Hence ``<R_m q, R_n k>`` depends
    only on ``m - n``.
Pairing styles
    ``"half"``: dimension ``i`` pairs with ``i + d_rot/2`` (HF transformers
    ``rotate_half``: ``x * cos + rotate_half(x) * sin`` with
    ``cos/sin = cat(freqs, freqs)``). ``"interleaved"``: ``2i`` pairs with
    ``2i + 1`` (GPT-J, Meta LLaMA ``view_as_complex``).
Scaling
    HF transformers ``src/transformers/modeling_rope_utils.py``:
    ``_compute_default_rope_parameters``, ``_compute_linear_scaling_rope_parameters``
    (``inv_freq / factor``), ``_compute_dynamic_ntk_parameters``
    (``base * (factor * max(seq_len, orig) / orig - (factor - 1)) ** (d / (d - 2))``),
    ``_compute_yarn_parameters`` (Peng et al., "YaRN", 2023: correction range
    with floor/ceil when ``truncate``, linear ramp, ``get_mscale``) and
    ``_compute_llama3_parameters`` (wavelength bands with smooth interpolation).
    The reference functions below are ports of those functions to float64 numpy,
    taking the scaling dict directly instead of a model config (so ``factor`` is
    used as given).

Notes
-----
Only integer positions are exercised. Tolerances follow the dtype returned by
the implementation. Torch is imported only by the parity test, through
``pytest.importorskip``.
"""

import itertools
import math

import numpy as np
import pytest

from core.encodings import apply_rope, rope_inv_freq

# ---------------------------------------------------------------------------
# Reference implementations (independent of core)
# ---------------------------------------------------------------------------


def ref_default_inv_freq(head_dim, base=10000.0, partial_rotary_factor=1.0):
    d = int(head_dim * partial_rotary_factor)
    return 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d)), d


def _get_mscale(scale, mscale=1.0):
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def ref_rope_inv_freq(
    head_dim, base=10000.0, scaling=None, seq_len=None, partial_rotary_factor=1.0
):
    """Float64 port of HF ``ROPE_INIT_FUNCTIONS`` for default/linear/dynamic/yarn/llama3."""
    inv_freq, d = ref_default_inv_freq(head_dim, base, partial_rotary_factor)
    if scaling is None:
        return inv_freq, 1.0
    kind = scaling["rope_type"]
    factor = scaling["factor"]
    if kind == "linear":
        return inv_freq / factor, 1.0
    if kind == "dynamic":
        orig = scaling["original_max_position_embeddings"]
        L = seq_len if seq_len is not None and seq_len > orig else orig
        new_base = base * ((factor * L / orig) - (factor - 1)) ** (d / (d - 2))
        return 1.0 / (new_base ** (np.arange(0, d, 2, dtype=np.float64) / d)), 1.0
    if kind == "yarn":
        orig = scaling["original_max_position_embeddings"]
        attention_factor = scaling.get("attention_factor")
        mscale = scaling.get("mscale")
        mscale_all_dim = scaling.get("mscale_all_dim")
        if attention_factor is None:
            if mscale and mscale_all_dim:
                attention_factor = _get_mscale(factor, mscale) / _get_mscale(factor, mscale_all_dim)
            else:
                attention_factor = _get_mscale(factor)
        beta_fast = scaling.get("beta_fast") or 32
        beta_slow = scaling.get("beta_slow") or 1
        truncate = scaling.get("truncate", True)

        def correction_dim(num_rot):
            return (d * math.log(orig / (num_rot * 2 * math.pi))) / (2 * math.log(base))

        low = correction_dim(beta_fast)
        high = correction_dim(beta_slow)
        if truncate:
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, d - 1)
        if low == high:
            high += 0.001
        ramp = np.clip((np.arange(d // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)
        extrap_factor = 1.0 - ramp
        pos_freqs = base ** (np.arange(0, d, 2, dtype=np.float64) / d)
        inv_extrap = 1.0 / pos_freqs
        inv_interp = 1.0 / (factor * pos_freqs)
        return inv_interp * (1 - extrap_factor) + inv_extrap * extrap_factor, float(
            attention_factor
        )
    if kind == "llama3":
        low_ff = scaling.get("low_freq_factor", 1.0)
        high_ff = scaling.get("high_freq_factor", 4.0)
        old_ctx = scaling["original_max_position_embeddings"]
        low_wl = old_ctx / low_ff
        high_wl = old_ctx / high_ff
        wavelen = 2 * math.pi / inv_freq
        out = np.where(wavelen > low_wl, inv_freq / factor, inv_freq)
        smooth = (old_ctx / wavelen - low_ff) / (high_ff - low_ff)
        smoothed = (1 - smooth) * out / factor + smooth * out
        medium = ~(wavelen < high_wl) & ~(wavelen > low_wl)
        return np.where(medium, smoothed, out), 1.0
    raise AssertionError(kind)


def _rot2(theta):
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s], [s, c]])


def ref_apply_rope(x, positions, inv_freq, style="half"):
    """Rotate each dimension pair with an explicit 2 x 2 rotation matrix."""
    x = np.asarray(x, dtype=np.float64)
    out = x.copy()
    n = len(inv_freq)
    half = n
    for s, pos in enumerate(positions):
        for i in range(n):
            a, b = (i, i + half) if style == "half" else (2 * i, 2 * i + 1)
            R = _rot2(float(pos) * float(inv_freq[i]))
            pair = np.stack([x[..., s, a], x[..., s, b]], axis=-1)  # (..., 2)
            rotated = pair @ R.T
            out[..., s, a] = rotated[..., 0]
            out[..., s, b] = rotated[..., 1]
    return out


def _half_to_interleaved_perm(d, d_rot):
    """perm such that x_interleaved = x_half[..., perm] (tail dims unchanged)."""
    h = d_rot // 2
    perm = []
    for i in range(h):
        perm += [i, i + h]
    return np.array(perm + list(range(d_rot, d)))


def _tol(arr):
    if np.asarray(arr).dtype == np.float64:
        return {"rtol": 1e-9, "atol": 1e-12}
    return {"rtol": 1e-5, "atol": 1e-6}


def _check_inv(got, expected):
    inv, att = got
    exp_inv, exp_att = expected
    inv = np.asarray(inv)
    assert inv.shape == exp_inv.shape
    np.testing.assert_allclose(inv, exp_inv, **_tol(inv))
    assert float(att) == pytest.approx(exp_att, rel=1e-9, abs=1e-12)


# ---------------------------------------------------------------------------
# rope_inv_freq: default
# ---------------------------------------------------------------------------


def test_inv_freq_default_literal_head_dim_8():
    # d_rot = 8: base ** (-[0, 2, 4, 6] / 8) = [1, 0.1, 0.01, 0.001]
    inv, att = rope_inv_freq(8)
    assert isinstance(inv, np.ndarray)
    np.testing.assert_allclose(inv, [1.0, 0.1, 0.01, 0.001], **_tol(inv))
    assert att == 1.0


@pytest.mark.parametrize(
    "head_dim,base", [(64, 10000.0), (128, 10000.0), (128, 500000.0), (2, 10.0)]
)
def test_inv_freq_default_reference(head_dim, base):
    got = rope_inv_freq(head_dim, base=base)
    assert len(got[0]) == head_dim // 2
    _check_inv(got, ref_rope_inv_freq(head_dim, base=base))


@pytest.mark.parametrize(
    "head_dim,prf,n", [(64, 0.5, 16), (128, 0.25, 16), (80, 0.4, 16), (96, 0.5, 24)]
)
def test_inv_freq_partial_rotary(head_dim, prf, n):
    inv, att = rope_inv_freq(head_dim, partial_rotary_factor=prf)
    assert len(inv) == n
    d_rot = 2 * n
    np.testing.assert_allclose(inv, 10000.0 ** (-np.arange(0, d_rot, 2) / d_rot), **_tol(inv))
    assert att == 1.0


@pytest.mark.parametrize("head_dim,prf", [(10, 0.5), (7, 1.0), (64, 0.25 + 1 / 64)])
def test_inv_freq_odd_rotary_width_raises(head_dim, prf):
    # int(10 * 0.5) = 5, int(7 * 1.0) = 7, int(64 * 0.265625) = 17: all odd.
    assert int(head_dim * prf) % 2 == 1
    with pytest.raises(ValueError):
        rope_inv_freq(head_dim, partial_rotary_factor=prf)


# ---------------------------------------------------------------------------
# rope_inv_freq: linear
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("head_dim,factor", [(64, 2.0), (128, 4.0), (128, 8.0)])
def test_inv_freq_linear_is_unscaled_over_factor(head_dim, factor):
    base_inv, _ = rope_inv_freq(head_dim)
    inv, att = rope_inv_freq(head_dim, scaling={"rope_type": "linear", "factor": factor})
    np.testing.assert_allclose(
        inv, np.asarray(base_inv) / factor, rtol=4 * np.finfo(inv.dtype).eps, atol=0
    )
    assert att == 1.0
    _check_inv(
        (inv, att), ref_rope_inv_freq(head_dim, scaling={"rope_type": "linear", "factor": factor})
    )


# ---------------------------------------------------------------------------
# rope_inv_freq: dynamic NTK
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seq_len", [None, 100, 2048])
def test_inv_freq_dynamic_within_original_context_is_unscaled(seq_len):
    scaling = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 2048}
    inv, att = rope_inv_freq(64, scaling=scaling, seq_len=seq_len)
    ref, _ = ref_default_inv_freq(64)
    np.testing.assert_allclose(inv, ref, **_tol(inv))
    assert att == 1.0


def test_inv_freq_dynamic_hand_checked():
    # factor 2, seq_len = 2 * orig: base' = 10000 * (2 * 2 - 1) ** (64 / 62)
    scaling = {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 2048}
    inv, att = rope_inv_freq(64, scaling=scaling, seq_len=4096)
    new_base = 10000.0 * 3.0 ** (64.0 / 62.0)
    assert new_base == pytest.approx(31082.2366672, rel=1e-8)
    assert inv[0] == pytest.approx(1.0)
    assert inv[1] == pytest.approx(new_base ** (-2.0 / 64.0), rel=1e-6)
    assert inv[-1] == pytest.approx(new_base ** (-62.0 / 64.0), rel=1e-6)
    assert att == 1.0


@pytest.mark.parametrize(
    "head_dim,factor,orig,seq_len,base",
    [
        (64, 2.0, 2048, 3000, 10000.0),
        (128, 4.0, 2048, 16384, 10000.0),
        (128, 8.0, 8192, 9000, 500000.0),
        (64, 8.0, 8192, 100000, 10000.0),
    ],
)
def test_inv_freq_dynamic_reference(head_dim, factor, orig, seq_len, base):
    scaling = {"rope_type": "dynamic", "factor": factor, "original_max_position_embeddings": orig}
    got = rope_inv_freq(head_dim, base=base, scaling=scaling, seq_len=seq_len)
    _check_inv(got, ref_rope_inv_freq(head_dim, base=base, scaling=scaling, seq_len=seq_len))


def test_inv_freq_dynamic_partial_rotary_uses_rotary_width():
    scaling = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 2048}
    got = rope_inv_freq(128, scaling=scaling, seq_len=8192, partial_rotary_factor=0.5)
    # d in the exponent d / (d - 2) is the rotary width 64, not head_dim 128.
    _check_inv(
        got, ref_rope_inv_freq(128, scaling=scaling, seq_len=8192, partial_rotary_factor=0.5)
    )
    new_base = 10000.0 * (4.0 * 4 - 3) ** (64 / 62)
    assert got[0][1] == pytest.approx(new_base ** (-2 / 64), rel=1e-6)


# ---------------------------------------------------------------------------
# rope_inv_freq: YaRN
# ---------------------------------------------------------------------------


def test_inv_freq_yarn_hand_checked_bands():
    # head_dim 128, base 1e4, orig 4096, beta_fast 32, beta_slow 1:
    # correction dims 20.94 -> floor 20 and 45.03 -> ceil 46.
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
    d = 128
    low = d * math.log(4096 / (32 * 2 * math.pi)) / (2 * math.log(10000.0))
    high = d * math.log(4096 / (1 * 2 * math.pi)) / (2 * math.log(10000.0))
    assert (math.floor(low), math.ceil(high)) == (20, 46)
    inv, att = rope_inv_freq(d, scaling=scaling)
    unscaled, _ = ref_default_inv_freq(d)
    assert len(inv) == 64
    np.testing.assert_allclose(inv[:21], unscaled[:21], **_tol(inv))  # ramp == 0: extrapolate
    np.testing.assert_allclose(inv[46:], unscaled[46:] / 4.0, **_tol(inv))  # ramp == 1: interpolate
    # In between: blend with ramp (i - 20) / 26.
    for i in (21, 33, 45):
        r = (i - 20) / 26
        expected = unscaled[i] / 4.0 * r + unscaled[i] * (1 - r)
        assert inv[i] == pytest.approx(expected, rel=1e-6)
    assert att == pytest.approx(0.1 * math.log(4.0) + 1.0, rel=1e-12)
    assert att == pytest.approx(1.138629436111989, rel=1e-12)


YARN_CASES = [
    (64, 2.0, 2048, {}),
    (64, 8.0, 8192, {}),
    (128, 4.0, 2048, {}),
    (128, 8.0, 8192, {}),
    (128, 4.0, 4096, {"beta_fast": 16, "beta_slow": 2}),
    (128, 4.0, 4096, {"truncate": False}),
    (64, 8.0, 2048, {"truncate": False, "beta_fast": 24}),
    (128, 40.0, 4096, {"mscale": 1.0, "mscale_all_dim": 1.0}),
    (128, 40.0, 4096, {"mscale": 1.0, "mscale_all_dim": 0.5}),
    (64, 16.0, 4096, {"mscale": 0.707, "mscale_all_dim": 0.707}),
    (64, 4.0, 2048, {"mscale": 1.0}),  # only one given -> default attention factor
    (128, 4.0, 2048, {"attention_factor": 0.8}),
]


@pytest.mark.parametrize("head_dim,factor,orig,extra", YARN_CASES)
def test_inv_freq_yarn_reference(head_dim, factor, orig, extra):
    scaling = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": orig}
    scaling.update(extra)
    got = rope_inv_freq(head_dim, scaling=scaling)
    _check_inv(got, ref_rope_inv_freq(head_dim, scaling=scaling))


def test_inv_freq_yarn_with_base_and_partial_rotary():
    scaling = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 8192}
    for base, prf in [(500000.0, 1.0), (10000.0, 0.5), (1000000.0, 0.25)]:
        got = rope_inv_freq(128, base=base, scaling=scaling, partial_rotary_factor=prf)
        assert len(got[0]) == int(128 * prf) // 2
        _check_inv(
            got, ref_rope_inv_freq(128, base=base, scaling=scaling, partial_rotary_factor=prf)
        )


@pytest.mark.parametrize(
    "factor,mscale,mscale_all_dim,expected",
    [
        (2.0, None, None, 1.0693147180559945),  # 0.1 ln 2 + 1
        (8.0, None, None, 1.2079441541679836),  # 0.1 ln 8 + 1
        (40.0, 1.0, 1.0, 1.0),
        # (0.1 ln 40 + 1) / (0.05 ln 40 + 1)
        (40.0, 1.0, 0.5, 1.1557219901962608),
        (40.0, 0.5, 1.0, 0.865259992007406),
    ],
)
def test_inv_freq_yarn_attention_factor_values(factor, mscale, mscale_all_dim, expected):
    scaling = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": 4096}
    if mscale is not None:
        scaling["mscale"] = mscale
    if mscale_all_dim is not None:
        scaling["mscale_all_dim"] = mscale_all_dim
    _, att = rope_inv_freq(128, scaling=scaling)
    assert att == pytest.approx(expected, rel=1e-12)
    assert ref_rope_inv_freq(128, scaling=scaling)[1] == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------------------
# rope_inv_freq: Llama 3
# ---------------------------------------------------------------------------


def _llama3(factor=8.0, orig=8192, low=1.0, high=4.0):
    return {
        "rope_type": "llama3",
        "factor": factor,
        "original_max_position_embeddings": orig,
        "low_freq_factor": low,
        "high_freq_factor": high,
    }


def test_inv_freq_llama3_bands_hand_checked():
    # Llama 3.1 settings: head_dim 128, theta 500000, factor 8, orig 8192, low 1, high 4.
    base = 500000.0
    inv, att = rope_inv_freq(128, base=base, scaling=_llama3())
    unscaled, _ = ref_default_inv_freq(128, base)
    wavelen = 2 * math.pi / unscaled
    high_band = wavelen < 8192 / 4.0
    low_band = wavelen > 8192 / 1.0
    medium = ~high_band & ~low_band
    assert high_band.sum() > 0 and low_band.sum() > 0 and medium.sum() > 0
    np.testing.assert_allclose(inv[high_band], unscaled[high_band], **_tol(inv))
    np.testing.assert_allclose(inv[low_band], unscaled[low_band] / 8.0, **_tol(inv))
    # Medium band: strictly between the two extremes, smooth = (8192 / wavelen - 1) / 3.
    assert np.all(inv[medium] < unscaled[medium])
    assert np.all(inv[medium] > unscaled[medium] / 8.0)
    smooth = (8192 / wavelen[medium] - 1.0) / 3.0
    np.testing.assert_allclose(
        inv[medium], (1 - smooth) * unscaled[medium] / 8.0 + smooth * unscaled[medium], **_tol(inv)
    )
    assert att == 1.0


@pytest.mark.parametrize(
    "head_dim,base,factor,orig,low,high",
    [
        (128, 500000.0, 8.0, 8192, 1.0, 4.0),
        (64, 500000.0, 32.0, 8192, 1.0, 4.0),  # Llama 3.2 style factor
        (128, 10000.0, 4.0, 2048, 1.0, 4.0),
        (64, 10000.0, 2.0, 2048, 2.0, 8.0),
    ],
)
def test_inv_freq_llama3_reference(head_dim, base, factor, orig, low, high):
    scaling = _llama3(factor, orig, low, high)
    got = rope_inv_freq(head_dim, base=base, scaling=scaling)
    _check_inv(got, ref_rope_inv_freq(head_dim, base=base, scaling=scaling))


@pytest.mark.parametrize(
    "head_dim,factor,orig,kind",
    list(
        itertools.product([64, 128], [2.0, 4.0, 8.0], [2048, 8192], ["linear", "dynamic", "yarn"])
    ),
)
def test_inv_freq_grid_reference(head_dim, factor, orig, kind):
    scaling = {"rope_type": kind, "factor": factor, "original_max_position_embeddings": orig}
    seq_len = 3 * orig if kind == "dynamic" else None
    got = rope_inv_freq(head_dim, scaling=scaling, seq_len=seq_len)
    _check_inv(got, ref_rope_inv_freq(head_dim, scaling=scaling, seq_len=seq_len))


# ---------------------------------------------------------------------------
# apply_rope
# ---------------------------------------------------------------------------


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


@pytest.mark.parametrize("style", ["half", "interleaved"])
@pytest.mark.parametrize("shape", [(6, 8), (2, 5, 16), (2, 3, 4, 12)])
def test_apply_rope_matches_rotation_matrices(rng, style, shape):
    x = rng.standard_normal(shape)
    d = shape[-1]
    inv, _ = ref_default_inv_freq(d)
    pos = np.arange(shape[-2]) * 3 + 1
    out = apply_rope(x, pos, inv, style=style)
    assert isinstance(out, np.ndarray)
    assert out.shape == x.shape
    np.testing.assert_allclose(out, ref_apply_rope(x, pos, inv, style), **_tol(out))


def test_apply_rope_hand_checked_single_pair():
    # d = 2, inv_freq = [1]: position 1 rotates (1, 0) to (cos 1, sin 1), (0, 1) to (-sin 1, cos 1).
    x = np.array([[1.0, 0.0], [0.0, 1.0]])
    pos = np.array([1, 1])
    inv = np.array([1.0])
    c, s = math.cos(1.0), math.sin(1.0)
    for style in ("half", "interleaved"):
        out = apply_rope(x, pos, inv, style=style)
        np.testing.assert_allclose(out, [[c, s], [-s, c]], **_tol(out))


def test_apply_rope_hand_checked_d4_styles_differ():
    # d = 4, inv_freq = [1, 0.01], position 2, x = [1, 2, 3, 4].
    x = np.array([[1.0, 2.0, 3.0, 4.0]])
    pos = np.array([2])
    inv = np.array([1.0, 0.01])
    c0, s0 = math.cos(2.0), math.sin(2.0)
    c1, s1 = math.cos(0.02), math.sin(0.02)
    # half: pairs (0, 2) angle 2, (1, 3) angle 0.02
    half = [1 * c0 - 3 * s0, 2 * c1 - 4 * s1, 3 * c0 + 1 * s0, 4 * c1 + 2 * s1]
    # interleaved: pairs (0, 1) angle 2, (2, 3) angle 0.02
    inter = [1 * c0 - 2 * s0, 2 * c0 + 1 * s0, 3 * c1 - 4 * s1, 4 * c1 + 3 * s1]
    got_half = apply_rope(x, pos, inv, style="half")
    got_inter = apply_rope(x, pos, inv, style="interleaved")
    np.testing.assert_allclose(got_half[0], half, **_tol(got_half))
    np.testing.assert_allclose(got_inter[0], inter, **_tol(got_inter))
    assert not np.allclose(got_half, got_inter)


def test_apply_rope_default_style_is_half(rng):
    x = rng.standard_normal((4, 8))
    inv, _ = ref_default_inv_freq(8)
    pos = np.arange(4)
    np.testing.assert_allclose(
        apply_rope(x, pos, inv), ref_apply_rope(x, pos, inv, "half"), **_tol(x)
    )


@pytest.mark.parametrize("style", ["half", "interleaved"])
def test_apply_rope_preserves_norm(rng, style):
    x = rng.standard_normal((3, 10, 32))
    inv, _ = ref_default_inv_freq(32)
    out = apply_rope(x, np.arange(10) * 7, inv, style=style)
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-6)


@pytest.mark.parametrize("style", ["half", "interleaved"])
def test_apply_rope_position_zero_is_identity(rng, style):
    x = rng.standard_normal((5, 16))
    inv, _ = ref_default_inv_freq(16)
    out = apply_rope(x, np.zeros(5, dtype=np.int64), inv, style=style)
    np.testing.assert_allclose(out, x, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("style", ["half", "interleaved"])
def test_apply_rope_relative_property(rng, style):
    d = 16
    inv, _ = ref_default_inv_freq(d)
    q = rng.standard_normal(d)
    k = rng.standard_normal(d)

    def rot(v, p):
        return apply_rope(v[None, :], np.array([p]), inv, style=style)[0]

    for offset in (0, 3, -5, 17):
        pairs = [(m, m - offset) for m in (20, 37, 60, 150)]
        dots = [float(rot(q, m) @ rot(k, n)) for m, n in pairs]
        np.testing.assert_allclose(dots, dots[0], rtol=1e-6, atol=1e-9)
        # ... and equals the score with the query at the offset and the key at 0.
        assert dots[0] == pytest.approx(
            float(rot(q, offset) @ k) if offset >= 0 else float(q @ rot(k, -offset)),
            rel=1e-6,
            abs=1e-9,
        )
    # Different offsets generally give different scores.
    assert abs(float(rot(q, 3) @ k) - float(rot(q, 4) @ k)) > 1e-6


@pytest.mark.parametrize("style", ["half", "interleaved"])
def test_apply_rope_partial_rotation_passes_tail(rng, style):
    d, n = 20, 6  # rotate the first 12 dims, pass 8 through
    x = rng.standard_normal((2, 7, d))
    inv, _ = ref_default_inv_freq(12)
    assert len(inv) == n
    pos = np.arange(7) + 2
    out = apply_rope(x, pos, inv, style=style)
    np.testing.assert_array_equal(out[..., 2 * n :], x[..., 2 * n :])
    np.testing.assert_allclose(out, ref_apply_rope(x, pos, inv, style), **_tol(out))
    assert not np.allclose(out[..., : 2 * n], x[..., : 2 * n])


def test_apply_rope_partial_with_core_inv_freq(rng):
    inv, _ = rope_inv_freq(64, partial_rotary_factor=0.25)
    assert len(inv) == 8
    x = rng.standard_normal((9, 64))
    pos = np.arange(9)
    for style in ("half", "interleaved"):
        out = apply_rope(x, pos, inv, style=style)
        np.testing.assert_array_equal(out[:, 16:], x[:, 16:])
        np.testing.assert_allclose(out, ref_apply_rope(x, pos, inv, style), **_tol(out))


@pytest.mark.parametrize("d,d_rot", [(8, 8), (16, 16), (20, 12)])
def test_apply_rope_interleaved_equals_permuted_half(rng, d, d_rot):
    x = rng.standard_normal((3, 6, d))
    inv, _ = ref_default_inv_freq(d_rot)
    pos = np.arange(6) * 5
    perm = _half_to_interleaved_perm(d, d_rot)
    half = apply_rope(x, pos, inv, style="half")
    inter = apply_rope(x[..., perm], pos, inv, style="interleaved")
    np.testing.assert_allclose(inter, half[..., perm], **_tol(half))


def test_apply_rope_end_to_end_with_scaled_inv_freq(rng):
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048}
    inv, _ = rope_inv_freq(32, scaling=scaling)
    x = rng.standard_normal((4, 32))
    pos = np.array([0, 1, 2047, 8000])
    ref_inv, _ = ref_rope_inv_freq(32, scaling=scaling)
    out = apply_rope(x, pos, inv)
    np.testing.assert_allclose(out, ref_apply_rope(x, pos, ref_inv, "half"), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("style", ["half", "interleaved"])
def test_apply_rope_rotary_width_wider_than_x_raises(rng, style):
    inv, _ = ref_default_inv_freq(8)  # needs d >= 8
    x = rng.standard_normal((3, 6))
    with pytest.raises(ValueError):
        apply_rope(x, np.arange(3), inv, style=style)


def test_apply_rope_torch_parity_float32():
    torch = pytest.importorskip("torch")
    gen = torch.Generator().manual_seed(0)
    seq, d = 12, 16
    x = torch.randn(2, seq, d, generator=gen, dtype=torch.float32)
    inv = 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
    pos = torch.arange(seq, dtype=torch.float32)
    freqs = torch.outer(pos, inv)

    # HF: x * cos + rotate_half(x) * sin with cos/sin = cat(freqs, freqs)
    emb = torch.cat((freqs, freqs), dim=-1)
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    ref_half = x * emb.cos() + torch.cat((-x2, x1), dim=-1) * emb.sin()

    # Meta LLaMA: complex multiplication of adjacent pairs
    xc = torch.view_as_complex(x.reshape(2, seq, d // 2, 2).contiguous())
    ref_inter = torch.view_as_real(xc * torch.polar(torch.ones_like(freqs), freqs)).reshape(
        2, seq, d
    )

    xn = x.numpy().astype(np.float64)
    got_half = apply_rope(xn, np.arange(seq), inv.numpy().astype(np.float64), style="half")
    got_inter = apply_rope(xn, np.arange(seq), inv.numpy().astype(np.float64), style="interleaved")
    np.testing.assert_allclose(got_half, ref_half.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_inter, ref_inter.numpy(), rtol=1e-4, atol=1e-5)
