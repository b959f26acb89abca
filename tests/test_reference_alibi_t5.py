"""Independent reference tests: ALiBi slopes/biases and T5 relative-position buckets.

``core.encodings.alibi_slopes``, ``alibi_bias`` and ``t5_relative_bucket`` are
checked against reference implementations written here from the published
sources, plus literal tables. Nothing is taken from the code under test.

References
----------
ALiBi slopes
    Press, Smith and Lewis, "Train Short, Test Long: Attention with Linear
    Biases Enables Input Length Extrapolation" (ICLR 2022), and ``get_slopes``
    in ``ofirpress/attention_with_linear_biases``
    (``fairseq/models/transformer.py``). For ``n`` a power of two the slopes
    are the geometric sequence ``2 ** (-8 h / n)``, ``h = 1..n``. Otherwise, with
    ``c`` the largest power of two below ``n``, they are the ``c`` slopes for
    ``c`` followed by ``get_slopes(2c)[0::2][:n - c]``.
ALiBi bias
    Score bias for query ``i`` and key ``j`` in head ``h``: ``-m_h * (i - j)``
    for ``j <= i`` and ``-inf`` for ``j > i`` (causal); ``-m_h * |i - j|``
    without the causal mask. The fairseq implementation adds the row-constant
    ``m_h * j`` instead, which has the same softmax; the contract here is the
    true ``i - j`` form (zero diagonal, Toeplitz).
T5 buckets
    Raffel et al., "Exploring the Limits of Transfer Learning with a Unified
    Text-to-Text Transformer" (2020), and HF transformers
    ``src/transformers/models/t5/modeling_t5.py``
    ``T5Attention._relative_position_bucket`` with
    ``relative_position = memory_position - query_position``. The reference
    below is a numpy port of that function that keeps its float32 log step.

Notes
-----
Literal tables were worked out from the rules above and cross-checked against
the reference functions, which the tests also check against each other.
"""

import math

import numpy as np
import pytest

from core.encodings import alibi_bias, alibi_slopes, relative_positions, t5_relative_bucket

# ---------------------------------------------------------------------------
# Reference implementations (independent of core)
# ---------------------------------------------------------------------------


def ref_get_slopes(n):
    """Port of Press et al.'s ``get_slopes``."""

    def power_of_2(k):
        start = 2 ** (-(2 ** -(math.log2(k) - 3)))
        return [start * start**i for i in range(k)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + ref_get_slopes(2 * closest)[0::2][: n - closest]


def ref_alibi_bias(seq_len, n_heads, causal=True):
    slopes = ref_get_slopes(n_heads)
    out = np.zeros((n_heads, seq_len, seq_len))
    for h in range(n_heads):
        for i in range(seq_len):
            for j in range(seq_len):
                if causal and j > i:
                    out[h, i, j] = -np.inf
                else:
                    out[h, i, j] = -slopes[h] * abs(i - j)
    return out


def ref_t5_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """Numpy port of HF ``T5Attention._relative_position_bucket``."""
    rp = np.asarray(relative_position, dtype=np.int64)
    buckets = np.zeros_like(rp)
    if bidirectional:
        num_buckets //= 2
        buckets += (rp > 0).astype(np.int64) * num_buckets
        rp = np.abs(rp)
    else:
        rp = -np.minimum(rp, 0)
    max_exact = num_buckets // 2
    is_small = rp < max_exact
    # HF takes the log of a float32 tensor; rp == 0 is always "small".
    scaled = np.log(np.maximum(rp, 1).astype(np.float32) / np.float32(max_exact))
    large = max_exact + (
        scaled
        / np.float32(math.log(max_distance / max_exact))
        * np.float32(num_buckets - max_exact)
    ).astype(np.int64)
    large = np.minimum(large, num_buckets - 1)
    return buckets + np.where(is_small, rp, large)


def _tol(arr):
    if np.asarray(arr).dtype == np.float64:
        return {"rtol": 1e-12, "atol": 0.0}
    return {"rtol": 1e-6, "atol": 0.0}


# ---------------------------------------------------------------------------
# alibi_slopes
# ---------------------------------------------------------------------------

SLOPES_8 = [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]

# 12 heads: c = 8 -> 2**-1 .. 2**-8, then get_slopes(16) = 2**(-k/2), k = 1..16,
# every other one from the first: k = 1, 3, 5, 7 -> 2**-0.5, 2**-1.5, 2**-2.5, 2**-3.5
SLOPES_12 = [
    0.5,
    0.25,
    0.125,
    0.0625,
    0.03125,
    0.015625,
    0.0078125,
    0.00390625,
    0.7071067811865476,
    0.3535533905932738,
    0.1767766952966369,
    0.08838834764831845,
]

# 6 heads: c = 4 -> 2**-2, 2**-4, 2**-6, 2**-8, then get_slopes(8)[0::2][:2] = 2**-1, 2**-3
SLOPES_6 = [0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125]


def test_alibi_literals_match_reference():
    np.testing.assert_allclose(ref_get_slopes(8), SLOPES_8, rtol=1e-15)
    np.testing.assert_allclose(ref_get_slopes(12), SLOPES_12, rtol=1e-15)
    np.testing.assert_allclose(ref_get_slopes(6), SLOPES_6, rtol=1e-15)


def test_alibi_slopes_8_heads_published():
    s = alibi_slopes(8)
    assert isinstance(s, np.ndarray)
    assert s.shape == (8,)
    np.testing.assert_allclose(s, SLOPES_8, **_tol(s))


def test_alibi_slopes_12_heads_literal():
    s = alibi_slopes(12)
    assert s.shape == (12,)
    np.testing.assert_allclose(s, SLOPES_12, **_tol(s))


def test_alibi_slopes_6_heads_literal():
    s = alibi_slopes(6)
    np.testing.assert_allclose(s, SLOPES_6, **_tol(s))


def test_alibi_slopes_one_head():
    s = alibi_slopes(1)
    assert s.shape == (1,)
    np.testing.assert_allclose(s, [1 / 256], **_tol(s))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 12, 16, 20, 24, 32, 40, 64, 96])
def test_alibi_slopes_reference(n):
    s = alibi_slopes(n)
    assert s.shape == (n,)
    np.testing.assert_allclose(s, ref_get_slopes(n), **_tol(s))


@pytest.mark.parametrize("n", [1, 2, 4, 16, 32])
def test_alibi_slopes_power_of_two_closed_form(n):
    s = alibi_slopes(n)
    np.testing.assert_allclose(s, 2.0 ** (-8.0 * np.arange(1, n + 1) / n), **_tol(s))


def test_alibi_slopes_16_heads_values():
    s = alibi_slopes(16)
    assert s[0] == pytest.approx(2**-0.5, rel=1e-12)
    assert s[1] == pytest.approx(0.5, rel=1e-12)
    assert s[-1] == pytest.approx(1 / 256, rel=1e-12)


# ---------------------------------------------------------------------------
# alibi_bias
# ---------------------------------------------------------------------------

NEG_INF = -np.inf

# seq_len 3, 2 heads: slopes 2**-4 = 1/16 and 2**-8 = 1/256
ALIBI_CAUSAL_3x2 = np.array(
    [
        [
            [0.0, NEG_INF, NEG_INF],
            [-0.0625, 0.0, NEG_INF],
            [-0.125, -0.0625, 0.0],
        ],
        [
            [0.0, NEG_INF, NEG_INF],
            [-0.00390625, 0.0, NEG_INF],
            [-0.0078125, -0.00390625, 0.0],
        ],
    ]
)

ALIBI_BIDIR_3x2 = np.array(
    [
        [
            [0.0, -0.0625, -0.125],
            [-0.0625, 0.0, -0.0625],
            [-0.125, -0.0625, 0.0],
        ],
        [
            [0.0, -0.00390625, -0.0078125],
            [-0.00390625, 0.0, -0.00390625],
            [-0.0078125, -0.00390625, 0.0],
        ],
    ]
)


def test_alibi_bias_literal_causal():
    b = alibi_bias(3, 2)
    assert isinstance(b, np.ndarray)
    assert b.shape == (2, 3, 3)
    np.testing.assert_array_equal(np.isneginf(b), np.isneginf(ALIBI_CAUSAL_3x2))
    finite = np.isfinite(ALIBI_CAUSAL_3x2)
    np.testing.assert_allclose(b[finite], ALIBI_CAUSAL_3x2[finite], **_tol(b))
    np.testing.assert_array_equal(ref_alibi_bias(3, 2), ALIBI_CAUSAL_3x2)


def test_alibi_bias_literal_bidirectional():
    b = alibi_bias(3, 2, causal=False)
    assert b.shape == (2, 3, 3)
    assert np.all(np.isfinite(b))
    np.testing.assert_allclose(b, ALIBI_BIDIR_3x2, **_tol(b))
    np.testing.assert_array_equal(ref_alibi_bias(3, 2, causal=False), ALIBI_BIDIR_3x2)


@pytest.mark.parametrize("seq_len,n_heads", [(1, 1), (5, 4), (7, 6), (16, 12)])
@pytest.mark.parametrize("causal", [True, False])
def test_alibi_bias_reference(seq_len, n_heads, causal):
    b = alibi_bias(seq_len, n_heads, causal=causal)
    ref = ref_alibi_bias(seq_len, n_heads, causal=causal)
    assert b.shape == (n_heads, seq_len, seq_len)
    np.testing.assert_array_equal(np.isneginf(b), np.isneginf(ref))
    finite = np.isfinite(ref)
    np.testing.assert_allclose(b[finite], ref[finite], **_tol(b))


@pytest.mark.parametrize("causal", [True, False])
def test_alibi_bias_is_true_distance_not_row_constant_shortcut(causal):
    L, H = 8, 4
    b = alibi_bias(L, H, causal=causal)
    m = np.asarray(alibi_slopes(H))
    # Zero diagonal (the m*j shortcut would put m*i there).
    for h in range(H):
        np.testing.assert_array_equal(np.diag(b[h]), np.zeros(L))
    # Toeplitz: depends only on i - j.
    np.testing.assert_allclose(b[:, 1:, 1:], b[:, :-1, :-1], **_tol(b))
    # First column of the lower triangle is -m * i, which the shortcut (0 in column 0) is not.
    np.testing.assert_allclose(b[:, :, 0], -m[:, None] * np.arange(L)[None, :], **_tol(b))
    assert np.all(b[:, 1:, 0] < 0)


def _softmax_rows(a):
    a = a - np.max(a, axis=-1, keepdims=True)
    e = np.exp(a)
    return e / e.sum(axis=-1, keepdims=True)


def test_alibi_bias_causal_softmax_equals_fairseq_shortcut():
    # Press et al. add m*j per row; softmax is shift-invariant per row, so the
    # attention weights must agree with the true -m*(i - j) bias.
    L, H = 6, 8
    b = alibi_bias(L, H, causal=True)
    m = np.asarray(ref_get_slopes(H))
    j = np.arange(L)
    shortcut = np.broadcast_to(m[:, None, None] * j[None, None, :], (H, L, L)).copy()
    shortcut[:, np.triu_indices(L, 1)[0], np.triu_indices(L, 1)[1]] = -np.inf
    assert not np.allclose(
        np.where(np.isfinite(b), b, 0), np.where(np.isfinite(shortcut), shortcut, 0)
    )
    np.testing.assert_allclose(_softmax_rows(b), _softmax_rows(shortcut), rtol=1e-6, atol=1e-12)


# ---------------------------------------------------------------------------
# t5_relative_bucket
# ---------------------------------------------------------------------------

T5_REL = [-200, -128, -64, -20, -9, -8, -1, 0, 1, 7, 8, 9, 20, 64, 127, 128, 200, 1000]

# num_buckets 32, max_distance 128.
# bidirectional: 16 buckets per side, 8 exact; key after query (rp > 0) offset by 16.
#   e.g. -20 -> 8 + int(log(20/8) / log(16) * 8) = 8 + 2 = 10; 64 -> 16 + 8 + 6 = 30.
T5_BIDIR = [15, 15, 14, 10, 8, 8, 1, 0, 17, 23, 24, 24, 26, 30, 31, 31, 31, 31]
# unidirectional: future keys (rp > 0) -> 0; 16 exact, 16 log buckets up to 128.
#   e.g. -64 -> 16 + int(log(64/16) / log(8) * 16) = 16 + 10 = 26.
T5_UNIDIR = [31, 31, 26, 17, 9, 8, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]


def test_t5_literals_match_reference():
    np.testing.assert_array_equal(ref_t5_bucket(T5_REL, True), T5_BIDIR)
    np.testing.assert_array_equal(ref_t5_bucket(T5_REL, False), T5_UNIDIR)


def test_t5_bucket_literal_bidirectional():
    got = t5_relative_bucket(np.array(T5_REL))
    assert isinstance(got, np.ndarray)
    assert np.issubdtype(got.dtype, np.integer)
    np.testing.assert_array_equal(got, T5_BIDIR)
    np.testing.assert_array_equal(
        t5_relative_bucket(np.array(T5_REL), bidirectional=True, num_buckets=32, max_distance=128),
        T5_BIDIR,
    )


def test_t5_bucket_literal_unidirectional():
    got = t5_relative_bucket(np.array(T5_REL), bidirectional=False)
    assert np.issubdtype(got.dtype, np.integer)
    np.testing.assert_array_equal(got, T5_UNIDIR)


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(
    "num_buckets,max_distance", [(32, 128), (16, 64), (64, 256), (8, 32), (32, 64)]
)
def test_t5_bucket_reference_sweep(bidirectional, num_buckets, max_distance):
    rp = np.arange(-1500, 1501)
    got = t5_relative_bucket(
        rp, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    np.testing.assert_array_equal(got, ref_t5_bucket(rp, bidirectional, num_buckets, max_distance))
    assert got.min() >= 0 and got.max() <= num_buckets - 1


def test_t5_bucket_on_memory_minus_query_matrix():
    # HF compute_bias: relative_position = memory_position - context_position,
    # i.e. the negation of relative_positions() (query - key).
    L = 40
    rp = np.arange(L)[None, :] - np.arange(L)[:, None]
    np.testing.assert_array_equal(-relative_positions(L), rp)
    got = t5_relative_bucket(rp)
    assert got.shape == (L, L)
    np.testing.assert_array_equal(got, ref_t5_bucket(rp))
    assert got[0, 0] == 0
    assert got[0, 1] == 17  # key one step after the query
    assert got[1, 0] == 1  # key one step before the query


def test_t5_bucket_monotone_in_distance():
    past = t5_relative_bucket(-np.arange(0, 300))
    future = t5_relative_bucket(np.arange(1, 300))
    assert np.all(np.diff(past) >= 0)
    assert np.all(np.diff(future) >= 0)
    assert past.max() == 15 and future.min() == 17 and future.max() == 31
