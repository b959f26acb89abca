"""The fast per-frame paths (Toeplitz matrices, cached tables) equal plain computations.

Each optimisation in ``core`` is checked against the straightforward formula it replaces:
the Toeplitz similarity against ``PE @ PE.T``, cached table slices against a fresh
computation, the in-place RoPE rotation against the fancy-indexed original. Cached
arrays must be read-only, so a caller cannot corrupt later frames.
"""

from __future__ import annotations

import contextlib
import importlib.util

import numpy as np
import pytest

from core import tablecache
from core.alibi import alibi_bias
from core.attention import _projections, token_embeddings
from core.learned import init_learned_table
from core.memory import memory_budget, set_memory_budget
from core.relative import relative_positions, shaw_relative_index, t5_relative_bucket
from core.rope import (
    apply_rope,
    rope_cos_sin,
    rope_decay,
    rope_inv_freq,
    rope_pair_indices,
    rope_score_vs_offset,
)
from core.sinusoidal import (
    similarity_grid,
    sinusoidal,
    sinusoidal_dot_vs_offset,
    sinusoidal_similarity,
    sinusoidal_strided,
)
from core.toeplitz import any_inf, as_dtype, by_offset, even_step, offsets, toeplitz_view
from core.viewdata import ComputeContext
from core.views import VIEWS
from core.views import compare as compare_view
from core.views import learned as learned_view

LECTURE = ComputeContext(max_cells=620, max_points=2048)


def view(view_id, ctx=LECTURE, **changes):
    spec = VIEWS[view_id]
    return spec.compute(spec.model.validate(changes, partial=True), ctx)


def arrays(data):
    """Every array a view hands out: heatmap images and curve values."""
    out = []
    for p in data.panels:
        if p.image is not None:
            out.append((p.key, np.asarray(p.image)))
        out += [(f"{p.key}/{s.name}", np.asarray(s.y)) for s in p.series]
    return out


@pytest.fixture(autouse=True)
def fresh_cache():
    tablecache.clear()
    yield
    tablecache.clear()


# ------------------------------------------------------------------ Toeplitz helper
def test_toeplitz_view_equals_gather():
    rng = np.random.default_rng(0)
    for c, k in ((1, 1), (5, 5), (8, 3), (64, 40)):
        v = rng.standard_normal((3, 2 * c - 1))
        t = toeplitz_view(v, k)
        a, b = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
        np.testing.assert_array_equal(t, v[:, a - b + c - 1])
        np.testing.assert_array_equal(toeplitz_view(v[1], k), v[1][a - b + c - 1])
        assert not t.flags.writeable
    with pytest.raises(ValueError):
        toeplitz_view(np.zeros(4), 2)  # even length
    with pytest.raises(ValueError):
        toeplitz_view(np.zeros(5), 4)  # count above c
    assert even_step(np.arange(0, 50, 7)) == 7 and even_step(np.array([3])) == 1
    assert even_step(np.array([0, 1, 3])) is None and even_step(np.array([0.0, 1.0])) is None
    np.testing.assert_array_equal(offsets(3, 2), [-4, -2, 0, 2, 4])


def test_toeplitz_views_are_recognised_by_their_layout():
    """by_offset gives a Toeplitz view's 2k − 1 values and None for anything else;
    as_dtype and any_inf work on those values and agree with the dense answers."""
    rng = np.random.default_rng(1)
    for c, k in ((1, 1), (6, 6), (9, 4), (300, 257)):
        v = rng.integers(-50, 50, 2 * c - 1)
        t = toeplitz_view(v, k)
        np.testing.assert_array_equal(toeplitz_view(by_offset(t), k), t)
        as32 = as_dtype(t, np.float32)
        assert as32.dtype == np.float32 and by_offset(as32) is not None  # still a view
        np.testing.assert_array_equal(as32, np.asarray(t, dtype=np.float32))
        assert not any_inf(t)
        w = v.astype(float)
        w[rng.integers(0, 2 * c - 1)] = -np.inf
        masked = toeplitz_view(w, k)
        assert any_inf(masked) == bool(np.isinf(np.asarray(masked)).any())
    dense = np.array(toeplitz_view(np.arange(7), 4))  # Toeplitz values, dense memory
    for other in (dense, dense.T, dense[:, ::-1], np.zeros((3, 4)), np.zeros(5)):
        assert by_offset(other) is None
        np.testing.assert_array_equal(as_dtype(other, np.float32), np.asarray(other, np.float32))
    assert by_offset(np.broadcast_to(np.float64(2.0), (4, 4))) is None  # strides (0, 0)
    assert by_offset(toeplitz_view(np.arange(7), 4)[:3, :3]) is not None


# ------------------------------------------------------------------ sinusoidal
@pytest.mark.parametrize("d", [1, 2, 7, 32, 33, 128, 129])
@pytest.mark.parametrize("base", [10.0, 10000.0, 1e6])
def test_toeplitz_similarity_equals_matmul(d, base):
    for n, step, start in ((1, 1, 0), (17, 1, 0), (300, 1, 0), (120, 3, 0), (9, 5, 11)):
        pos = start + step * np.arange(n)
        pe = sinusoidal(int(pos.max()) + 1, d, base, positions=pos)
        sim = similarity_grid(pos, d, base)
        np.testing.assert_allclose(sim, pe @ pe.T, rtol=0, atol=1e-10 * max(d, 1))
        np.testing.assert_allclose(
            sinusoidal_similarity(n, d, base, positions=pos),
            pe @ pe.T,
            rtol=0,
            atol=1e-10 * max(d, 1),
        )


def test_similarity_even_d_equals_offset_identity_exactly():
    for d, n, step in ((64, 200, 1), (512, 512, 1), (40, 77, 4)):
        k = n
        values = sinusoidal_dot_vs_offset(step * (np.arange(2 * k - 1) - (k - 1)), d)
        ref = values[np.arange(k)[:, None] - np.arange(k)[None, :] + k - 1]
        np.testing.assert_array_equal(similarity_grid(step * np.arange(n), d, 10000.0), ref)


def test_similarity_uneven_positions_and_public_api():
    pos = np.array([0, 3, 4, 10])
    pe = sinusoidal(11, 9, positions=pos)
    np.testing.assert_allclose(similarity_grid(pos, 9), pe @ pe.T, atol=1e-12)
    full = sinusoidal_similarity(50, 16)
    assert full.flags.writeable  # public API: a fresh array
    np.testing.assert_allclose(full, sinusoidal(50, 16) @ sinusoidal(50, 16).T, atol=1e-12)


@pytest.mark.parametrize("d, pos_step, dim_step", [(512, 1, 1), (300, 2, 3), (33, 1, 1)])
def test_sinusoidal_strided_slices_equal_fresh(d, pos_step, dim_step):
    dims = np.arange(0, d, dim_step)
    for count in (384, 500, 512, 400, 1, 600):  # a drag, both directions, a new capacity
        got = sinusoidal_strided(count, d, 10000.0, pos_step=pos_step, dim_step=dim_step)
        ref = sinusoidal(count * pos_step, d, positions=pos_step * np.arange(count), dims=dims)
        np.testing.assert_array_equal(got, ref)


def test_cached_tables_are_read_only():
    first = sinusoidal_strided(512, 512)  # a key seen once is computed directly ...
    assert first.flags.writeable and tablecache.cache_info()[0] == 0
    table = sinusoidal_strided(512, 512)  # ... and cached when asked for again
    assert not table.flags.writeable and tablecache.cache_info()[0] == 1
    with pytest.raises(ValueError):
        table[0, 0] = 5.0
    np.testing.assert_array_equal(sinusoidal_strided(512, 512), sinusoidal(512, 512))


# ------------------------------------------------------------------ cache bounds
def test_cache_is_bounded_and_respects_memory_budget():
    for i in range(tablecache.MAX_ENTRIES + 10):
        tablecache.cached(("test", i), lambda: np.zeros(1000))
    entries, size = tablecache.cache_info()
    assert entries <= tablecache.MAX_ENTRIES and size <= tablecache.total_limit()
    assert tablecache.capacity(1) == 64 and tablecache.capacity(513) == 1024
    old = memory_budget()
    try:
        set_memory_budget(2**20)  # 1 MiB: nothing over 128 KiB may be cached
        tablecache.clear()
        big = tablecache.cached(("test", "big"), lambda: np.zeros(2**15))
        assert tablecache.cache_info()[0] == 0 and not big.flags.writeable
        assert not tablecache.fits(2**15)
        np.testing.assert_array_equal(sinusoidal_strided(400, 512), sinusoidal(400, 512))
        assert tablecache.cache_info()[0] == 0
    finally:
        set_memory_budget(old)


# ------------------------------------------------------------------ RoPE
def _apply_rope_reference(x, positions, inv, style, af=1.0):
    """The original formula: fancy-indexed pairs, direct cos/sin."""
    a_idx, b_idx = rope_pair_indices(2 * inv.size, style)
    angles = np.asarray(positions, dtype=np.float64)[:, None] * inv[None, :]
    cos, sin = np.cos(angles) * af, np.sin(angles) * af
    x = np.asarray(x, dtype=np.float64)
    xa, xb = x[..., a_idx], x[..., b_idx]
    out = x * 1.0
    out[..., a_idx] = xa * cos - xb * sin
    out[..., b_idx] = xa * sin + xb * cos
    return out


def test_rope_cos_sin_equals_direct():
    inv, _ = rope_inv_freq(64, 10000.0)
    for pos in (
        np.arange(-511, 512),
        np.arange(5, 2000, 3),
        7 - np.arange(1023.0),
        np.linspace(-3.3, 900.1, 5000),
        np.array([0.0, 1e6]),
    ):
        cos, sin = rope_cos_sin(pos, inv)
        angles = pos[:, None] * inv[None, :]
        np.testing.assert_array_equal(cos, np.cos(angles))
        np.testing.assert_array_equal(sin, np.sin(angles))
        cos[...] = 0.0  # a fresh array: writing does not touch the cache
    np.testing.assert_array_equal(
        rope_cos_sin(np.arange(-511, 512), inv)[0],
        np.cos(np.arange(-511, 512)[:, None] * inv[None, :]),
    )
    offs = np.arange(512.0)
    np.testing.assert_array_equal(
        rope_decay(offs, inv), np.cos(offs[:, None] * inv[None, :]).mean(axis=1)
    )


@pytest.mark.parametrize("style", ["half", "interleaved"])
@pytest.mark.parametrize("head_dim, prf, af", [(64, 1.0, 1.0), (64, 0.5, 1.0), (16, 1.0, 1.3)])
def test_apply_rope_equals_reference(style, head_dim, prf, af):
    inv, _ = rope_inv_freq(head_dim, 500.0, partial_rotary_factor=prf)
    rng = np.random.default_rng(1)
    for shape, pos in (
        ((300, head_dim), np.arange(300) - 40),
        ((2, 3, 70, head_dim), np.arange(70) * 2.5),
        ((1023, head_dim), 600 - np.arange(1023)),
    ):
        x = rng.standard_normal(shape)
        got = apply_rope(x, pos, inv, style, attention_factor=af)
        np.testing.assert_array_equal(got, _apply_rope_reference(x, pos, inv, style, af))
    k = rng.standard_normal(head_dim)
    pos = np.arange(1023) - 300
    got = apply_rope(np.broadcast_to(k, (pos.size, head_dim)), pos, inv, style)
    np.testing.assert_array_equal(
        got, _apply_rope_reference(np.broadcast_to(k, (pos.size, head_dim)), pos, inv, style)
    )


@pytest.mark.parametrize("style", ["half", "interleaved"])
@pytest.mark.parametrize("head_dim, prf", [(64, 1.0), (64, 0.25), (8, 1.0)])
def test_rope_score_equals_rotated_keys(style, head_dim, prf):
    inv, _ = rope_inv_freq(head_dim, 10000.0, partial_rotary_factor=prf)
    q, k = np.random.default_rng(7).standard_normal((2, head_dim))
    offs = np.arange(-511.0, 512.0)
    for m in (0, 5, 300, 1024, 70000):
        qr = _apply_rope_reference(q[None], [m], inv, style)[0]
        kr = _apply_rope_reference(np.broadcast_to(k, (offs.size, head_dim)), m - offs, inv, style)
        got = rope_score_vs_offset(q, k, offs, inv, style, m)
        np.testing.assert_allclose(got, kr @ qr, rtol=0, atol=1e-12 * head_dim)


# ------------------------------------------------------------------ views
def test_alibi_view_equals_full_bias():
    for n, causal, heads in ((512, True, 8), (450, False, 6), (100, True, 3), (7, False, 1)):
        data = view("alibi", seq_len=n, heads=heads, causal=causal)
        bias = alibi_bias(n, heads, causal)
        p = data.panel("heads")
        for h, tile in enumerate(p.tiles):
            np.testing.assert_array_equal(
                tile.of(p.image), bias[h][np.ix_(tile.y_coords, tile.x_coords)]
            )


def test_alibi_sampled_bias_rows_run_forwards_in_memory():
    """The per-head Toeplitz bias the mosaic is copied from reads each row forwards in
    memory (a row read backwards copied ~0.2 ms slower a frame at lecture size), with
    the values of the full evaluation."""
    from core.viewdata import ComputeContext
    from core.views.alibi import _sampled_bias

    for n, causal, step in ((512, True, 2), (300, False, 1)):
        idx = np.arange(0, n, step)
        bias = _sampled_bias(n, 4, causal, idx, ComputeContext())
        assert bias.strides[-1] == bias.itemsize
        assert not bias.flags.writeable
        np.testing.assert_array_equal(bias, alibi_bias(n, 4, causal)[:, idx][:, :, idx])


def test_relative_view_equals_full_grids():
    for n, bidi in ((512, True), (390, False), (1500, True)):
        data = view("relative", seq_len=n, bidirectional=bidi, k=5)
        idx = data.panel("grid").y_coords
        cells = np.ix_(idx, idx)
        np.testing.assert_array_equal(data.panel("grid").image, relative_positions(n)[cells])
        np.testing.assert_array_equal(data.panel("shaw").image, shaw_relative_index(n, 5)[cells])
        np.testing.assert_array_equal(
            data.panel("t5").image, t5_relative_bucket(idx[None, :] - idx[:, None], bidi, 32, 128)
        )
        assert data.panel("t5").image.dtype == np.int64


def test_learned_view_equals_fresh_cosine():
    table = init_learned_table(512, 64, 3)
    for n in (384, 500, 512, 421, 10):
        data = view("learned", max_positions=512, d_model=64, seed=3, seq_len=n)
        s = data.panel("similarity")
        rows = table[s.y_coords]
        norms = np.linalg.norm(rows, axis=1)
        np.testing.assert_allclose(s.image, rows @ rows.T / np.outer(norms, norms), atol=1e-12)
        np.testing.assert_array_equal(data.panel("norms").series[0].y, norms)
        np.testing.assert_array_equal(data.panel("table").image, table)
        dims = data.panel("dims").series
        np.testing.assert_array_equal(dims[0].y, rows[:, 0])
    held = learned_view._Table(
        learned_view.MODEL.validate({"max_positions": 512, "d_model": 64, "seed": 3}, partial=True)
    )
    assert not held.array.flags.writeable


def test_learned_row_drawn_table_sample_is_cached_and_exact():
    params = learned_view.MODEL.validate(
        {"max_positions": 3000, "d_model": 1500, "seed": 5}, partial=True
    )
    table = learned_view._Table(params)
    assert table.array is None
    sample = table.sample(10, 300, 150)
    pos = 300 * np.arange(10)
    np.testing.assert_array_equal(sample, init_learned_table(3000, 1500, 5)[pos][:, ::150])
    assert table.sample(10, 300, 150) is sample and not sample.flags.writeable


def test_compare_display_curves_equal_direct():
    params = compare_view.MODEL.validate(
        {"d_model": 512, "heads": 8, "train_len": 32}, partial=True
    )
    for n, stride in ((384, 1), (512, 1), (450, 1), (300, 4), (300, 4)):
        got = compare_view._display_curves(params, n, stride)
        ref = compare_view.distance_curves(params, stride * np.arange(n))
        np.testing.assert_allclose(got, ref, rtol=1e-15, atol=1e-15, equal_nan=True)
    assert not got.flags.writeable  # the repeated key came from the cache


def test_permutation_caches_equal_fresh_draws():
    rng = np.random.default_rng(20240607)
    ref = [rng.standard_normal((16, 16)) / np.sqrt(16) for _ in range(3)]
    for got, want in zip(_projections(16), ref, strict=True):
        np.testing.assert_array_equal(got, want)
        assert not got.flags.writeable
    emb = token_embeddings(["dog", "bites", "dog"], 8)
    assert emb.flags.writeable
    np.testing.assert_array_equal(emb[0], emb[2])


DRAGS = {
    "sinusoidal": ("seq_len", [384, 450, 512, 400]),
    "learned": ("seq_len", [384, 512, 450]),
    "rope": ("m", [1, 200, 512, 3]),
    "alibi": ("seq_len", [384, 512, 401]),
    "relative": ("seq_len", [384, 512, 450]),
    "permutation": ("base", [1000.0, 5000.0]),
    "compare": ("seq_len", [384, 512, 450]),
    "clock": ("m", [2.0, 2.5, 7.25, 3.0]),
}
LECTURE_SIZE = {"seq_len": 512, "d_model": 512, "heads": 8, "head_dim": 64, "max_positions": 512}


@pytest.mark.parametrize("view_id", list(VIEWS))
def test_drag_results_do_not_depend_on_cache_or_writes(view_id):
    """A drag gives what a cold cache gives; writing into results never leaks into it."""
    spec = VIEWS[view_id]
    base = {
        k: min(v, spec.model[k].maximum or v)
        for k, v in LECTURE_SIZE.items()
        if k in spec.model.defaults()
    }
    name, values = DRAGS[view_id]
    warm = []
    for value in values:
        data = spec.compute(spec.model.validate({**base, name: value}, partial=True), LECTURE)
        warm.append([(key, a.copy()) for key, a in arrays(data)])
        for _, a in arrays(data):  # try to corrupt: must fail or not be shared
            with contextlib.suppress(ValueError):
                a[...] = 123.0
    for value, before in zip(values, warm, strict=True):
        tablecache.clear()
        cold = arrays(
            spec.compute(spec.model.validate({**base, name: value}, partial=True), LECTURE)
        )
        assert [k for k, _ in cold] == [k for k, _ in before]
        for (key, a), (_, b) in zip(cold, before, strict=True):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12, equal_nan=True, err_msg=key)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch not installed")
@pytest.mark.parametrize("view_id", ["sinusoidal", "alibi", "rope"])
def test_torch_backend_matches_numpy(view_id):
    from core.backend import resolve_backend

    be = resolve_backend("torch-cpu")
    assert be.name == "torch"
    torch_ctx = ComputeContext(max_cells=200, max_points=512, backend=be)
    np_ctx = ComputeContext(max_cells=200, max_points=512)
    for n in (150, 300):
        a = arrays(view(view_id, torch_ctx, seq_len=n))
        b = arrays(view(view_id, np_ctx, seq_len=n))
        for (key, x), (_, y) in zip(a, b, strict=True):
            np.testing.assert_allclose(x, y, rtol=1e-9, atol=1e-9, err_msg=key)
