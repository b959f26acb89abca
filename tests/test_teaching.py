"""What students read and see is right: explanations, notes, verdicts and sampled pictures.

Issue 16 items 1–10 ("wrong or misleading") and issue 13 items 5–6. Every number a test
compares against is recomputed here in float64 from the published definitions
(Vaswani et al., RoFormer, Press et al., HF ``_relative_position_bucket``), not read
from the code under test.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from core.attention import _projections, token_embeddings, tokenize, toy_attention
from core.relative import t5_relative_bucket
from core.rope import apply_rope
from core.viewdata import Band, ComputeContext, ViewData
from core.views import VIEWS

CTX = ComputeContext()
DECKS = Path(__file__).resolve().parent.parent / "resources" / "decks"


def view(view_id: str, ctx: ComputeContext = CTX, **changes) -> ViewData:
    spec = VIEWS[view_id]
    return spec.compute(spec.model.validate(changes, partial=True), ctx)


def softmax(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - np.max(x[np.isfinite(x)]))
    return e / e.sum()


def press_slopes(n: int) -> np.ndarray:
    """Press et al.'s ``get_slopes`` (ofirpress/attention_with_linear_biases)."""

    def pow2(k: int) -> list[float]:
        start = 2 ** (-(2 ** -(math.log2(k) - 3)))
        return [start * start**i for i in range(k)]

    if math.log2(n).is_integer():
        return np.array(pow2(n))
    c = 2 ** math.floor(math.log2(n))
    return np.array(pow2(c) + list(press_slopes(2 * c)[0::2][: n - c]))


def pe(positions: np.ndarray, d: int, base: float = 10000.0) -> np.ndarray:
    """PE[p, 2i] = sin(p·ω_i), PE[p, 2i+1] = cos(p·ω_i), ω_i = base^(−2i/d)."""
    p = np.asarray(positions, dtype=np.float64)[:, None]
    c = np.arange(d)
    w = base ** (-2.0 * (c // 2) / d)
    return np.where(c % 2 == 0, np.sin(p * w), np.cos(p * w))


def all_text(data: ViewData) -> str:
    spec = VIEWS[data.view_id]
    parts = [spec.explanation, data.formula, data.verdict, *data.display_notes()]
    parts += [p.title for p in data.panels] + [s.name for p in data.panels for s in p.series]
    parts += [p.help for p in spec.model.params]
    return " ".join(parts)


# ------------------------------------------------------------------ 1: ALiBi ± m·j
def test_alibi_explanation_says_plus_mj_and_shows_minus_mj_reverses():
    data = view("alibi", seq_len=16, heads=8, query=15, head=1, causal=True)
    text = VIEWS["alibi"].explanation
    assert "+m·j" in text and "row-constant −m·j" not in text
    scores = np.random.default_rng(11).standard_normal(16)  # the view's toy scores
    j = np.arange(16)
    alibi = softmax(scores - 0.5 * (15 - j))[0]
    plus, minus = softmax(scores + 0.5 * j)[0], softmax(scores - 0.5 * j)[0]
    assert alibi == pytest.approx(plus) and alibi == pytest.approx(1.68e-4, rel=0.01)
    assert minus == pytest.approx(0.202, abs=5e-4)
    note = next(n for n in data.notes if "−m·j" in n)
    assert f"{minus:.3g}" in note and f"{alibi:.3g}" in note and "revers" in note
    other = view("alibi", seq_len=16, heads=8, query=9, head=3)  # computed, not fixed
    scores9 = np.r_[scores[:10], np.full(6, -np.inf)]
    m3 = press_slopes(8)[2]
    minus9 = softmax(scores9 - m3 * j)[0]
    assert any(f"{minus9:.3g}" in n for n in other.notes)


# ------------------------------------------------------------------ 2: causal word order
def test_word_order_shows_bidirectional_and_causal_with_verdicts():
    data = view("permutation", sentence="dog bites man", permuted="man bites dog")
    keys = {p.key for p in data.panels}
    assert {"weights_a_none", "weights_a_causal", "diff_causal", "weights_a_pe"} <= keys
    v = data.verdict
    assert "Bidirectional, no positions" in v and "exactly the rows" in v
    a, b = tokenize("dog bites man"), tokenize("man bites dog")
    ra = toy_attention(a, "none", 16, causal=True)
    rb = toy_attention(b, "none", 16, causal=True)
    gap = float(np.max(np.abs(rb.outputs - ra.outputs[[2, 1, 0]])))
    assert gap == pytest.approx(2.72, abs=0.01)
    assert f"Causal mask, no positions: they differ (max difference {gap:.3g})" in v
    # the first token attends only to itself: its output is its own value vector
    wv = _projections(16)[2]
    np.testing.assert_allclose(ra.outputs[0], token_embeddings(a, 16)[0] @ wv, atol=1e-12)
    np.testing.assert_allclose(rb.outputs[0], token_embeddings(b, 16)[0] @ wv, atol=1e-12)
    assert np.all(np.triu(ra.weights, 1) == 0.0)
    diff = data.panel("diff_causal").image
    assert float(np.max(np.abs(diff))) == pytest.approx(gap)


# ------------------------------------------------------------------ 3 / 13.6: ALiBi heads
@pytest.mark.parametrize("heads", [6, 12, 8, 3])
def test_alibi_colour_range_formula_and_distance_panel_use_every_head(heads):
    n = 40
    m = press_slopes(heads)
    steep = int(np.argmax(m))
    sel = min(2, heads)
    data = view("alibi", seq_len=n, heads=heads, head=sel)
    lo, hi = data.panel("heads").levels
    assert lo == pytest.approx(-m.max() * (n - 1)) and hi == 0.0
    assert f"steepest m_{steep + 1} = {m[steep]:.4g}" in data.formula
    dist = data.panel("distance")
    slopes_drawn = set()
    for s in dist.series:
        x, y = np.asarray(s.x), np.asarray(s.y)
        for seg_x, seg_y in zip(
            np.split(x, np.where(np.isnan(x))[0]),
            np.split(y, np.where(np.isnan(y))[0]),
            strict=True,
        ):
            ok = np.isfinite(seg_x) & np.isfinite(seg_y) & (seg_x > 0)
            if ok.any():
                slopes_drawn |= set(np.round(-seg_y[ok] / seg_x[ok], 12))
            assert not ok.any() or seg_x[ok].max() == n - 1  # every line reaches n − 1
    assert slopes_drawn == set(np.round(m, 12))  # all heads, not the first 8
    highlighted = [s for s in dist.series if "softmax row" in s.name]
    assert len(highlighted) == 1 and highlighted[0].style == "line"
    assert highlighted[0].name.startswith(f"head {sel}:")
    np.testing.assert_allclose(highlighted[0].y, -m[sel - 1] * highlighted[0].x)
    assert 1 < len(dist.series) <= 6  # the legend is shown (gui: 2..6 entries)
    assert f"head {sel} highlighted" in dist.title


# ------------------------------------------------------------------ 4: aliasing
def test_sinusoidal_long_waves_are_min_max_envelopes():
    n = 65536
    data = view("sinusoidal", seq_len=n, d_model=32, dims=(0, 1, 30))
    waves = data.panel("waves")
    assert "min–max" in waves.note
    exact = pe(np.arange(n), 32)
    for s, col in zip(waves.series, (0, 1, 30), strict=True):
        assert "min–max" in s.name
        x, y = np.asarray(s.x), np.asarray(s.y)
        starts, lo, hi = x[0::2].astype(int), y[0::2], y[1::2]
        np.testing.assert_array_equal(x[0::2], x[1::2])
        stride = int(starts[1] - starts[0])
        for k in (0, 1, len(starts) // 2, len(starts) - 1):
            block = exact[starts[k] : starts[k] + stride, col]
            assert lo[k] == pytest.approx(block.min(), abs=1e-12)
            assert hi[k] == pytest.approx(block.max(), abs=1e-12)
    dim0 = waves.series[0]
    assert np.min(dim0.y) < -0.99 and np.max(dim0.y) > 0.99  # period 6.28: full band


def test_sampled_pe_heatmap_cells_are_block_means_not_stripes():
    n, d = 2048, 512
    data = view("sinusoidal", seq_len=n, d_model=d)
    heat = data.panel("heatmap")
    stride = int(heat.y_coords[1] - heat.y_coords[0])
    assert stride == 4 and "mean" in heat.note
    full = pe(np.arange(n), d)[:, heat.x_coords]
    means = full.reshape(-1, stride, heat.x_coords.size).mean(axis=1)
    np.testing.assert_allclose(heat.image, means, atol=1e-9)
    # dimension 0 (period 2π) averaged over 4 positions keeps less than half its contrast
    assert np.max(np.abs(heat.image[:, 0])) < 0.5
    sim = data.panel("similarity")
    rows = sim.y_coords[:5]
    block_pe = pe(np.arange(n), d).reshape(-1, stride, d).mean(axis=1)
    ref = block_pe[:5] @ block_pe[:5].T  # mean of PE_p·PE_q over a block pair (bilinear)
    assert rows[1] == stride
    np.testing.assert_allclose(sim.image[:5, :5], ref, atol=1e-8)


def test_rope_sampled_score_draws_fast_pairs_as_a_band_holding_the_exact_score():
    hd, L = 64, 8192
    data = view("rope", head_dim=hd, seq_len=L, m=5, n=9)
    s = data.panel("score").series[0]
    assert "band" in s.name
    assert any("alias" in n for n in data.notes)
    x, y = np.asarray(s.x), np.asarray(s.y)
    offs, lo, hi = x[0::2], y[0::2], y[1::2]
    q, k = np.random.default_rng(7).standard_normal((2, hd))
    pick = np.linspace(0, offs.size - 1, 25).astype(int)
    theta = 10000.0 ** (-np.arange(0, hd, 2) / hd)
    for i in pick:
        rq = apply_rope(q[None], [5.0], theta)[0]
        rk = apply_rope(k[None], [5.0 - offs[i]], theta)[0]
        exact = rq @ rk
        assert lo[i] - 1e-9 <= exact <= hi[i] + 1e-9
    decay = data.panel("decay").series[0]
    assert "band" in decay.name


# ------------------------------------------------------------------ 5: ALiBi long rows
@pytest.mark.parametrize(("n", "query"), [(65536, 40000), (65536, 65535), (4096, 0)])
def test_alibi_long_softmax_row_keeps_the_query_and_its_neighbours(n, query):
    data = view("alibi", seq_len=n, query=query, head=1)
    row = data.panel("row")
    x = np.asarray(row.series[1].x).astype(int)
    for j in range(max(query - 3, 0), min(query + 3, n - 1) + 1):
        assert j in x
    assert row.series[1].y.sum() > 0.99  # the drawn keys carry the row's weight
    assert "query" in row.note and len(x) <= CTX.max_points


# ------------------------------------------------------------------ 6: compare
def test_compare_says_sinusoidal_and_rope_are_the_same_curve():
    data = view("compare", seq_len=64, d_model=64)
    dist = data.panel("distance").series
    d = 64
    delta = np.arange(64.0)
    w = 10000.0 ** (-np.arange(0, d, 2) / d)
    rope_unit = np.cos(delta[:, None] * w).sum(axis=1)  # ⟨R_p q, R_q k⟩, q = k = (1, 0)
    pe_dot = pe(delta + 3, d) @ pe(np.array([3.0]), d)[0]
    np.testing.assert_allclose(pe_dot, rope_unit, atol=1e-9)
    np.testing.assert_allclose(dist[0].y, dist[1].y, atol=1e-12)
    note = next(n for n in data.notes if "same curve" in n)
    assert "RoPE score" in note and "PE_p·PE_q" in note


def test_compare_names_each_lane_where_it_is_drawn():
    """The extrapolation panel's lanes carry the method's name on the y axis (it read
    "method lane" 0..4, and the audience had to match colours with the legend)."""
    data = view("compare", seq_len=64)
    panel = next(p for p in data.panels if p.key == "extrapolation")
    ticks = dict(panel.y_ticks or [])
    for series in panel.series:
        if series.name.startswith("train_len"):
            continue
        lane = float(np.nanmin(series.y))
        assert ticks[lane] == series.name.split(" (")[0], (lane, series.name)
    assert ticks[4] == "learned" and np.isnan(panel.series[4].y[-1])


# ------------------------------------------------------------------ 7: identity first
@pytest.mark.parametrize("sentence", ["dog bites dog", "man bites man", "a b a"])
def test_a_sentence_compared_with_itself_reads_identical(sentence):
    for method in ("sinusoidal", "rope", "alibi", "learned"):
        data = view("permutation", sentence=sentence, permuted=sentence, method=method)
        assert "identical" in data.verdict and "differ" not in data.verdict
        for p in data.panels:
            if p.key.startswith("diff_"):
                assert np.max(np.abs(p.image)) == 0.0


# ------------------------------------------------------------------ 8: texts
def test_llama3_low_freq_factor_tooltip_says_multiplied():
    help_text = VIEWS["rope"].model["low_freq_factor"].help
    assert "multiplied" in help_text and "divided by factor." not in help_text


@pytest.mark.parametrize("d", [1, 2, 3, 5, 8])
def test_similarity_claims_p_minus_q_only_exactly_when_true(d):
    data = view("sinusoidal", seq_len=12, d_model=d)
    sim = data.panel("similarity")
    ref = pe(np.arange(12), d) @ pe(np.arange(12), d).T
    np.testing.assert_allclose(sim.image, ref, atol=1e-12)
    toeplitz = np.allclose(ref[1:, 1:], ref[:-1, :-1], atol=1e-12)
    assert toeplitz == (d % 2 == 0)
    claims = "depends on p − q only" in sim.title
    assert claims == toeplitz
    if not toeplitz:
        assert "not a function of p − q" in sim.note


@pytest.mark.parametrize("d", [1, 2, 3, 4, 32])
def test_omega_1_only_where_it_exists(d):
    formula = view("sinusoidal", d_model=d).formula
    if d <= 2:  # one frequency only: ω_0
        assert "ω_1 =" not in formula
    else:
        assert f"ω_1 = {10000.0 ** (-2 / d):.4g}" in formula


def test_t5_minimum_bucket_message_is_true():
    t5_relative_bucket(np.arange(-5, 6), False, 2, 128)  # the true minima work
    t5_relative_bucket(np.arange(-5, 6), True, 4, 128)
    for bidirectional, buckets in ((True, 3), (False, 1)):
        with pytest.raises(ValueError) as info:
            t5_relative_bucket(np.arange(3), bidirectional, buckets, 128)
        msg = str(info.value)
        assert "num_buckets >= 4 bidirectional" in msg and ">= 2 causal" in msg
        assert "8 if bidirectional" not in msg


def test_compare_learned_note_and_shaw_parameter_count():
    data = view("compare", train_len=32)
    text = " ".join(data.display_notes())
    assert "beyond 32" not in text and "from 32 on" in text and "rows 0..31" in text
    table = " ".join(" ".join(r) for r in data.panel("table").rows)
    assert "2·(2k + 1)·d_head" in table
    assert "2·(2k + 1)·d_head" in VIEWS["relative"].model["k"].help


def test_dynamic_equals_unscaled_note_follows_the_length():
    short = view("rope", seq_len=256, original_max_position_embeddings=2048)
    freq = {s.name.split(" ")[0]: s.y for s in short.panel("frequencies").series}
    np.testing.assert_array_equal(freq["dynamic"], freq["unscaled"])
    assert any("dynamic ×4 equals unscaled" in n for n in short.notes)
    long = view("rope", seq_len=4096, original_max_position_embeddings=2048)
    freq = {s.name.split(" ")[0]: s.y for s in long.panel("frequencies").series}
    assert not np.array_equal(freq["dynamic"], freq["unscaled"])
    assert not any("equals unscaled" in n for n in long.notes)


def test_loaded_table_colour_range_is_robust_to_an_outlier(tmp_path):
    table = np.random.default_rng(0).standard_normal((64, 16))
    table[3, 4] = 1e6
    path = tmp_path / "t.npy"
    np.save(path, table)
    data = view("learned", table_file=str(path), seq_len=10)
    lo, hi = data.panel("table").levels
    assert hi == pytest.approx(np.percentile(np.abs(table), 99.5)) and lo == -hi
    assert hi < 10


# ------------------------------------------------------------------ 9: deck notes
def _deck_scenes():
    for path in sorted(DECKS.glob("*.json")):
        deck = json.loads(path.read_text(encoding="utf-8"))
        for k, scene in enumerate(deck["scenes"]):
            yield pytest.param(scene, id=f"{path.stem}-{k + 1}")


@pytest.mark.parametrize("scene", list(_deck_scenes()))
def test_every_deck_scene_renders_and_its_note_agrees(scene):
    data = view(scene["view"], **scene["params"])
    note, params = scene["note"], scene["params"]
    assert data.panels
    assert "permutation-invariant" not in note
    assert "every method breaks" not in note and "up to 2π·base" not in note
    assert "n − m" not in note
    if "m − n" in note and scene["view"] == "rope":
        quoted = int(re.search(r"m − n = ([−-]?\d+)", note).group(1).replace("−", "-"))
        assert quoted == params["m"] - params["n"]
        offset = params["m"] - params["n"]  # the formula's minus sign, as the note's
        assert f"m − n = {offset}".replace("-", "−") in data.formula
    if scene["view"] == "sinusoidal" and "slowest pair" in note:
        d, base = params["d_model"], params["base"]
        slowest = 2 * math.pi * base ** (2 * ((d + 1) // 2 - 1) / d)
        quoted = float(re.search(r"≈ ([\d ]+) positions, not", note).group(1).replace(" ", ""))
        assert quoted == round(slowest)
        assert data.panel("wavelength").series[0].y[-1] == pytest.approx(slowest)
        assert 2 * math.pi * base / slowest == pytest.approx(base ** (2 / d))  # 3.16× at 16
    if params.get("scaling") == "llama3":
        assert "Llama 3.1" in note and "Llama 3.1" in scene["title"]
        freq = {s.name.split(" ")[0]: s.y for s in data.panel("frequencies").series}
        base_f, scaled = freq["unscaled"], freq["llama3"]
        kept = int(np.sum(scaled == base_f))
        divided = int(np.sum(np.isclose(scaled, base_f / params["factor"], rtol=1e-12)))
        blended = base_f.size - kept - divided
        wl = 2 * math.pi / base_f
        orig = params["original_max_position_embeddings"]
        assert kept == np.sum(wl < orig / params["high_freq_factor"])
        assert divided == np.sum(wl > orig / params["low_freq_factor"])
        assert f"the {kept} short-wavelength ones are kept" in note
        assert f"the {divided} long ones" in note and f"the {blended} in between" in note
    if scene["view"] == "permutation":
        if "equivariant" in note:
            assert "exactly the rows" in data.verdict
        if "ALiBi" in note and "identical" in note:
            alibi = view("permutation", **{**params, "method": "alibi"})
            assert "still identical" in alibi.verdict
            assert "sinusoidal" in note and "RoPE" in note
            for method in ("sinusoidal", "learned", "rope"):
                other = view("permutation", **{**params, "method": method})
                assert "with" in other.verdict and "they differ" in other.verdict.split("with")[-1]
    if scene["view"] == "learned" and "no row" in note:
        rows, n = params["max_positions"], params["seq_len"]
        assert f"positions {rows}..{n - 1}" in note
        assert f"positions {rows}..{n - 1} have no row" in data.verdict
    if scene["view"] == "relative" and "2k + 1" in note:
        assert "two" in note  # Shaw et al. learn a key table and a value table
    if scene["view"] == "relative" and "2k + 1 =" in note:
        quoted = int(re.search(r"2k \+ 1 = (\d+)", note).group(1))
        assert quoted == 2 * params["k"] + 1
        assert data.panel("shaw").levels == (0.0, 2.0 * params["k"])


# ------------------------------------------------------------------ 10: partial rotary
@pytest.mark.parametrize("head_dim", [64, 128])
def test_every_rotary_fraction_slider_position_computes(head_dim):
    snapped = 0
    for step in range(1, 21):
        frac = round(0.05 * step, 2)
        data = view("rope", head_dim=head_dim, partial_rotary_factor=frac)
        raw = int(head_dim * frac)
        d_rot = 2 * data.panel("frequencies").series[0].y.size
        assert d_rot % 2 == 0 and 2 <= d_rot <= head_dim
        assert d_rot == max(2, raw - raw % 2)
        theta = 10000.0 ** (-np.arange(0, d_rot, 2) / d_rot)
        np.testing.assert_allclose(data.panel("frequencies").series[0].y, theta, rtol=1e-12)
        if d_rot != raw:
            snapped += 1
            assert any(f"snapped to d_rot = {d_rot}" in n for n in data.notes)
    assert snapped == 8


# ------------------------------------------------------------------ 13.5: learned overflow
def test_learned_overflow_is_drawn_not_only_an_error():
    data = view("learned", max_positions=64, seq_len=80, d_model=32)
    assert "p = 0..79" in data.formula and "64..79" in data.formula
    assert "max_positions=64" in data.verdict
    sim = data.panel("similarity")
    assert sim.image.shape == (80, 80) and sim.missing == "no row"
    assert np.isnan(sim.image[64:]).all() and np.isnan(sim.image[:, 64:]).all()
    assert np.isfinite(sim.image[:64, :64]).all()
    table = data.panel("table")
    assert table.missing == "no row" and np.isnan(table.image[64:]).all()
    # the titles name the rows missing in their parentheses, not after a spaced dash
    # (a wrap kept "— no" / "row: 64..79" or let the dash start a line)
    assert table.title == "Position table E (64 × 32, random init, seed 0; no row: 64..79)"
    assert sim.title == "Cosine similarity between looked-up rows (no row: 64..79)"
    assert np.isfinite(table.image[:64]).all() and table.y_coords[-1] == 79
    assert "no row" in sim.probe(70.0, 3.0) and "no row" in table.probe(0.0, 70.0)
    norms = data.panel("norms").series
    assert np.isnan(norms[0].y[64:]).all() and np.isfinite(norms[0].y[:64]).all()
    # the positions without a row are a band of the curve panels, not a curve
    for key in ("dims", "norms"):
        panel = data.panel(key)
        assert panel.bands == [Band(63.5, 79.5, "no row: positions 64..79")]
        assert not [s for s in panel.series if "no row" in s.name]
        names, table = panel.data_table()  # CSV/NPY: the curves alone, NaN past the table
        assert not [n for n in names if "no row" in n]
        assert np.array_equal(table[:, 0], np.arange(80.0)) and np.isnan(table[64:, 1]).all()
    inside = view("learned", max_positions=64, seq_len=48)
    assert inside.verdict == "" and inside.panel("similarity").missing == ""
    assert inside.panel("norms").bands == [] and inside.panel("dims").bands == []
    with pytest.raises(ValueError, match="max_positions=64"):  # the export has no rows
        spec = VIEWS["learned"]
        spec.export(spec.model.validate({"seq_len": 80}, partial=True))


LARGE = {
    "sinusoidal": {"seq_len": 65536},
    "learned": {"max_positions": 8192, "seq_len": 8192},
    "rope": {"seq_len": 65536},
    "alibi": {"seq_len": 65536},
    "relative": {"max_distance": 4096},
    "compare": {"seq_len": 65536},
}


@pytest.mark.parametrize("view_id", sorted(LARGE))
def test_every_sampled_curve_says_so(view_id):
    """A curve drawn from a sample of an integer axis says so in its legend name: a
    sample ('· 1 in s', 'keys sampled'), a min/max envelope or a band."""
    data = view(view_id, **LARGE[view_id])
    marks = ("1 in ", "sampled", "min–max", "band")
    checked = 0
    for p in data.panels:
        if p.kind != "curves" or (view_id, p.key) == ("alibi", "distance"):
            continue  # ALiBi's bias is linear in the distance: its lines are exact
        for s in p.series:
            x = np.asarray(s.x, dtype=float)
            x = x[np.isfinite(x)]
            if s.style == "scatter" or x.size <= 2 or np.any(x != np.round(x)):
                continue  # markers, or not an integer axis
            if np.max(np.diff(np.unique(x))) > 1:  # integers were skipped
                checked += 1
                assert any(m in s.name for m in marks), (view_id, p.key, s.name)
    assert checked


def test_learned_overflow_in_the_window_is_drawn_hatched_without_an_error(window):
    """Deck scene 7 ("Out of range"): the window shows the overflow, not a banner."""
    from PySide6 import QtCore

    window.set_view("learned")
    state = window.states["learned"]
    state.set_param("seq_len", 80)
    assert window.wait_idle()
    widget = window.views["learned"]
    assert widget.data.params["seq_len"] == 80
    assert not widget.banner.isVisible(), widget.banner.text()
    assert "p = 0..79" in widget.formula.text()
    got = widget.plots["similarity"].plotted_arrays()["image"]
    assert got.shape == (80, 80) and np.isnan(got[64:]).all()

    def hatched(key: str) -> bool:
        plot = widget.plots[key]
        bg = plot.plot.getViewBox().background  # never the margins around the cells
        assert not (bg.isVisible() and bg.brush().style() == QtCore.Qt.BrushStyle.BDiagPattern)
        item = plot._missing_item
        pattern = QtCore.Qt.BrushStyle.BDiagPattern
        return item is not None and item.isVisible() and item.brush().style() == pattern

    assert hatched("similarity") and hatched("table")
    # only the cells without a value: the table's rows 64..79 across its 32 columns,
    # the similarity's rows and columns 64..79 (not the view box's margins around them)
    table = widget.plots["table"]._missing_item.path()
    assert table.boundingRect().getRect() == (-0.5, 63.5, 32.0, 16.0)
    assert table.contains(QtCore.QPointF(15, 70)) and not table.contains(QtCore.QPointF(15, 60))
    square = widget.plots["similarity"]._missing_item.path()
    assert square.boundingRect().getRect() == (-0.5, -0.5, 80.0, 80.0)
    inside = [(70, 10), (10, 70), (70, 70), (79.4, 0)]
    outside = [(10, 10), (63.4, 63.4), (-1, 70), (70, -1), (81, 70), (70, 81)]
    assert all(square.contains(QtCore.QPointF(x, y)) for x, y in inside)
    assert not any(square.contains(QtCore.QPointF(x, y)) for x, y in outside)
    box = widget.plots["similarity"].plot.getViewBox()
    (x_lo, x_hi), (y_lo, y_hi) = box.viewRange()
    assert x_lo < -0.5 or y_lo < -0.5 or x_hi > 79.5 or y_hi > 79.5  # (margins were there)
    from gui.render.band_item import BandSample

    for key in ("dims", "norms"):  # the curve plots: a hatched band, not a zigzag curve
        plot = widget.plots[key]
        assert [(b.x0, b.x1) for b in plot.bands] == [(63.5, 79.5)]
        band, vb = plot.bands[0], plot.plot.getViewBox()
        assert band.isVisible() and band.zValue() < 0  # under the curves
        assert not [c for c in plot.curves if "no row" in (c.name() or "")]
        (x_lo, x_hi), (y_lo, y_hi) = vb.viewRange()
        assert x_lo < 0 and x_hi >= 79.5  # the view keeps the band
        # drawn over the missing positions and the plot's whole height
        drawn = band.mapRectToScene(band.boundingRect())
        view = vb.sceneBoundingRect()
        left = vb.mapViewToScene(QtCore.QPointF(63.5, y_lo)).x()
        right = vb.mapViewToScene(QtCore.QPointF(79.5, y_lo)).x()
        assert abs(drawn.left() - left) < 0.5 and abs(drawn.right() - right) < 0.5
        assert abs(drawn.top() - view.top()) < 1 and abs(drawn.bottom() - view.bottom()) < 1
        entries = {label.text: sample for sample, label in plot.legend.items}
        assert isinstance(entries.get("no row: positions 64..79"), BandSample), list(entries)
        hover = widget.readout_at(key, 72.0, 0.5 * (y_lo + y_hi))
        assert hover.endswith("= 72 — no row: positions 64..79"), hover
        assert "nan" not in widget.readout_at(key, 70.2, 0.5 * (y_lo + y_hi))
    state.set_param("seq_len", 100)  # the band follows the length
    assert window.wait_idle()
    plot = widget.plots["norms"]
    assert [(b.x0, b.x1, b.label) for b in plot.bands] == [(63.5, 99.5, "no row: positions 64..99")]
    assert "no row: positions 64..99" in [label.text for _s, label in plot.legend.items]
    assert plot.plot.getViewBox().viewRange()[0][1] >= 99.5
    state.set_param("seq_len", 48)  # back inside the table: no hatching
    assert window.wait_idle()
    assert widget.data.params["seq_len"] == 48
    assert not hatched("similarity") and not hatched("table")
    assert widget.plots["norms"].bands == [] and widget.plots["dims"].bands == []


def test_learned_no_row_band_in_exports(tmp_path, qapp):
    """Headless export past max_positions: the band is grey-hatched pixels, not a curve's
    colour; the plot's CSV holds the curves alone (NaN past the table), no zigzag."""
    from PySide6 import QtGui

    from gui.export.headless import export_view
    from gui.plotting.plot_data import series_color
    from gui.theme import current_theme

    path = tmp_path / "norms.png"
    export_view("learned", {"seq_len": 80}, path, width=480, height=320, panel="norms")
    image = QtGui.QImage(str(path)).convertToFormat(QtGui.QImage.Format.Format_RGB32)
    w, h = image.width(), image.height()
    rgb = np.frombuffer(image.constBits(), np.uint32).reshape(h, -1)[:, :w] & 0xFFFFFF
    theme = current_theme()
    fill, hatch, line = (
        QtGui.QColor(c).rgb() & 0xFFFFFF
        for c in (theme.masked, theme.masked_hatch, series_color(0, theme))
    )
    grey = (rgb == fill) | (rgb == hatch)
    cols = np.nonzero(grey.sum(axis=0) > h / 3)[0]  # the band's columns (not the key's)
    assert cols.size and np.all(np.diff(cols) == 1)
    rows = np.nonzero(grey[:, cols].all(axis=1))[0]
    assert rows.size > h / 2 and np.all(np.diff(rows) == 1)
    box = rgb[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    assert (box == hatch).sum() > 0.05 * box.size and (box == fill).sum() > 0.5 * box.size
    assert not (box == line).any()  # no curve drawn over the missing positions
    assert 0.1 * w < cols.size < 0.25 * w and cols[0] > w / 2  # positions 64..79 of 0..79
    # the SVG's band is hatched as finely (not stretched by the data's scale to a few
    # wide, blurred stripes): a row across it crosses many hatch lines
    from PySide6 import QtSvg

    svg = tmp_path / "norms.svg"
    export_view("learned", {"seq_len": 80}, svg, width=480, height=320, panel="norms")
    drawn = QtGui.QImage(w, h, QtGui.QImage.Format.Format_RGB32)
    drawn.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(drawn)
    QtSvg.QSvgRenderer(str(svg)).render(painter)
    painter.end()
    mid = (rows[0] + rows[-1]) // 2
    dark = [drawn.pixelColor(int(x), int(mid)).lightness() < 128 for x in cols[3:-3]]
    crossings = sum(1 for a, b in zip(dark, dark[1:], strict=False) if b and not a)
    assert crossings >= cols.size // 12, (crossings, cols.size)
    csv = tmp_path / "norms.csv"
    export_view("learned", {"seq_len": 80}, csv, panel="norms")
    lines = csv.read_text(encoding="utf-8").splitlines()
    assert "no row" not in lines[0] and len(lines) == 81
    assert all(line.endswith(",nan") for line in lines[65:])
    assert [line.split(",")[1] for line in lines[1:]] == [str(p) for p in range(80)]


# ------------------------------------------------------------------ notes on a stage
def test_notes_read_as_text_and_follow_the_panels_shown():
    """No formula markup (``_{``, ``^{``) in any note a view displays at its defaults;
    a stage showing some panels shows their notes and the view notes about them or
    about the whole view, not those about panels it does not show."""
    for view_id, spec in VIEWS.items():
        data = spec.compute(spec.model.defaults(), ComputeContext())
        for note in data.display_notes():
            assert "_{" not in note and "^{" not in note and "\\" not in note, (view_id, note)
        for n, keys in data.note_panels.items():  # tagged notes name panels that exist
            assert n in data.notes and set(keys) <= {p.key for p in data.panels}, (view_id, n)
        assert data.display_notes(None) == data.display_notes([p.key for p in data.panels])
    rope = view("rope")
    plane = rope.display_notes(["plane"])
    assert len(plane) == 1 and plane[0].startswith(rope.panel("plane").title)
    every = " ".join(rope.display_notes())
    assert "dynamic ×4" in every and "xPos" in every and "Sⱼ = Σ over k < j" in every
    assert "dynamic ×4" in " ".join(rope.display_notes(["frequencies"]))
    alibi = view("alibi")
    sign, toy = alibi.notes  # about the softmax row, about the course toy
    assert alibi.display_notes(["heads"]) == []
    assert alibi.display_notes(["row"])[0] == sign and toy not in alibi.display_notes(["row"])
    assert toy in alibi.display_notes(["course"])


def test_slides_show_the_notes_of_the_plots_they_show(qapp):
    """A deck slide (scene 8 reveals RoPE's plane first) has the scene's note and the
    notes of the plots it shows, not those of panels the scene hides."""
    from core.resources import resource_path
    from core.scenes import load_deck
    from core.views import compute_view, get_view
    from gui.export.deck import stage_scene
    from gui.export.headless import build_widget, context_for_size

    scene = load_deck(resource_path("decks") / "lecture-positional-encoding.json").scenes[7]
    assert scene.view_id == "rope" and scene.reveal and scene.panels[0] == "plane"
    data = compute_view(
        "rope",
        get_view("rope").model.validate(scene.params, partial=True),
        context_for_size(640, 400),
    )
    for step, shown in ((1, ["pair 0 = dims"]), (2, ["pair 0 = dims", "fixed random q, k"])):
        widget = build_widget(get_view("rope"), data, None, scene.title, scene.note)
        try:
            assert "xPos" in widget.status_text()  # drawn, not staged yet: every note
            stage_scene(scene, widget, step)  # step 2 reveals the score
            text = widget.status_text()
            assert text.startswith(scene.note) and all(t in text for t in shown), text
            assert "xPos" not in text and "RoFormer" not in text and "dynamic" not in text
            assert ("fixed random q, k" in text) == (step == 2)
        finally:
            widget.deleteLater()


def test_rope_plane_writes_a_large_angle_as_a_power_of_ten():
    """Dragging RoPE's query position to 206256 titled the plane "q: m·θ = 2.063e+05 rad"
    (Python's e-notation, on the projector; Xvfb, window at 100 %), where the formula
    above it and every other title write "·10⁵"; small angles keep their digits."""
    data = view("rope", m=206256, n=1_000_000)
    plane = next(p for p in data.panels if p.key == "plane")  # (its note: the angles)
    assert plane.note.startswith("m·θ = 2.063·10⁵ rad (32826 full turns; atan2 "), plane.note
    assert "n·θ = 1·10⁶ rad (" in plane.note, plane.note
    assert "e+" not in plane.title + plane.note
    plane = next(p for p in view("rope", m=5, n=9).panels if p.key == "plane")
    assert plane.note.startswith("m·θ = 5 rad (0 full turns; atan2 "), plane.note
    assert "n·θ = 9 rad (1 full turn; atan2 " in plane.note, plane.note
