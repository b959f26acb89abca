"""Independent reference tests: sinusoidal, relative-index and learned encodings.

These tests check ``core.encodings`` against small reference implementations
written directly from the published formulas, plus literal values worked out
by hand. Nothing here is derived from the code under test.

References
----------
sinusoidal
    Vaswani et al., "Attention Is All You Need" (2017), section 3.5::

        PE[p, 2i]     = sin(p * w_i)
        PE[p, 2i + 1] = cos(p * w_i),     w_i = base ** (-2i / d_model)

    With an odd ``d_model`` the last column is the sine of the next frequency.
    Since ``sin a sin b + cos a cos b = cos(a - b)``, for even ``d_model``
    ``PE_p . PE_q = sum_i cos((p - q) * w_i)``, which depends only on ``p - q``.
relative_positions
    The matrix of signed offsets ``R[i, j] = i - j`` (query minus key), as in the
    course notes: row 0 of the 6 x 6 matrix is ``[0, -1, -2, -3, -4, -5]``.
shaw_relative_index
    Shaw, Uszkoreit and Vaswani, "Self-Attention with Relative Position
    Representations" (2018), eq. (3)-(4): the embedding index for the pair
    (query i, key j) is ``clip(j - i, -k, k) + k``, so it lies in ``[0, 2k]``.
learned_lookup
    A learned absolute table (BERT/GPT-2 style): row ``p`` of a
    ``(max_positions, d)`` table; positions outside ``[0, max_positions)`` are a
    ``ValueError`` whose message names the limit.

Notes
-----
Tolerances follow the dtype returned by the implementation: tight for float64,
float32-level otherwise. The torch parity test uses ``pytest.importorskip`` for
torch only.
"""

import math

import numpy as np
import pytest

from core.encodings import (
    learned_lookup,
    relative_positions,
    shaw_relative_index,
    sinusoidal,
)

# ---------------------------------------------------------------------------
# Reference implementations (independent of core)
# ---------------------------------------------------------------------------


def ref_sinusoidal(seq_len, d_model, base=10000.0):
    """Element-by-element sinusoidal table, straight from Vaswani et al."""
    pe = np.zeros((seq_len, d_model), dtype=np.float64)
    for p in range(seq_len):
        for col in range(d_model):
            i = col // 2
            w = base ** (-2.0 * i / d_model)
            pe[p, col] = math.sin(p * w) if col % 2 == 0 else math.cos(p * w)
    return pe


def ref_shaw_index(seq_len, k):
    out = np.zeros((seq_len, seq_len), dtype=np.int64)
    for i in range(seq_len):
        for j in range(seq_len):
            out[i, j] = min(max(j - i, -k), k) + k
    return out


def _tol(arr, scale=1.0):
    """Comparison tolerance matched to the dtype under test."""
    if np.asarray(arr).dtype == np.float64:
        return {"rtol": 1e-10, "atol": 1e-12}
    return {"rtol": 2e-5, "atol": 2e-6 * scale}


# ---------------------------------------------------------------------------
# sinusoidal
# ---------------------------------------------------------------------------

# seq_len=3, d_model=4: w_0 = 1, w_1 = 10000**(-2/4) = 0.01
# rows: [sin p, cos p, sin 0.01p, cos 0.01p]
SIN_3x4 = np.array(
    [
        [0.0, 1.0, 0.0, 1.0],
        [0.8414709848078965, 0.5403023058681398, 0.009999833334166664, 0.9999500004166653],
        [0.9092974268256817, -0.4161468365471424, 0.01999866669333308, 0.9998000066665778],
    ]
)

# seq_len=3, d_model=5: w_0 = 1, w_1 = 10000**(-0.4), w_2 = 10000**(-0.8)
# w_1 = 0.025118864315095794, w_2 = 0.0006309573444801930; last column is sin(p*w_2)
SIN_3x5 = np.array(
    [
        [0.0, 1.0, 0.0, 1.0, 0.0],
        [
            0.8414709848078965,
            0.5403023058681398,
            0.025116222909773774,
            0.9996845379152098,
            0.0006309573026154199,
        ],
        [
            0.9092974268256817,
            -0.4161468365471424,
            0.050216599387465206,
            0.9987383506934931,
            0.0012619143540422218,
        ],
    ]
)


def test_sinusoidal_hand_computed_3x4():
    pe = sinusoidal(3, 4)
    assert isinstance(pe, np.ndarray)
    assert pe.shape == (3, 4)
    assert np.issubdtype(pe.dtype, np.floating)
    np.testing.assert_allclose(pe, SIN_3x4, **_tol(pe))


def test_sinusoidal_literals_match_reference():
    # Guards the hand-written literals themselves.
    np.testing.assert_allclose(ref_sinusoidal(3, 4), SIN_3x4, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(ref_sinusoidal(3, 5), SIN_3x5, rtol=1e-13, atol=1e-15)


def test_sinusoidal_odd_d_model_last_column_is_sine():
    pe = sinusoidal(3, 5)
    assert pe.shape == (3, 5)
    np.testing.assert_allclose(pe, SIN_3x5, **_tol(pe))
    w2 = 10000.0 ** (-4.0 / 5.0)
    np.testing.assert_allclose(pe[:, 4], np.sin(np.arange(3) * w2), **_tol(pe))


@pytest.mark.parametrize("seq_len,d_model", [(1, 2), (7, 6), (16, 33), (50, 64), (9, 1)])
def test_sinusoidal_matches_reference(seq_len, d_model):
    pe = sinusoidal(seq_len, d_model)
    assert pe.shape == (seq_len, d_model)
    np.testing.assert_allclose(pe, ref_sinusoidal(seq_len, d_model), **_tol(pe, scale=seq_len))


def test_sinusoidal_position_zero_row():
    pe = sinusoidal(4, 8)
    np.testing.assert_array_equal(pe[0], np.array([0, 1, 0, 1, 0, 1, 0, 1], dtype=float))


def test_sinusoidal_dot_product_identity():
    d = 16
    pe = sinusoidal(40, d)
    w = 10000.0 ** (-np.arange(0, d, 2) / d)
    for p, q in [(0, 0), (3, 7), (7, 3), (10, 20), (25, 5), (39, 0)]:
        expected = np.cos((p - q) * w).sum()
        assert float(pe[p] @ pe[q]) == pytest.approx(expected, rel=1e-5, abs=1e-5)
    # Same offset -> same dot product.
    dots = [float(pe[p] @ pe[p + 4]) for p in range(0, 30, 5)]
    np.testing.assert_allclose(dots, dots[0], rtol=1e-5, atol=1e-5)
    # Every row has squared norm d/2.
    np.testing.assert_allclose((pe * pe).sum(axis=1), d / 2, rtol=1e-5)


@pytest.mark.parametrize("base", [100.0, 500000.0])
def test_sinusoidal_base_parameter(base):
    pe = sinusoidal(12, 8, base=base)
    np.testing.assert_allclose(pe, ref_sinusoidal(12, 8, base=base), **_tol(pe, scale=12))
    default = sinusoidal(12, 8)
    # w_0 = 1 for every base, so the first pair of columns is unchanged ...
    np.testing.assert_allclose(pe[:, :2], default[:, :2], **_tol(pe, scale=12))
    # ... while the higher-frequency-index columns move.
    assert not np.allclose(pe[1:, 2:], default[1:, 2:], atol=1e-4)


def test_sinusoidal_base_100_literal():
    # base 100, d_model 4: w_1 = 100**(-1/2) = 0.1 -> PE[1] = [sin 1, cos 1, sin .1, cos .1]
    pe = sinusoidal(2, 4, base=100.0)
    expected = np.array(
        [
            [0.0, 1.0, 0.0, 1.0],
            [0.8414709848078965, 0.5403023058681398, 0.09983341664682815, 0.9950041652780258],
        ]
    )
    np.testing.assert_allclose(pe, expected, **_tol(pe))


@pytest.mark.parametrize("seq_len,d_model", [(0, 4), (4, 0), (0, 0)])
def test_sinusoidal_zero_sizes_raise(seq_len, d_model):
    with pytest.raises(ValueError):
        sinusoidal(seq_len, d_model)


def test_sinusoidal_torch_parity_float32():
    torch = pytest.importorskip("torch")
    seq_len, d = 64, 32
    pos = torch.arange(seq_len, dtype=torch.float32)[:, None]
    w = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    ref = torch.zeros(seq_len, d, dtype=torch.float32)
    ref[:, 0::2] = torch.sin(pos * w)
    ref[:, 1::2] = torch.cos(pos * w)
    pe = sinusoidal(seq_len, d)
    assert isinstance(pe, np.ndarray)
    np.testing.assert_allclose(pe, ref.numpy(), rtol=1e-4, atol=5e-5)


# ---------------------------------------------------------------------------
# relative_positions
# ---------------------------------------------------------------------------

REL_6 = np.array(
    [
        [0, -1, -2, -3, -4, -5],
        [1, 0, -1, -2, -3, -4],
        [2, 1, 0, -1, -2, -3],
        [3, 2, 1, 0, -1, -2],
        [4, 3, 2, 1, 0, -1],
        [5, 4, 3, 2, 1, 0],
    ]
)


def test_relative_positions_course_matrix():
    r = relative_positions(6)
    assert isinstance(r, np.ndarray)
    assert r.shape == (6, 6)
    assert np.issubdtype(r.dtype, np.integer)
    np.testing.assert_array_equal(r, REL_6)
    np.testing.assert_array_equal(r[0], [0, -1, -2, -3, -4, -5])


@pytest.mark.parametrize("n", [1, 2, 9])
def test_relative_positions_general(n):
    r = relative_positions(n)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    np.testing.assert_array_equal(r, i - j)
    np.testing.assert_array_equal(r, -r.T)


# ---------------------------------------------------------------------------
# shaw_relative_index
# ---------------------------------------------------------------------------

# L=5, k=2: clip(j - i, -2, 2) + 2
SHAW_5_2 = np.array(
    [
        [2, 3, 4, 4, 4],
        [1, 2, 3, 4, 4],
        [0, 1, 2, 3, 4],
        [0, 0, 1, 2, 3],
        [0, 0, 0, 1, 2],
    ]
)


def test_shaw_relative_index_literal():
    idx = shaw_relative_index(5, 2)
    assert isinstance(idx, np.ndarray)
    assert idx.shape == (5, 5)
    assert np.issubdtype(idx.dtype, np.integer)
    np.testing.assert_array_equal(idx, SHAW_5_2)
    np.testing.assert_array_equal(ref_shaw_index(5, 2), SHAW_5_2)


@pytest.mark.parametrize("seq_len,k", [(1, 1), (4, 1), (6, 3), (6, 10), (10, 4)])
def test_shaw_relative_index_reference(seq_len, k):
    idx = shaw_relative_index(seq_len, k)
    np.testing.assert_array_equal(idx, ref_shaw_index(seq_len, k))
    assert idx.min() >= 0 and idx.max() <= 2 * k
    # Diagonal (j == i) is the centre index k.
    np.testing.assert_array_equal(np.diag(idx), np.full(seq_len, k))


# ---------------------------------------------------------------------------
# learned_lookup
# ---------------------------------------------------------------------------


def _table(max_positions=10, d=4):
    return np.arange(max_positions * d, dtype=np.float64).reshape(max_positions, d) * 0.5 - 3.0


def test_learned_lookup_rows():
    table = _table()
    out = learned_lookup(table, np.array([0, 3, 9, 3]))
    assert isinstance(out, np.ndarray)
    expected = np.array(
        [
            [-3.0, -2.5, -2.0, -1.5],
            [3.0, 3.5, 4.0, 4.5],
            [15.0, 15.5, 16.0, 16.5],
            [3.0, 3.5, 4.0, 4.5],
        ]
    )
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(out, table[[0, 3, 9, 3]])


def test_learned_lookup_all_positions_identity():
    table = _table(7, 3)
    np.testing.assert_array_equal(learned_lookup(table, np.arange(7)), table)


@pytest.mark.parametrize("bad", [10, 11, 512, -1])
def test_learned_lookup_out_of_range_names_limit(bad):
    table = _table(10, 4)
    with pytest.raises(ValueError) as excinfo:
        learned_lookup(table, np.array([0, bad]))
    assert "10" in str(excinfo.value)


def test_learned_lookup_limit_follows_table_size():
    table = _table(37, 2)
    learned_lookup(table, np.array([36]))  # last valid row is fine
    with pytest.raises(ValueError) as excinfo:
        learned_lookup(table, np.array([37]))
    assert "37" in str(excinfo.value)
