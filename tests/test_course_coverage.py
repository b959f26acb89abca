"""Issue 16, "course material not yet shown" and "what a 2026 lecture adds" (non-RoPE part).

Every number is recomputed here in float64 from the published definitions — Vaswani et
al. (sinusoidal PE), the course's own code, Press et al. (ALiBi slopes), Dai et al. 2019
(Transformer-XL), HF transformers' DeBERTa-v2 (``make_log_bucket_position``,
``disentangled_attention_bias``), Chi et al. 2022 (KERPLE), NeMo's Sandwich, Li et al.
2023 (FIRE) and HF's SmolLM3 / Llama 4 configs (``no_rope_layers``) — not read from the
code under test. Seeded toy vectors (token embeddings, weights) are data, taken from core.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from core.alibi import FIRE_B1, FIRE_W1, FIRE_W2
from core.relative import TOY_WIDTH, deberta_rel_embeddings, toy_head
from core.sinusoidal import toy_token_embeddings
from core.viewdata import ComputeContext, ViewData
from core.views import VIEWS

CTX = ComputeContext()


def view(view_id: str, ctx: ComputeContext = CTX, **changes) -> ViewData:
    spec = VIEWS[view_id]
    return spec.compute(spec.model.validate(changes, partial=True), ctx)


def pe(positions, d: int, base: float = 10000.0) -> np.ndarray:
    """PE[p, 2i] = sin(p·ω_i), PE[p, 2i+1] = cos(p·ω_i), ω_i = base^(−2i/d)."""
    p = np.asarray(positions, dtype=np.float64)[:, None]
    c = np.arange(d)
    w = base ** (-2.0 * (c // 2) / d)
    return np.where(c % 2 == 0, np.sin(p * w), np.cos(p * w))


def course_positional_encoding(max_len: int, d_model: int) -> np.ndarray:
    """The course's NumPy implementation, verbatim."""
    pe = np.zeros((max_len, d_model))
    position = np.arange(max_len).reshape(-1, 1)
    div_term = np.exp(np.arange(0, d_model, 2) * -(np.log(10000.0) / d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def softmax(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - np.max(x[np.isfinite(x)]))
    return e / e.sum()


# ------------------------------------------------------------------ sinusoidal: x + p
@pytest.mark.parametrize(
    ("n", "d", "query", "sigma"), [(100, 32, 10, 1.0), (12, 17, 30, 0.5), (600, 64, 500, 2.0)]
)
def test_token_plus_pe_and_its_four_score_terms(n, d, query, sigma):
    data = view("sinusoidal", seq_len=n, d_model=d, query=query, emb_std=sigma)
    i = min(query, n - 1)
    x_i = sigma * toy_token_embeddings([i], d)[0]
    p_i = pe([i], d)[0]
    token, pos, total = data.panel("sum").series
    np.testing.assert_allclose(token.y, x_i[: token.y.size], rtol=0, atol=1e-12)
    np.testing.assert_allclose(pos.y, p_i[: pos.y.size], rtol=0, atol=1e-12)
    np.testing.assert_allclose(total.y, (x_i + p_i)[: total.y.size], rtol=0, atol=1e-12)
    terms = data.panel("terms").series
    keys = terms[0].x.astype(int)
    assert i in keys and np.all(np.diff(keys) == 1)  # contiguous: exact, no sampling
    x = sigma * toy_token_embeddings(keys, d)
    p = pe(keys, d)
    for k, j in enumerate(keys):
        cc = math.fsum(x_i[c] * x[k, c] for c in range(d))
        cp = math.fsum(x_i[c] * p[k, c] for c in range(d))
        pc = math.fsum(p_i[c] * x[k, c] for c in range(d))
        pp = math.fsum(p_i[c] * p[k, c] for c in range(d))
        whole = math.fsum((x_i[c] + p_i[c]) * (x[k, c] + p[k, c]) for c in range(d))
        got = [s.y[k] for s in terms]
        assert got == pytest.approx([cc, cp, pc, pp, whole], rel=1e-10, abs=1e-10), j
        if d % 2 == 0:  # the position–position term depends on i − j only
            w = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
            assert got[3] == pytest.approx(math.fsum(np.cos((i - j) * w)), abs=1e-10)
    names = [s.name for s in terms]
    assert names[:4] == [
        "x_i·x_j content–content",
        "x_i·p_j content–position",
        "p_i·x_j position–content",
        "p_i·p_j position–position",
    ]
    at_i = int(np.flatnonzero(keys == i)[0])
    assert f"|x_i|² = {terms[0].y[at_i]:.3g}" in data.panel("terms").title
    if n <= CTX.max_cells and d % 2 == 0:  # nothing sampled: room for the hover hint
        assert not data.display_notes()


def test_toy_tokens_are_the_same_rows_whichever_window_asks():
    whole = toy_token_embeddings(np.arange(300), 24)
    np.testing.assert_array_equal(toy_token_embeddings([70, 3, 299], 24), whole[[70, 3, 299]])
    assert abs(whole.mean()) < 0.05 and abs(whole.std() - 1.0) < 0.05  # torch.randn-like
    assert not np.array_equal(whole[0], whole[64])  # the blocks are different streams


def test_four_term_window_stays_bounded_and_says_so():
    data = view("sinusoidal", seq_len=65536, d_model=16384, query=40000)
    terms = data.panel("terms")
    keys = terms.series[0].x.astype(int)
    assert keys.size <= 256 and 40000 in keys and np.all(np.diff(keys) == 1)
    assert f"keys {keys[0]}..{keys[-1]}" in terms.x_label
    assert data.panel("sum").series[0].y.size == 128 and "128 of 16384" in data.panel("sum").note


@pytest.mark.parametrize("d", [3, 9, 17, 33])
def test_odd_d_model_note_quotes_what_the_course_code_does(d):
    with pytest.raises(ValueError, match="could not broadcast"):
        course_positional_encoding(10, d)
    data = view("sinusoidal", d_model=d)
    note = next(t for t in data.notes if t.startswith("course code"))
    assert f"positional_encoding(max_len, {d})" in note and "ValueError" in note
    assert f"{d // 2} columns" in note and f"has {(d + 1) // 2}" in note


def test_even_d_model_course_code_matches_and_no_odd_note():
    np.testing.assert_allclose(
        course_positional_encoding(10, 16), pe(np.arange(10), 16), atol=1e-12
    )
    assert not any("course code" in t for t in view("sinusoidal", d_model=16).notes)


def test_sinusoidal_says_i_is_the_pair_index():
    text = VIEWS["sinusoidal"].explanation
    assert "i is the pair index" in text and "not the embedding dimension" in text


# ------------------------------------------------------------------ ALiBi: course toy
def press_slopes(n: int) -> np.ndarray:
    def pow2(k: int) -> list[float]:
        start = 2 ** (-(2 ** -(math.log2(k) - 3)))
        return [start * start**i for i in range(k)]

    if math.log2(n).is_integer():
        return np.array(pow2(n))
    c = 2 ** math.floor(math.log2(n))
    return np.array(pow2(c) + list(press_slopes(2 * c)[0::2][: n - c]))


@pytest.mark.parametrize(
    ("n", "heads", "head", "query", "causal"),
    [(8, 8, 1, 5, True), (16, 6, 5, 15, True), (40, 12, 9, 20, False), (4000, 8, 3, 3000, True)],
)
def test_course_toy_bias_next_to_real_alibi(n, heads, head, query, causal):
    data = view("alibi", seq_len=n, heads=heads, head=head, query=query, causal=causal)
    toy, real = data.panel("course"), data.panel("real")
    # the course's exact code: scores = torch.randn(8, 8); bias = -0.1 * torch.arange(8)
    scores8 = np.random.default_rng(0).standard_normal((8, 8))
    course = (scores8 + -0.1 * np.arange(8)) - scores8
    np.testing.assert_allclose(toy.image, course, rtol=0, atol=1e-12)
    assert toy.image.shape == (8, 8) and real.image.shape == (8, 8)
    m = press_slopes(heads)[head - 1]
    i, j = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    ref = np.where(j > i, -np.inf, -m * (i - j)) if causal else -m * np.abs(i - j)
    np.testing.assert_allclose(real.image, ref, rtol=1e-12, atol=1e-12)
    assert f"m = {m:.4g}" in real.title
    assert real.probe(2.0, 5.0).endswith(f"{-m * 3:.6g}")
    # softmax row: the course toy favours key 0 whatever the query
    scores = np.random.default_rng(11).standard_normal(n)
    mask = np.arange(n) > query if causal else np.zeros(n, bool)
    toy_w = softmax(np.where(mask, -np.inf, scores - 0.1 * np.arange(n)))
    row = data.panel("row").series[2]
    assert "course toy" in row.name
    np.testing.assert_allclose(row.y, toy_w[row.x.astype(int)], rtol=1e-10, atol=1e-14)
    note = next(t for t in data.notes if t.startswith("course toy vs ALiBi"))
    assert f"key {max(query - 1, 0)} {-m * min(query, 1) + 0.0:.3g}" in note
    assert f"key 0 {-m * query + 0.0:.3g}" in note


def test_alibi_explains_the_course_toy():
    text = VIEWS["alibi"].explanation
    assert "-0.1 * torch.arange(8)" in text and "−0.1·j" in text and "m_h" in text


# ------------------------------------------------------------------ relative: DeBERTa
def hf_log_bucket_float64(rel: np.ndarray, bucket_size: int, max_position: int) -> np.ndarray:
    """make_log_bucket_position in plain float64 Python."""
    mid = bucket_size // 2
    out = []
    for r in np.asarray(rel).ravel().tolist():
        a = mid - 1 if -mid < r < mid else abs(r)
        if a <= mid:
            out.append(r)
            continue
        v = math.ceil(math.log(a / mid) / math.log((max_position - 1) / mid) * (mid - 1)) + mid
        out.append(int(math.copysign(v, r)))
    return np.array(out)


CONFIGS = [(256, 512), (64, 128), (32, 2048), (2, 4), (3, 100), (1024, 8192)]


@pytest.mark.parametrize(("buckets", "max_rel"), CONFIGS)
def test_deberta_log_buckets_equal_hf(buckets, max_rel):
    from core.relative import deberta_log_bucket

    rel = np.arange(-3 * max_rel, 3 * max_rel + 1)
    got = deberta_log_bucket(rel, buckets, max_rel)
    ref = hf_log_bucket_float64(rel, buckets, max_rel)
    # float32 (HF/torch) and float64 may only disagree by one bucket where a value lands
    # on a ceil boundary; the torch test below checks those exactly
    assert np.max(np.abs(got - ref)) <= 1 and np.mean(got != ref) < 0.002
    mid = buckets // 2
    small = np.abs(rel) <= mid
    np.testing.assert_array_equal(got[small], rel[small])
    assert got[rel == max_rel - 1][0] == 2 * mid - 1


@pytest.mark.parametrize(("buckets", "max_rel"), CONFIGS)
def test_deberta_log_buckets_equal_hf_torch(buckets, max_rel):
    torch = pytest.importorskip("torch")
    from core.relative import deberta_log_bucket

    def make_log_bucket_position(relative_pos, bucket_size, max_position):  # HF, verbatim
        sign = torch.sign(relative_pos)
        mid = bucket_size // 2
        abs_pos = torch.where(
            (relative_pos < mid) & (relative_pos > -mid),
            torch.tensor(mid - 1).type_as(relative_pos),
            torch.abs(relative_pos),
        )
        log_pos = (
            torch.ceil(
                torch.log(abs_pos / mid)
                / torch.log(torch.tensor((max_position - 1) / mid))
                * (mid - 1)
            )
            + mid
        )
        return torch.where(abs_pos <= mid, relative_pos.type_as(log_pos), log_pos * sign)

    rel = np.arange(-3 * max_rel, 3 * max_rel + 1)
    ref = make_log_bucket_position(torch.tensor(rel), buckets, max_rel).to(torch.long).numpy()
    np.testing.assert_array_equal(deberta_log_bucket(rel, buckets, max_rel), ref)


def test_deberta_bucket_panel_is_the_hf_bucket():
    data = view("relative", position_buckets=64, max_relative_positions=300)
    s = data.panel("deberta_buckets").series[0]
    rel = s.x.astype(int)
    np.testing.assert_array_equal(s.y, hf_log_bucket_float64(rel, 64, 300))
    for corner in (32, 33, 299, 600):  # the kink at position_buckets/2, the last bucket
        assert corner in rel and -corner in rel
    assert "clamp(δ + 64, 0, 127)" in data.panel("deberta_buckets").note
    assert "|i − j| ≤ 32" in data.panel("deberta_buckets").note
    with pytest.raises(ValueError, match="max_relative_positions=20"):
        view("relative", position_buckets=64, max_relative_positions=20)


@pytest.mark.parametrize(
    ("n", "query", "buckets", "max_rel"), [(12, 8, 256, 512), (40, 30, 8, 20), (300, 5, 16, 64)]
)
def test_deberta_disentangled_terms_equal_hf_gather(n, query, buckets, max_rel):
    """HF's whole-matrix path: relative_pos = q_ids − k_ids bucketed, c2p gathered at
    clamp(δ + span), p2c gathered at clamp(−δ + span) on K·Q_rᵀ and transposed;
    share_att_key (DeBERTa-v3): K_r = P W_k, Q_r = P W_q; every term over √(3d)."""
    data = view(
        "relative", seq_len=n, query=query, position_buckets=buckets, max_relative_positions=max_rel
    )
    d, span = TOY_WIDTH, buckets
    w = toy_head(d)
    h = toy_token_embeddings(np.arange(n), d)
    q, k = h @ w["W_q"], h @ w["W_kE"]
    p = deberta_rel_embeddings(span, d)[: 2 * span]
    k_r, q_r = p @ w["W_kE"], p @ w["W_q"]
    ids = np.arange(n)
    rel = hf_log_bucket_float64(ids[:, None] - ids[None, :], buckets, max_rel).reshape(n, n)
    scale = math.sqrt(3 * d)
    c2c = q @ k.T / scale
    c2p_pos = np.clip(rel + span, 0, 2 * span - 1)
    c2p = np.take_along_axis(q @ k_r.T, c2p_pos, axis=-1) / scale
    p2c_pos = np.clip(-rel + span, 0, 2 * span - 1)
    p2c = np.take_along_axis(k @ q_r.T, p2c_pos, axis=-1).T / scale
    series = data.panel("deberta_terms").series
    keys = series[0].x.astype(int)
    for t, ref in enumerate((c2c, c2p, p2c)):
        np.testing.assert_allclose(series[t].y, ref[query, keys], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(series[3].y, (c2c + c2p + p2c)[query, keys], atol=1e-12)


@pytest.mark.parametrize(("n", "query"), [(12, 8), (40, 0), (4096, 4000)])
def test_transformer_xl_four_terms(n, query):
    data = view("relative", seq_len=n, query=query)
    d = TOY_WIDTH
    w = toy_head(d)
    series = data.panel("xl_terms").series
    keys = series[0].x.astype(int)
    assert keys.max() == query and np.all(np.diff(keys) == 1)  # causal: j ≤ i
    x = toy_token_embeddings(np.append(keys, query), d)
    q_i = w["W_q"] @ x[-1]
    for k_idx, j in enumerate(keys):
        delta = query - j
        f = [1.0 / 10000.0 ** (2 * t / d) for t in range(d // 2)]
        r = np.array([math.sin(delta * v) for v in f] + [math.cos(delta * v) for v in f])
        k_j = w["W_kE"] @ x[k_idx]
        wr = w["W_kR"] @ r
        ref = np.array([q_i @ k_j, q_i @ wr, w["u"] @ k_j, w["v"] @ wr]) / math.sqrt(d)
        got = np.array([s.y[k_idx] for s in series[:4]])
        np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)
        assert series[4].y[k_idx] == pytest.approx(ref.sum(), abs=1e-12)
    # (d) depends on i − j only: the same at every query for the same distance
    other = view("relative", seq_len=max(n, 20), query=min(query, 19) or 5).panel("xl_terms")
    d_term = dict(zip(other.series[3].x.astype(int), other.series[3].y, strict=True))
    q2 = int(other.series[3].x.max())
    x_vals = dict(zip(keys, series[3].y, strict=True))
    for j2, v2 in d_term.items():
        j1 = query - (q2 - j2)
        if j1 in x_vals:
            assert x_vals[j1] == pytest.approx(v2, abs=1e-12)


# ------------------------------------------------------------------ compare: bias families
def fire_reference(i: int, j: int, L: int) -> float:
    def psi(x: float) -> float:
        return math.log(x + 1.0)

    x = psi(i - j) / (psi(max(L, i)) or 1.0)
    return math.fsum(
        w2 * max(w1 * x + b1, 0.0) for w1, b1, w2 in zip(FIRE_W1, FIRE_B1, FIRE_W2, strict=True)
    )


@pytest.mark.parametrize(
    ("n", "d", "heads", "L", "r1", "r2"),
    [(64, 64, 8, 32, 1.0, 0.5), (200, 32, 6, 300, 2.5, 1.7), (3000, 128, 12, 100, 0.3, 2.0)],
)
def test_bias_families_equal_their_papers(n, d, heads, L, r1, r2):
    data = view(
        "compare", seq_len=n, d_model=d, heads=heads, train_len=L, kerple_r1=r1, kerple_r2=r2
    )
    series = {s.name.split(" ·")[0]: s for s in data.panel("biases").series}
    alibi, klog, kpow, sandwich, fire = data.panel("biases").series[:5]
    x = alibi.x
    np.testing.assert_allclose(alibi.y, -press_slopes(heads)[0] * x, atol=1e-12)
    np.testing.assert_allclose(klog.y, [-r1 * math.log(1 + r2 * v) for v in x], rtol=1e-12)
    np.testing.assert_allclose(kpow.y, [-r1 * v**r2 for v in x], rtol=1e-12, atol=1e-12)
    if "band" not in sandwich.name:  # NeMo: (Σ_{k=1}^{d/2} cos(Δ/10000^{2k/d}) − d/2) / (8/H)
        ref = [
            (math.fsum(math.cos(v / 10000 ** (2 * k / d)) for k in range(1, d // 2 + 1)) - d / 2)
            / (8 / heads)
            for v in x
        ]
        np.testing.assert_allclose(sandwich.y, ref, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(
        fire.y, [fire_reference(n - 1, n - 1 - int(v), L) for v in x], rtol=1e-12, atol=1e-12
    )
    assert "FIRE" in fire.name and f"query {n - 1}" in data.panel("biases").note and series
    exp = VIEWS["compare"].export(
        VIEWS["compare"].model.validate(
            {
                "seq_len": n,
                "d_model": d,
                "heads": heads,
                "train_len": L,
                "kerple_r1": r1,
                "kerple_r2": r2,
            },
            partial=True,
        )
    )
    assert exp.array.shape == (12, n)
    cols = x.astype(int)
    np.testing.assert_allclose(exp.array[8, cols], klog.y, rtol=1e-12)
    np.testing.assert_allclose(exp.array[11, cols], fire.y, rtol=1e-12, atol=1e-12)


def test_sandwich_band_holds_the_exact_values():
    data = view("compare", seq_len=65536, d_model=64, heads=8)
    s = data.panel("biases").series[3]
    assert "band" in s.name
    x, lo, hi = s.x[0::2], s.y[0::2], s.y[1::2]
    d = 64
    for k in range(0, x.size, 97):
        v = math.fsum(math.cos(x[k] / 10000 ** (2 * t / d)) for t in range(1, d // 2 + 1)) - d / 2
        assert lo[k] - 1e-9 <= v <= hi[k] + 1e-9


@pytest.mark.parametrize("interval", [4, 3, 1, 16])
def test_rope_and_nope_layers_follow_the_hf_configs(interval):
    data = view("permutation", nope_interval=interval)
    layers = data.panel("layers")
    smol = [int((k + 1) % interval != 0) for k in range(36)]  # SmolLM3Config.__post_init__
    llama = [int((k + 1) % interval != 0) for k in range(48)]  # Llama4TextConfig
    np.testing.assert_array_equal(layers.image[:36, 0], smol)
    assert np.isnan(layers.image[36:, 0]).all() and layers.missing
    np.testing.assert_array_equal(layers.image[:, 1], llama)
    if interval == 4:  # the shipped configs: layers 4, 8, …, 48 (1-based) are NoPE
        assert sum(smol) == 27 and sum(llama) == 36
        assert "NoPE layers (1-based): 4, 8, 12" in layers.note
        assert "NoPE" in layers.probe(1.0, 3.0) and "RoPE" in layers.probe(1.0, 4.0)
        assert layers.probe(0.0, 40.0) == ""  # SmolLM3 has 36 layers


def test_nope_causal_weights_reveal_the_position():
    n = 64  # NOPE_QUERIES
    data = view("permutation")
    causal, bidir = data.panel("nope").series[:2]
    for i in causal.x.astype(int):  # equal scores, causal mask: softmax over keys 0..i
        row = softmax(np.where(np.arange(n) > i, -np.inf, 0.0))
        assert causal.y[i] == pytest.approx(row[0]) and row[0] == pytest.approx(1 / (i + 1))
    np.testing.assert_allclose(bidir.y, softmax(np.zeros(n))[0])
    note = next(t for t in data.notes if t.startswith("NoPE"))
    assert f"query {n - 1}: {1 / n:.3g}" in note and f"1/{n} for every query" in note


def test_compare_table_has_the_new_families():
    rows = {r[0]: r for r in view("compare").panel("table").rows}
    assert "NoPE / hybrid" in rows and "KERPLE / Sandwich / FIRE" in rows
    assert "SmolLM3" in rows["NoPE / hybrid"][-1] and "Llama 4" in rows["NoPE / hybrid"][-1]


def test_word_order_corrects_tokens_treated_independently():
    text = VIEWS["permutation"].explanation
    assert re.search(r"treats tokens independently': it does not", text)
    assert "NoPE" in text
