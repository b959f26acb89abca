"""Views against the core math: panels equal the core functions, probes are exact,
large sizes stay within the display budget, exports have the documented shape."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from core.alibi import alibi_bias, alibi_slopes
from core.attention import permutation_between, tokenize, toy_attention
from core.learned import init_learned_table
from core.params import ParamError
from core.relative import relative_positions, shaw_relative_index, t5_relative_bucket
from core.rope import apply_rope, rope_decay, rope_inv_freq, rope_score_vs_offset
from core.sinusoidal import sinusoidal, sinusoidal_dot_vs_offset
from core.viewdata import ComputeContext, ViewData, fmt_value
from core.views import VIEWS
from core.views import compare as compare_view
from core.views import learned as learned_view
from core.views import rope as rope_view

ALL = ("sinusoidal", "learned", "rope", "alibi", "relative", "permutation", "compare", "clock")
SMALL = ComputeContext(max_cells=16, max_points=64)
CTX = ComputeContext()

LARGE = {
    "sinusoidal": {"seq_len": 16384, "d_model": 4096},
    "learned": {"max_positions": 8192, "d_model": 4096, "seq_len": 8192},
    "rope": {"head_dim": 1024, "seq_len": 65536, "pair": 511, "m": 16383},
    "alibi": {"seq_len": 16384, "heads": 32},
    "relative": {"seq_len": 4096, "max_distance": 4096},
    "permutation": {"d_model": 256},
    "compare": {"seq_len": 65536, "d_model": 4096, "heads": 32, "train_len": 16384},
    "clock": {"head_dim": 1024, "hands": 8, "trail": 64.0, "m": 99999.5, "seq_len": 1_048_576},
}


def view(view_id: str, ctx: ComputeContext = CTX, **changes) -> ViewData:
    spec = VIEWS[view_id]
    return spec.compute(spec.model.validate(changes, partial=True), ctx)


def number(text: str) -> float:
    """The value at the end of a probe readout."""
    if "−∞" in text:
        return -math.inf
    return float(re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)[-1])


def test_all_views_registered():
    assert tuple(VIEWS) == ALL


@pytest.mark.parametrize("view_id", ALL)
def test_defaults_compute_and_export(view_id):
    spec = VIEWS[view_id]
    params = spec.model.validate(spec.model.defaults())
    data = spec.compute(params, CTX)
    assert data.view_id == view_id and data.panels and data.formula
    assert spec.data_description and 2 <= spec.explanation.count(". ") + 1 <= 7
    for p in data.panels:
        assert p.row_span >= 1 and p.col_span >= 1
        if p.kind == "heatmap":
            assert p.probe is not None and p.image.shape == (len(p.y_coords), len(p.x_coords))
    exp = spec.export(params)
    assert exp.array.ndim == len(exp.axes)


@pytest.mark.parametrize("view_id", ALL)
def test_probes_are_exact(view_id):
    for ctx in (CTX, SMALL):
        data = view(view_id, ctx)
        for p in data.panels:
            if p.kind != "heatmap":
                continue
            rows, cols = p.image.shape
            for r, c in {(0, 0), (rows - 1, cols - 1), (rows // 2, cols // 3), (1 % rows, 0)}:
                text = p.probe(float(p.x_coords[c]), float(p.y_coords[r]))
                if np.isnan(p.image[r, c]):  # between the tiles of a mosaic: nothing there
                    assert text == "", (view_id, p.key)
                    continue
                assert text, (view_id, p.key)
                v = float(p.image[r, c])
                assert number(text) == pytest.approx(v, rel=1e-5, abs=1e-9), (p.key, text)
            assert p.probe(-5.0, -5.0) == ""


@pytest.mark.parametrize("view_id", ALL)
def test_large_sizes_stay_within_display_budget(view_id):
    data = view(view_id, CTX, **LARGE[view_id])
    for p in data.panels:
        if p.image is not None:
            assert max(p.image.shape) <= CTX.max_cells
        for s in p.series:
            assert len(s.x) <= CTX.max_points
    if view_id not in ("permutation", "clock"):  # nothing of theirs is sampled
        assert any("sampled" in n for n in data.notes)


def test_sinusoidal_heatmap_equals_core():
    data = view("sinusoidal", SMALL, seq_len=100, d_model=40)
    p = data.panel("heatmap")
    np.testing.assert_array_equal(p.y_coords, np.arange(0, 100, 7))
    # a cell stands for 7 positions: it holds their exact mean, not every 7th row
    full = sinusoidal(100, 40)[:, p.x_coords]
    ref = np.array([full[k : k + 7].mean(axis=0) for k in p.y_coords])
    np.testing.assert_allclose(p.image, ref, atol=1e-12)
    exact = view("sinusoidal", SMALL, seq_len=16, d_model=40).panel("heatmap")
    np.testing.assert_allclose(exact.image, sinusoidal(16, 40)[:, exact.x_coords], atol=1e-12)


@pytest.mark.parametrize("heads", [1, 3, 4, 8, 12])  # full and partly empty grids
def test_alibi_heads_equal_core(heads):
    data = view("alibi", SMALL, seq_len=50, heads=heads, causal=False)
    bias = alibi_bias(50, heads, causal=False)
    p = data.panel("heads")
    assert [t.label for t in p.tiles] == [
        f"head {k + 1}: m = {m:.4g}" for k, m in enumerate(alibi_slopes(heads))
    ]
    covered = np.zeros(p.image.shape, bool)
    for h, tile in enumerate(p.tiles):
        np.testing.assert_array_equal(
            tile.of(p.image), bias[h][np.ix_(tile.y_coords, tile.x_coords)]
        )
        covered[
            tile.row0 : tile.row0 + len(tile.y_coords), tile.col0 : tile.col0 + len(tile.x_coords)
        ] = True
    assert np.isnan(p.image[~covered]).all()  # gaps between tiles are transparent


@pytest.mark.parametrize("n, max_cells, step", [(512, 832, 2), (50, 400, 1), (300, 200, 5)])
def test_alibi_mosaic_for_display_is_float32_as_drawn(n, max_cells, step):
    """Computed only to be drawn (the window's frames), the mosaic holds every head's
    bias rounded to float32, the precision the heatmap is drawn in (half the bytes to
    write and read a frame); computed for anything else (CSV/NPY of the plot) it keeps
    float64, as exact as the core's bias."""
    shown = view("alibi", ComputeContext(max_cells=max_cells, for_display=True), seq_len=n)
    exact = view("alibi", ComputeContext(max_cells=max_cells), seq_len=n)
    bias = alibi_bias(n, 8, causal=True)
    p, q = shown.panel("heads"), exact.panel("heads")
    assert p.image.dtype == np.float32 and q.image.dtype == np.float64
    assert [t.label for t in p.tiles] == [t.label for t in q.tiles]
    assert int(p.tiles[0].x_coords[1] - p.tiles[0].x_coords[0]) == step
    for h, (tile, exact_tile) in enumerate(zip(p.tiles, q.tiles, strict=True)):
        full = bias[h][np.ix_(tile.y_coords, tile.x_coords)]
        np.testing.assert_array_equal(tile.of(p.image), full.astype(np.float32))
        np.testing.assert_array_equal(exact_tile.of(q.image), full)
    np.testing.assert_array_equal(np.isnan(p.image), np.isnan(q.image))  # the same gaps
    # positions that are not evenly spaced (evaluated in full) are rounded alike
    from core.views.alibi import _sampled_bias

    idx = np.array([0, 3, 4, 9])
    got = _sampled_bias(n, 8, True, idx, CTX, np.float32)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, bias[:, idx][:, :, idx].astype(np.float32))


def test_alibi_panels_that_do_not_follow_seq_len_keep_their_arrays():
    """Frames of a seq_len or query drag hand the slopes and the course's 8 × 8 panels the
    same (read-only) arrays, which the plots recognise without comparing them; another
    head or mask gives the real bias anew, with its values."""
    first = view("alibi", CTX, seq_len=300, heads=8, head=2, query=20)
    again = view("alibi", CTX, seq_len=301, heads=8, head=2, query=21)
    for key, names in (("slopes", ()), ("course", ("image", "x_coords", "y_coords"))):
        for name in names:
            a, b = getattr(first.panel(key), name), getattr(again.panel(key), name)
            assert a is b and not a.flags.writeable, (key, name)
    assert first.panel("real").image is again.panel("real").image
    (a,), (b,) = first.panel("slopes").series, again.panel("slopes").series
    assert a.x is b.x and a.y is b.y and not a.y.flags.writeable
    np.testing.assert_array_equal(a.y, alibi_slopes(8))
    other = view("alibi", CTX, seq_len=301, heads=8, head=3, query=21, causal=False)
    np.testing.assert_array_equal(other.panel("real").image, alibi_bias(8, 8, causal=False)[2])


def test_alibi_heads_mosaic_is_kept_across_a_query_or_head_drag():
    """The window's frames (for display) of a query or head drag hand the heads panel
    the same read-only image and coordinates, which the plot recognises without
    comparing its cells; another seq_len, mask or display budget gives the mosaic
    anew, with its values. Exports (not for display) get a fresh array each time."""
    shown = ComputeContext(max_cells=960, for_display=True)
    first = view("alibi", shown, seq_len=300, heads=8, head=2, query=20)
    again = view("alibi", shown, seq_len=300, heads=8, head=5, query=21)
    a, b = first.panel("heads"), again.panel("heads")
    for name in ("image", "x_coords", "y_coords"):
        assert getattr(a, name) is getattr(b, name), name
        assert not getattr(a, name).flags.writeable, name
    assert a.tiles is b.tiles
    for changes in ({"seq_len": 301}, {"causal": False}):
        other = view("alibi", shown, **{"seq_len": 300, "heads": 8, **changes})
        assert other.panel("heads").image is not a.image
        bias = alibi_bias(other.params["seq_len"], 8, causal=other.params["causal"])
        tile = other.panel("heads").tiles[3]
        rows, cols = len(tile.y_coords), len(tile.x_coords)
        np.testing.assert_array_equal(
            other.panel("heads").image[tile.row0 : tile.row0 + rows, tile.col0 : tile.col0 + cols],
            bias[3][np.ix_(tile.y_coords, tile.x_coords)].astype(np.float32),
        )
    wider = view("alibi", ComputeContext(max_cells=1200, for_display=True), seq_len=300)
    assert wider.panel("heads").image.shape != a.image.shape
    exported = [view("alibi", CTX, seq_len=300, heads=8, query=q).panel("heads") for q in (3, 4)]
    assert exported[0].image is not exported[1].image and exported[0].image.flags.writeable


def test_alibi_mosaic_probe_reads_each_head_exactly():
    n = 50
    data = view("alibi", SMALL, seq_len=n, heads=6, causal=True)
    p = data.panel("heads")
    bias = alibi_bias(n, 6, causal=True)
    for k, tile in enumerate(p.tiles):
        for a, b in ((0, 0), (len(tile.y_coords) - 1, 1), (2, len(tile.x_coords) - 1)):
            i, j = int(tile.y_coords[a]), int(tile.x_coords[b])
            text = p.probe(tile.col0 + b, tile.row0 + a)
            assert text.startswith(f"head {k + 1} ") and f"query i={i}, key j={j}:" in text
            assert text.endswith(fmt_value(bias[k, i, j] + 0.0))
    gap_x = p.tiles[0].col0 + len(p.tiles[0].x_coords)  # first gap column
    assert p.probe(gap_x, 0) == ""
    assert p.probe(-3, 0) == "" and p.probe(0, p.image.shape[0] + 5) == ""


@pytest.mark.parametrize("n", [1, 2, 17, 1024, 1025, 5000])
def test_alibi_toy_scores_are_the_seeded_draw(n):
    """The softmax row's scores, sliced from one kept draw, are a fresh generator's
    ``standard_normal(n)``, and the row's panel shows softmaxes of exactly them."""
    from core.alibi import alibi_attention_row
    from core.views.alibi import TOY_SCORE_SEED, toy_scores

    fresh = np.random.default_rng(TOY_SCORE_SEED).standard_normal(n)
    got = toy_scores(n)
    assert got.shape == (n,) and not got.flags.writeable
    np.testing.assert_array_equal(got, fresh)
    query = min(n - 1, 7)
    data = view("alibi", CTX, seq_len=n, heads=4, head=2, query=query)
    without, with_bias = alibi_attention_row(fresh, query, float(alibi_slopes(4)[1]), True)
    series = data.panel("row").series
    np.testing.assert_array_equal(series[0].y, without[series[0].x.astype(int)])
    np.testing.assert_array_equal(series[1].y, with_bias[series[1].x.astype(int)])


@pytest.mark.parametrize(("n", "heads"), [(1, 2), (2, 8), (7, 3), (300, 8), (5000, 12)])
def test_alibi_distance_lines_hold_every_heads_exact_bias(n, heads):
    """The "all heads" series: each head's ``−m·d`` at the sampled distances (always
    including ``n − 1``), a NaN after each head's line."""
    from core.views.alibi import distance_series

    slopes = alibi_slopes(heads)
    first = distance_series(n, slopes, 1, 256)[0]
    xs, ys = first.x.reshape(heads, -1), first.y.reshape(heads, -1)
    assert np.isnan(xs[:, -1]).all() and np.isnan(ys[:, -1]).all()
    d = xs[0, :-1]
    assert d[0] == 0 and d[-1] == n - 1 and (np.diff(d) > 0).all()
    for k, m in enumerate(slopes):
        np.testing.assert_array_equal(xs[k, :-1], d)
        np.testing.assert_array_equal(ys[k, :-1], np.array([-m * v for v in d]))


@pytest.mark.parametrize("causal", [True, False])
def test_alibi_sign_note_reads_the_causal_rows_weights(causal):
    """The sign note's weights on key 0, whether the view hands it its own causal row
    or not: ALiBi's and +m·j's agree (the same causal softmax), −m·j's differs."""
    from core.alibi import alibi_attention_row, key_index_bias_row
    from core.formula import approx_text
    from core.views.alibi import sign_note, toy_scores

    scores, m = toy_scores(40), 0.25
    note = view("alibi", CTX, seq_len=40, heads=8, head=2, query=30, causal=causal).notes
    alibi = alibi_attention_row(scores, 30, m, True)[1][0]
    minus = key_index_bias_row(scores, 30, m, -1.0)[0]
    text = sign_note(scores, 30, 2, m, causal)
    assert text in note
    assert f"is {approx_text(alibi)} with −m·(i−j)" in text
    assert f"but {approx_text(minus)} with −m·j" in text
    assert approx_text(alibi) != approx_text(minus)


# ------------------------------------------------------------------ learned
def test_learned_panels_equal_table():
    data = view("learned", SMALL, max_positions=40, d_model=20, seed=3, seq_len=30)
    table = init_learned_table(40, 20, 3)
    p = data.panel("table")
    np.testing.assert_array_equal(p.image, table[np.ix_(p.y_coords, p.x_coords)])
    s = data.panel("similarity")
    rows = table[s.y_coords]
    cos = rows @ rows.T / np.outer(*(2 * [np.linalg.norm(rows, axis=1)]))
    np.testing.assert_allclose(s.image, cos, atol=1e-12)
    norms = data.panel("norms").series[0]
    np.testing.assert_allclose(norms.y, np.linalg.norm(table[norms.x.astype(int)], axis=1))


def test_learned_chunked_rows_equal_full_table():
    params = learned_view.MODEL.validate(
        {"max_positions": 3000, "d_model": 1500, "seed": 5}, partial=True
    )
    table = learned_view._Table(params)
    assert table.array is None  # large: rows are drawn in chunks, not held
    pos = np.array([0, 1023, 1024, 2999, 5])
    np.testing.assert_array_equal(table.take(pos), init_learned_table(3000, 1500, 5)[pos])


def test_learned_out_of_range_names_limit():
    over = view("learned", max_positions=64, seq_len=65)  # drawn, with a verdict
    assert "max_positions=64" in over.verdict and "\n" not in over.verdict
    with pytest.raises(ValueError, match="max_positions=64"):
        VIEWS["learned"].export(learned_view.MODEL.validate({"seq_len": 100}, partial=True))


def test_learned_table_file(tmp_path):
    arr = np.arange(30.0).reshape(10, 3)
    path = tmp_path / "table.npy"
    np.save(path, arr)
    data = view("learned", table_file=str(path), seq_len=8)
    np.testing.assert_array_equal(data.panel("table").image, arr)
    assert any("max_positions = 10" in n for n in data.notes)
    exp = VIEWS["learned"].export(
        learned_view.MODEL.validate({"table_file": str(path), "seq_len": 8}, partial=True)
    )
    np.testing.assert_array_equal(exp.array, arr[:8])
    assert "max_positions=10" in view("learned", table_file=str(path), seq_len=11).verdict
    deep = tmp_path / ("a-long-folder-name-" * 8)  # real paths are often long
    deep.mkdir()
    np.save(deep / "table.npy", arr)
    assert len(str(deep / "table.npy")) > 180
    long = view("learned", table_file=str(deep / "table.npy"), seq_len=8)
    np.testing.assert_array_equal(long.panel("table").image, arr)
    bad = tmp_path / "obj.npy"
    np.save(bad, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="pickle"):
        view("learned", table_file=str(bad))


# ------------------------------------------------------------------ rope
@pytest.mark.parametrize("style", ["half", "interleaved"])
def test_rope_arrows_are_the_rotation(style):
    data = view("rope", head_dim=16, base=100.0, style=style, pair=3, m=7, n=2)
    theta = rope_inv_freq(16, 100.0)[0][3]
    arrows = {a.name.split(" ")[0]: (a.x, a.y) for a in data.panel("plane").arrows}
    assert arrows["unrotated"] == pytest.approx((1.0, 0.0))
    assert arrows["q"] == pytest.approx((math.cos(7 * theta), math.sin(7 * theta)))
    assert arrows["k"] == pytest.approx((math.cos(2 * theta), math.sin(2 * theta)))
    plane = data.panel("plane")  # the title names the pair; its note the angles
    assert plane.title == f"Pair 3, θ = {theta:.6g}: q turned by m·θ, k by n·θ"
    assert plane.note.startswith(f"m·θ = {7 * theta:.4g} rad (")
    assert f"n·θ = {2 * theta:.4g} rad (" in plane.note
    assert f"{7 * theta:.6g} rad" in data.formula
    turns, deg = rope_view.angle_parts(7 * theta)
    assert turns == math.floor(7 * theta / (2 * math.pi))
    assert math.radians(deg) == pytest.approx(math.remainder(7 * theta, 2 * math.pi))


def test_rope_curves_equal_core_and_depend_on_offset_only():
    data = view("rope", head_dim=32, seq_len=40, m=3)
    inv, _ = rope_inv_freq(32, 10000.0)
    a, b = data.panel("score").series[:2]
    np.testing.assert_allclose(a.y, b.y, atol=1e-9)
    q, k = np.random.default_rng(rope_view.TOY_QK_SEED).standard_normal((2, 32))
    np.testing.assert_allclose(a.y, rope_score_vs_offset(q, k, a.x, inv, "half", 3))
    decay = data.panel("decay").series[0]
    np.testing.assert_allclose(decay.y, rope_decay(decay.x, inv))
    np.testing.assert_allclose(data.panel("frequencies").series[0].y, inv)


def test_rope_frame_of_m_reuses_what_m_leaves_alone():
    """A drag of m recomputes only what depends on m, n and the pair: the frequencies,
    decay and bound curves, the offsets and the toy q, k are the ones of the frame
    before (the same read-only arrays, which the plots also skip as unchanged), and
    everything equals a computation from scratch."""
    rope_view._fixed_cached.cache_clear()
    first = view("rope", head_dim=32, seq_len=300, m=3, n=1)
    second = view("rope", head_dim=32, seq_len=300, m=4, n=1, pair=2)
    assert rope_view._fixed_cached.cache_info().hits >= 1
    for key in ("frequencies", "decay", "bound"):
        for a, b in zip(first.panel(key).series, second.panel(key).series, strict=True):
            assert a.x is b.x and a.y is b.y
            assert not a.y.flags.writeable
    assert first.panel("score").series[0].y is not second.panel("score").series[0].y
    rope_view._fixed_cached.cache_clear()
    fresh = view("rope", head_dim=32, seq_len=300, m=4, n=1, pair=2)
    assert fresh.notes == second.notes and fresh.formula == second.formula
    for a_panel, b_panel in zip(fresh.panels, second.panels, strict=True):
        assert (a_panel.title, a_panel.note) == (b_panel.title, b_panel.note)
        for a, b in zip(a_panel.series, b_panel.series, strict=True):
            assert a.name == b.name
            np.testing.assert_array_equal(a.y, b.y)
    other = view("rope", head_dim=32, seq_len=300, m=4, n=1, pair=2, base=500.0)
    assert not np.array_equal(
        other.panel("frequencies").series[0].y, fresh.panel("frequencies").series[0].y
    )


def test_rope_scaling_and_clamping():
    data = view(
        "rope",
        head_dim=16,
        pair=40,
        scaling="yarn",
        factor=8.0,
        original_max_position_embeddings=64,
    )
    assert any("clamped to 7" in n for n in data.notes)
    scaling = {
        "rope_type": "yarn",
        "factor": 8.0,
        "original_max_position_embeddings": 64,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
    }
    inv, af = rope_inv_freq(16, 10000.0, scaling)
    assert af != 1.0 and f"{af:.4g}" in data.formula
    sel = [s for s in data.panel("frequencies").series if "selected" in s.name]
    np.testing.assert_allclose(sel[0].y, inv)
    plane = {a.name.split(" ")[0]: a for a in data.panel("plane").arrows}
    assert plane["q"].x == pytest.approx(math.cos(5 * inv[7]))


def test_rope_invalid_combinations_raise_one_line():
    for changes in (
        {"scaling": "yarn", "beta_fast": 2.0, "beta_slow": 4.0},
        {"scaling": "llama3", "low_freq_factor": 4.0, "high_freq_factor": 2.0},
    ):
        with pytest.raises(ValueError) as info:
            view("rope", **changes)
        assert "\n" not in str(info.value)
    with pytest.raises(ParamError):
        VIEWS["rope"].model.validate({"scaling": "ntk"}, partial=True)


def test_rope_export_angles():
    params = rope_view.MODEL.validate(
        {
            "head_dim": 32,
            "seq_len": 50,
            "scaling": "linear",
            "factor": 2.0,
            "partial_rotary_factor": 0.5,
        },
        partial=True,
    )
    exp = VIEWS["rope"].export(params)
    inv, _ = rope_inv_freq(
        32, 10000.0, {"rope_type": "linear", "factor": 2.0}, partial_rotary_factor=0.5
    )
    assert exp.array.shape == (50, 8)
    np.testing.assert_allclose(exp.array, np.arange(50)[:, None] * inv[None, :])
    x = np.zeros((50, 32))
    x[:, 0] = 1.0
    rotated = apply_rope(x, np.arange(50), inv)
    np.testing.assert_allclose(
        np.arctan2(rotated[:, 8], rotated[:, 0]), np.angle(np.exp(1j * exp.array[:, 0])), atol=1e-12
    )


# ------------------------------------------------------------------ relative
def test_relative_heatmaps_equal_core():
    data = view(
        "relative", SMALL, seq_len=70, k=3, bidirectional=False, num_buckets=16, max_distance=40
    )
    idx = data.panel("grid").y_coords
    grid = relative_positions(70)[np.ix_(idx, idx)]
    np.testing.assert_array_equal(data.panel("grid").image, grid)
    np.testing.assert_array_equal(
        data.panel("shaw").image, shaw_relative_index(70, 3)[np.ix_(idx, idx)]
    )
    key_minus_query = idx[None, :] - idx[:, None]
    np.testing.assert_array_equal(
        data.panel("t5").image, t5_relative_bucket(key_minus_query, False, 16, 40)
    )
    curve = data.panel("t5_curve").series[0]
    np.testing.assert_array_equal(curve.x, -curve.x[::-1])
    assert curve.x.max() >= 80 - 3 and 0 in curve.x
    np.testing.assert_array_equal(curve.y, t5_relative_bucket(curve.x.astype(int), False, 16, 40))


def test_relative_score_terms_are_kept_through_a_seq_len_drag():
    """A seq_len drag past the keys near the query hands the score-term panels over
    as they were (the same objects, read-only arrays: the plots recognise them without
    comparing); near the query, or for another query, they are computed anew, and
    every frame's panels equal those computed for its own seq_len."""
    from core.views.relative import TERM_REACH, _term_panels

    keys = ("xl_terms", "deberta_terms", "deberta_buckets")
    first = view("relative", CTX, seq_len=400, query=8)
    again = view("relative", CTX, seq_len=512, query=8)
    for key in keys:
        assert first.panel(key) is again.panel(key), key
        for s in first.panel(key).series:
            assert not s.x.flags.writeable and not s.y.flags.writeable
    for n, query in ((9, 8), (8 + TERM_REACH, 8), (8 + TERM_REACH + 1, 8), (60, 8), (512, 40)):
        got = view("relative", CTX, seq_len=n, query=query)
        i = min(query, n - 1)
        fresh = _term_panels.__wrapped__(i, n, 256, 512)  # (the defaults), not kept
        for key, want in zip(keys, fresh, strict=True):
            have = got.panel(key)
            assert (have.title, have.x_label, have.note) == (want.title, want.x_label, want.note)
            for a, b in zip(have.series, want.series, strict=True):
                assert a.name == b.name
                np.testing.assert_array_equal(a.x, b.x)
                np.testing.assert_array_equal(a.y, b.y)
    assert view("relative", CTX, seq_len=512, query=9).panel("xl_terms") is not again.panel(
        "xl_terms"
    )


def test_relative_invalid_buckets_and_export():
    with pytest.raises(ValueError, match="num_buckets") as info:
        view("relative", num_buckets=32, max_distance=8)
    assert "\n" not in str(info.value)
    params = VIEWS["relative"].model.validate({"seq_len": 300}, partial=True)
    exp = VIEWS["relative"].export(params)
    assert exp.array.shape == (3, 300, 300) and exp.array.dtype == np.int64
    np.testing.assert_array_equal(exp.array[0], relative_positions(300))
    np.testing.assert_array_equal(exp.array[1], shaw_relative_index(300, 4))
    np.testing.assert_array_equal(exp.array[2], t5_relative_bucket(-relative_positions(300)))


# ------------------------------------------------------------------ permutation
def test_permutation_verdicts():
    plain = view("permutation")
    assert "exactly the rows" in plain.verdict and "they differ" in plain.verdict
    assert "\n" not in plain.verdict
    reversal = view("permutation", method="alibi")
    assert "still identical" in reversal.verdict and "|i − j|" in reversal.verdict
    shuffled = view("permutation", method="alibi", permuted="bites man dog")
    assert "they differ" in shuffled.verdict


def test_permutation_explanation_names_its_plots_by_their_titles():
    """The explanation points at plots by the titles the audience reads, which hold in
    every layout (1-4 plot columns with the window, the UI scale and the stage): no
    "(top row)" or "(bottom right)", which named the wrong plots in narrower layouts,
    and every name it quotes is in a plot's title for each position method."""
    from core.views.permutation import METHOD_NAMES, METHODS

    text = VIEWS["permutation"].explanation
    assert re.findall(r"\b(?:top|bottom|middle|left|right|above|below)\b", text, re.I) == []
    quoted = re.findall(r"(?<!\w)'([^']+?)'(?!\w)", text)
    names = [q for q in quoted if q != "treats tokens independently"]  # (the course's)
    assert len(names) >= 5, quoted
    missing = []
    for method in METHODS:
        titles = [p.title.lower() for p in view("permutation", method=method).panels]
        missing += [(method, q) for q in names if not any(q.lower() in t for t in titles)]
        # "titled with the position method": its name and any qualifier it carries in
        # parentheses (ALiBi's "symmetric −m·|i−j|", set off by a comma in the titles)
        parts = METHOD_NAMES[method].lower().removesuffix(")").split(" (")
        if not any(all(part in t for part in parts) for t in titles):
            missing.append((method, METHOD_NAMES[method]))
    assert missing == []


def test_permutation_panels_equal_core():
    data = view(
        "permutation",
        method="rope",
        d_model=8,
        sentence="the cat saw a dog",
        permuted="a dog saw the cat",
    )
    a, b = tokenize("the cat saw a dog"), tokenize("a dog saw the cat")
    np.testing.assert_array_equal(
        data.panel("weights_a_pe").image, toy_attention(a, "rope", 8).weights
    )
    np.testing.assert_array_equal(
        data.panel("weights_b_none").image, toy_attention(b, "none", 8).weights
    )
    perm = permutation_between(a, b)
    assert np.max(np.abs(data.panel("diff_none").image)) < 1e-12
    ref = toy_attention(b, "rope", 8).outputs - toy_attention(a, "rope", 8).outputs[perm]
    np.testing.assert_allclose(data.panel("diff_pe").image, ref)
    weights = data.panel("weights_a_pe")  # the words are the ticks, under short titles
    assert (weights.x_label, weights.y_label) == ("keys", "queries")
    assert [t for _v, t in weights.x_ticks] == [t for _v, t in weights.y_ticks] == a
    assert [t for _v, t in data.panel("diff_pe").y_ticks] == b
    exp = VIEWS["permutation"].export(
        VIEWS["permutation"].model.validate({"d_model": 8}, partial=True)
    )
    assert exp.array.shape == (6, 3, 8)


def test_permutation_base_drag_reruns_only_the_runs_with_positions(monkeypatch):
    """A frame of a ``base`` drag computes the two runs whose positions use ``base``,
    not the four without them (nor learned's or ALiBi's): the same values."""
    import core.attention as attention

    embedded: list[tuple[str, ...]] = []
    original = attention.token_embeddings

    def counted(tokens: list[str], d_model: int) -> np.ndarray:
        embedded.append(tuple(tokens))
        return original(tokens, d_model)

    monkeypatch.setattr(attention, "token_embeddings", counted)
    first = view("permutation", d_model=24, base=1234.5)
    embedded.clear()
    second = view("permutation", d_model=24, base=2345.5)
    assert len(embedded) == 2  # the PE runs of both sentences
    for key in ("weights_a_none", "weights_b_causal"):
        np.testing.assert_array_equal(second.panel(key).image, first.panel(key).image)
    assert not np.array_equal(second.panel("weights_a_pe").image, first.panel("weights_a_pe").image)
    a = tokenize(VIEWS["permutation"].model.defaults()["sentence"])
    fresh = attention._attention(a, "none", 24, 10000.0, False)
    np.testing.assert_array_equal(toy_attention(a, "none", 24).weights, fresh.weights)
    for method in ("none", "learned", "alibi"):
        embedded.clear()
        toy_attention(a, method, 24, 5.0)
        toy_attention(a, method, 24, 6.0)
        assert len(embedded) <= 1
    kept = toy_attention(a, "none", 24)
    kept.weights[:] = 0  # a caller's own arrays
    assert toy_attention(a, "none", 24).weights.any()
    long = [f"w{i}" for i in range(300)]  # more numbers than KEEP_LIMIT: not kept
    embedded.clear()
    toy_attention(long, "none", 16)
    toy_attention(long, "none", 16)
    assert len(embedded) == 2


def test_permutation_rejects_other_words():
    with pytest.raises(ValueError, match="same words") as info:
        view("permutation", permuted="cat bites man")
    assert "\n" not in str(info.value)
    # both sides named, by the panel's labels (only "dog" was listed: the extra "cat"
    # was left to guess; an empty sentence B read as "differs in: bites, dog, man")
    assert str(info.value).endswith("('cat' not in A; 'dog' missing)")
    assert str(info.value).startswith("Sentence B must use the same words as sentence A")
    with pytest.raises(ValueError) as info:
        view("permutation", permuted="dog dog bites")
    assert str(info.value).endswith("('dog' not in A; 'man' missing)")
    with pytest.raises(ValueError, match="^Sentence B has no words"):
        view("permutation", permuted=" ... ")
    with pytest.raises(ValueError, match="^Sentence A has no words"):
        view("permutation", sentence="!!")


# ------------------------------------------------------------------ compare
def test_compare_curves_equal_core():
    data = view("compare", seq_len=100, d_model=32, heads=4, train_len=40)
    curves = data.panel("distance").series
    x = curves[0].x
    np.testing.assert_allclose(curves[0].y, sinusoidal_dot_vs_offset(x, 32) / 16.0)
    np.testing.assert_allclose(curves[1].y, rope_decay(x, rope_inv_freq(32, 10000.0)[0]))
    np.testing.assert_allclose(curves[2].y, np.exp(-0.25 * x))
    learned = curves[4].y
    assert learned[0] == pytest.approx(1.0)
    assert np.all(np.isfinite(learned[x < 40])) and np.all(np.isnan(learned[x >= 40]))
    assert any(s.name.startswith("train_len") and s.x[0] == 40 for s in curves)
    idx = data.panel("indices").series
    np.testing.assert_array_equal(idx[0].y, t5_relative_bucket(-x.astype(int)))
    np.testing.assert_array_equal(idx[1].y, np.clip(-x, -16, 16) + 16)
    table = data.panel("table")
    text = " ".join(" ".join(r) for r in table.rows)
    for model in ("BERT", "GPT-2", "T5", "LLaMA", "BLOOM", "MPT"):
        assert model in text


def test_compare_export_matches_display():
    params = compare_view.MODEL.validate(
        {"seq_len": 3000, "d_model": 2048, "train_len": 100}, partial=True
    )
    exp = VIEWS["compare"].export(params)
    assert exp.array.shape == (len(compare_view.CURVES), 3000)
    data = VIEWS["compare"].compute(params, SMALL)
    for row, s in enumerate(data.panel("distance").series[:5]):
        if "band" in s.name:  # sampled fast pairs: the exact value lies inside the band
            x, lo, hi = s.x[0::2].astype(int), s.y[0::2], s.y[1::2]
            assert np.all((lo - 1e-12 <= exp.array[row, x]) & (exp.array[row, x] <= hi + 1e-12))
            continue
        np.testing.assert_allclose(exp.array[row, s.x.astype(int)], s.y, equal_nan=True)


@pytest.mark.parametrize("view_id", ALL)
def test_every_numeric_parameter_at_its_minimum(view_id):
    """The smallest value a slider allows computes (d_model = 1 once broke the learned
    view), or is refused with a message for the user (e.g. seq_len > max_positions)."""
    model = VIEWS[view_id].model
    checked = 0
    for param in model.params:
        if param.kind not in ("int", "float") or param.minimum is None:
            continue
        try:
            data = view(view_id, SMALL, **{param.name: param.minimum})
        except ValueError as exc:  # ParamError and the core's range errors
            assert str(exc) and "Traceback" not in str(exc)
            continue
        assert data.panels, param.name
        checked += 1
    assert checked


def test_rope_score_curves_of_both_query_positions_are_one_array():
    """The score depends on m − n alone: the curves of the query at m and at m + L are
    the same up to rounding and are drawn from one array (a live window then strokes
    the one on top only); each still equals the exact score of its own position."""
    model = rope_view.MODEL
    for m in (5, 300, 70000):
        params = model.validate({**model.defaults(), "m": m, "seq_len": 64})
        data = rope_view.compute(params, CTX)
        first, second = next(p for p in data.panels if p.key == "score").series[:2]
        assert second.y is first.y
        f = rope_view.fixed(params, CTX.max_points)
        assert not f.fast.any()  # (the exact curves, no band)
        for s, qp in ((first, m), (second, m + 64)):
            exact = f.af**2 * rope_score_vs_offset(f.q, f.k, f.offs, f.inv, params["style"], qp)
            np.testing.assert_allclose(s.y, exact, rtol=0, atol=1e-9 * np.abs(exact).max())


_E_NOTATION = re.compile(r"\d[eE][+-]?\d")
_EXTREMES = {  # settings that print large or tiny derived numbers
    "sinusoidal": ({"emb_std": 4.0, "d_model": 4096}, {"base": 1e7, "d_model": 3}),
    "clock": ({"base": 1e6, "m": 99999.9, "n": 0.0, "pair": 31, "shift": 99999.9},),
    "rope": ({"m": 1_000_000, "pair": 31, "base": 500000.0},),
}


def _shown_texts(data: ViewData):
    """Every text a view draws: panel titles and axis titles, legend entries, labels
    and arrow names, the verdict and the notes."""
    for p in data.panels:
        yield from (p.title, p.x_label, p.y_label, p.note)
        yield from (s.name for s in p.series)
        yield from (label.text for label in p.labels)
        yield from (arrow.name for arrow in p.arrows)
    yield from (data.verdict, data.verdict_short, *data.notes)
    yield from (data.formula, data.formula_markup)


@pytest.mark.parametrize("view_id", ALL)
def test_shown_numbers_never_use_e_notation(view_id):
    """A lecturer's audience reads "4.71·10⁴", not "4.71e+04": the clock's slowest pair
    was titled "one turn per 4.71e+04 positions" at its defaults, its angle at
    m = 99999.5 "= 1e+05 rad", and ALiBi's notes at 16384 positions "key 0 is 1.49e-06".
    The formula line too: RoPE's at m = 10⁶ said "m·θ = 1000000·3.01386e-06", the
    clock's "θ_31 = 1.5e-06", Sinusoidal's at base 10⁷ and d = 3 "ω_1 = 2.154e-05"."""
    found = []
    for changes in ({}, LARGE[view_id], *_EXTREMES.get(view_id, ())):
        data = view(view_id, **changes)
        found += [(changes, t) for t in _shown_texts(data) if t and _E_NOTATION.search(t)]
    assert not found


def test_out_of_range_messages_read_as_sentences():
    """A list item out of range said "-3 is out of range comma-separated integers in
    0..16383"; the file's allowed values named .npy only (tooltips, ``main.py views``)."""
    model = VIEWS["sinusoidal"].model
    with pytest.raises(ParamError) as err:
        model.validate({"dims": model["dims"].parse("-3,1")}, partial=True)
    assert str(err.value).endswith("dims: -3 is out of range 0..16383")
    with pytest.raises(ParamError) as err:
        model.validate({"seq_len": 0}, partial=True)
    assert str(err.value).endswith("seq_len: 0 is out of range 1..65536")
    # a huge float reads in short: "base: 1e+308 is out of range ..." (all 309 digits were
    # written out), a large whole one still in digits
    base = model["base"]
    with pytest.raises(ParamError) as err:
        model.validate({"base": base.parse("1e308")}, partial=True)
    assert str(err.value).endswith(f"base: 1e+308 is out of range {base.range_text()}")
    with pytest.raises(ParamError) as err:
        model.validate({"base": base.parse("-123456789012")}, partial=True)
    assert str(err.value).endswith("base: -123456789012 is out of range 2..10000000")
    table = VIEWS["learned"].model["table_file"]
    assert ".safetensors" in table.range_text() and ".pt" in table.range_text()


def _outcome(call):  # type: ignore[no-untyped-def]
    try:
        values = call()
    except ParamError as exc:
        return ("refused", exc.name, str(exc))
    return ("taken", [(k, type(v), v) for k, v in values.items()])


@pytest.mark.parametrize("view_id", ALL)
def test_one_changed_parameter_is_validated_as_all_of_them(view_id):
    """``ParamModel.changed`` (a slider's change: the new value alone validated, then
    the cross-parameter check) takes or refuses what ``updated`` (every value validated
    again) does, with the same values, types and message; the defaults are valid as
    they are (a view's state starts from them and validates only what changes)."""
    model = VIEWS[view_id].model
    defaults = model.defaults()
    valid = model.validate(defaults)
    assert [(k, type(v), v) for k, v in valid.items()] == [
        (k, type(v), v) for k, v in defaults.items()
    ]
    cases = 0
    refused = 0
    for p in model.params:
        tries: list[object] = [p.default, "x", None, True, 1.5, -1, 3, 10**9, float("nan")]
        tries += [b for b in (p.minimum, p.maximum) if b is not None]
        tries += [p.maximum + 1] if p.maximum is not None else []
        tries += list(p.choices or ())
        for value in tries:
            old = _outcome(lambda: model.updated(valid, **{p.name: value}))  # noqa: B023
            new = _outcome(lambda: model.changed(valid, p.name, value))  # noqa: B023
            assert new == old, (p.name, value)
            cases += 1
            refused += old[0] == "refused"
    assert 0 < refused < cases  # (both outcomes looked at)
    with pytest.raises(ParamError):
        model.changed(valid, "no_such_parameter", 1)
