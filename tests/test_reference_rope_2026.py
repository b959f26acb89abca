"""Independent float64 references for the RoPE view's course and 2026 additions.

Nothing here is taken from the code under test; each reference is written from the
published source named in its docstring.

References
----------
RoFormer (Su et al., 2021, §3.4.3)
    Long-term decay: with ``S_j = Σ_{k=0}^{j-1} e^{i(m-n)θ_k}`` the relative upper bound
    plotted in Fig. 2 is ``(1/(d/2)) Σ_{j=1}^{d/2} |S_j|``.
LongRoPE
    HF transformers ``modeling_rope_utils._compute_longrope_parameters``:
    ``inv_freq = 1 / (ext_factors * base ** (arange(0, dim, 2) / dim))`` with
    ``ext_factors = long_factor if seq_len > original_max_position_embeddings else
    short_factor`` and ``attention_factor = sqrt(1 + log(factor) / log(original))``
    (1 when ``factor <= 1``).
YaRN with DeepSeek's mscale
    HF ``_compute_yarn_parameters``: ``attention_factor = get_mscale(factor, mscale) /
    get_mscale(factor, mscale_all_dim)`` when both are set, else ``get_mscale(factor)``,
    ``get_mscale(s, m) = 0.1·m·ln(s) + 1``; DeepSeek-V2/V3 attention multiplies the softmax
    scale by ``get_mscale(factor, mscale_all_dim)²``.
Qwen2-VL (M-RoPE)
    HF ``modeling_qwen2_vl``: ``get_rope_index`` (position ids) and
    ``apply_multimodal_rotary_pos_emb`` (``mrope_section * 2`` split of ``cat(freqs,
    freqs)``, chunk ``i`` from axis ``i % 3``); ``VisionRotaryEmbedding`` +
    ``rot_pos_emb`` for the vision encoder's 2-D RoPE.
xPos (Sun et al., 2022)
    torchscale ``XPOS``: ``scale = (arange(0, d, 2) + 0.4·d) / (1.4·d)``, q scaled by
    ``scale ** (pos / scale_base)`` and k by its inverse (``downscale``), positions
    centred at ``-(len)//2``, interleaved rotation with ``θ_j = 10000^(-j/(d/2))``.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from core.rope import (
    mrope_angles,
    mrope_position_ids,
    roformer_decay_bound,
    rope_inv_freq,
    vision_2d_angles,
    xpos_zeta,
)
from core.viewdata import ComputeContext
from core.views import VIEWS
from core.views import rope as rope_view

CTX = ComputeContext(max_cells=512, max_points=2048)


def view(ctx: ComputeContext = CTX, **changes):
    spec = VIEWS["rope"]
    return spec.compute(spec.model.validate(changes, partial=True), ctx)


def series(panel, prefix):
    hits = [s for s in panel.series if s.name.startswith(prefix)]
    assert len(hits) == 1, [s.name for s in panel.series]
    return hits[0]


def ref_theta(d, base=10000.0):
    return np.array([base ** (-2.0 * i / d) for i in range(d // 2)], dtype=np.float64)


# ------------------------------------------------------------------ RoFormer bound
def ref_roformer_bound(delta, theta):
    half = len(theta)
    total = 0.0
    for j in range(1, half + 1):
        s = sum(complex(math.cos(delta * theta[k]), math.sin(delta * theta[k])) for k in range(j))
        total += abs(s)
    return total / half


def test_roformer_bound_matches_the_paper_definition():
    theta = ref_theta(16)
    deltas = [0, 1, 2, 7, 50, 333]
    got = roformer_decay_bound(np.array(deltas), theta)
    ref = [ref_roformer_bound(x, theta) for x in deltas]
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    assert got[0] == pytest.approx((8 + 1) / 2)


def test_bound_panel_is_roformer_bound_and_decays_unlike_mean_cos():
    data = view(head_dim=32, seq_len=200)
    theta = ref_theta(32)
    bound = series(data.panel("bound"), "RoPE")
    ref = [ref_roformer_bound(x, theta) for x in bound.x]
    np.testing.assert_allclose(bound.y, ref, rtol=1e-10)
    assert bound.y[0] == pytest.approx(8.5)
    assert bound.y[150:].max() < 0.5 * bound.y[0]  # it decays
    mean_cos = series(data.panel("decay"), "RoPE mean cos")
    np.testing.assert_allclose(
        mean_cos.y, [np.mean(np.cos(x * theta)) for x in mean_cos.x], rtol=1e-10, atol=1e-12
    )
    assert "not a decay" in data.panel("decay").title
    assert "RoFormer" in data.panel("bound").title


@pytest.mark.parametrize("head_dim,seq_len", [(32, 8192), (1024, 65536)])
def test_sampled_bound_holds_the_exact_values(head_dim, seq_len):
    """Sampled offsets: the drawn strokes (min–max envelope or band) contain the exact
    bound at every drawn offset, and the envelope's strokes are the block extremes."""
    data = view(head_dim=head_dim, seq_len=seq_len)
    s = series(data.panel("bound"), "RoPE")
    assert "min–max" in s.name or "band" in s.name
    lo, hi = s.y[0::2], s.y[1::2]
    x = s.x[0::2]
    theta = ref_theta(head_dim)
    pick = np.linspace(0, x.size - 1, 9).astype(int)
    exact = roformer_decay_bound(x[pick], theta)
    for k, e in zip(pick, exact, strict=True):
        assert lo[k] - 1e-9 <= e <= hi[k] + 1e-9
        assert e == pytest.approx(ref_roformer_bound(x[k], theta), rel=1e-9)
    if "min–max" in s.name:
        stride = int(x[1] - x[0])
        block = [ref_roformer_bound(v, theta) for v in range(int(x[3]), int(x[3]) + stride)]
        assert lo[3] == pytest.approx(min(block), rel=1e-9)
        assert hi[3] == pytest.approx(max(block), rel=1e-9)


# ------------------------------------------------------------------ course's simplified RoPE
def ref_scores(q, k, m, n, theta):
    """Real rotation (half pairing) and the course's cos-only multiplication."""
    d = q.size
    h = d // 2

    def rot(x, p):
        out = x.copy()
        for i in range(h):
            c, s = math.cos(p * theta[i]), math.sin(p * theta[i])
            out[i] = x[i] * c - x[i + h] * s
            out[i + h] = x[i] * s + x[i + h] * c
        return out

    def cos_only(x, p):
        out = x.copy()
        for i in range(h):
            out[i] *= math.cos(p * theta[i])
            out[i + h] *= math.cos(p * theta[i])
        return out

    return float(rot(q, m) @ rot(k, n)), float(cos_only(q, m) @ cos_only(k, n))


def test_simplified_rope_is_not_a_function_of_m_minus_n():
    data = view(m=5, n=9)
    q, k = np.random.default_rng(rope_view.TOY_QK_SEED).standard_normal((2, 64))
    theta = ref_theta(64)
    panel = data.panel("simplified")
    real_a, cos_a = ref_scores(q, k, 5, 9, theta)
    real_b, cos_b = ref_scores(q, k, 105, 109, theta)
    assert real_a == pytest.approx(real_b, rel=1e-9)  # same m − n: same real score
    assert abs(cos_a - cos_b) > 1.0  # the cos-only score changes with m + n
    real = series(panel, "rotation (real")
    cos_only = series(panel, "× cos(p·θ_i)")
    assert real.y[0] == pytest.approx(real_a, rel=1e-9)
    assert real.y[100] == pytest.approx(real_b, rel=1e-9)
    assert np.ptp(real.y) < 1e-9
    assert cos_only.y[0] == pytest.approx(cos_a, rel=1e-9)
    assert cos_only.y[100] == pytest.approx(cos_b, rel=1e-9)
    for shift in (17, 63):
        assert cos_only.y[shift] == pytest.approx(
            ref_scores(q, k, 5 + shift, 9 + shift, theta)[1], rel=1e-9
        )
    # the course's code as written: q * cos(arange(d)/d), k likewise: no position at all
    literal = float((q * np.cos(np.arange(64) / 64)) @ (k * np.cos(np.arange(64) / 64)))
    assert np.allclose(series(panel, "× cos(i/d)").y, literal, rtol=1e-12)
    note = panel.note
    for value in (real_a, real_b, cos_a, cos_b, literal):
        assert f"{value:.4f}" in note
    assert "(5, 9) and (105, 109)" in note and "m + n" in note


def test_topic_switches_between_sequence_and_image_panels():
    seq = {p.key for p in view().panels}
    img = {p.key for p in view(topic="images").panels}
    assert seq == {"plane", "frequencies", "simplified", "score", "decay", "bound"}
    assert img == {"patches", "patches_1d", "mrope_ids"}
    assert "M-RoPE" in view(topic="images").formula
    assert "2-D RoPE" in view(topic="images", image_rope="2d").formula


def test_course_rope_notes_are_in_the_explanation():
    text = VIEWS["rope"].explanation
    assert "simplified" in text and "extrapolat" in text
    for method in ("YaRN", "LongRoPE", "NTK"):
        assert method in text
    long = view(seq_len=4096, original_max_position_embeddings=2048)
    assert any("does not extrapolate" in n for n in long.notes)


# ------------------------------------------------------------------ LongRoPE (HF)
def ref_longrope(head_dim, base, short, long, factor, orig, seq_len):
    """Port of HF ``_compute_longrope_parameters`` (rope_scaling given factor)."""
    dim = head_dim
    attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(orig))
    ext = np.array(long if (seq_len and seq_len > orig) else short, dtype=np.float64)
    shape = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim
    return 1.0 / (ext * base**shape), attention_factor


@pytest.mark.parametrize("seq_len", [None, 100, 4096, 4097, 131072])
def test_longrope_core_matches_hf(seq_len):
    short, long = rope_view.PHI35_SHORT_FACTOR, rope_view.PHI35_LONG_FACTOR
    scaling = {
        "rope_type": "longrope",
        "factor": 32.0,
        "original_max_position_embeddings": 4096,
        "short_factor": list(short),
        "long_factor": list(long),
    }
    inv, af = rope_inv_freq(96, 10000.0, scaling, seq_len=seq_len)
    ref_inv, ref_af = ref_longrope(96, 10000.0, short, long, 32.0, 4096, seq_len)
    np.testing.assert_allclose(inv, ref_inv, rtol=1e-13)
    assert af == pytest.approx(ref_af, rel=1e-13)
    assert af == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))


def test_longrope_factor_lists_are_checked():
    scaling = {"rope_type": "longrope", "factor": 4.0, "original_max_position_embeddings": 64}
    with pytest.raises(ValueError, match="short_factor"):
        rope_inv_freq(8, 10000.0, scaling)
    with pytest.raises(ValueError, match="expected d_rot/2 = 4"):
        rope_inv_freq(8, 10000.0, {**scaling, "short_factor": [1.0] * 3, "long_factor": [1] * 4})
    with pytest.raises(ValueError, match="positive"):
        rope_inv_freq(8, 10000.0, {**scaling, "short_factor": [1, 0, 1, 1], "long_factor": [1] * 4})


@pytest.mark.parametrize("seq_len,which", [(2048, "short"), (8192, "long")])
def test_longrope_view_curve_switches_at_the_original_context(seq_len, which):
    data = view(head_dim=96, scaling="longrope", factor=32.0, seq_len=seq_len)
    freq = series(data.panel("frequencies"), "longrope")
    assert f"{which}_factor" in freq.name and "(selected)" in freq.name
    short, long = rope_view.PHI35_SHORT_FACTOR, rope_view.PHI35_LONG_FACTOR
    ref_inv, ref_af = ref_longrope(96, 10000.0, short, long, 32.0, 2048, seq_len)
    np.testing.assert_allclose(freq.y, ref_inv, rtol=1e-13)  # 48 pairs: Phi's own lists
    assert f"attention factor {ref_af:.4g}" in data.formula
    assert any(f"{ref_af:.6g}" in n and f"{which}_factor" in n for n in data.notes)


def test_longrope_lists_resample_for_other_widths():
    short, long = rope_view.longrope_factors(32)
    src = np.linspace(0, 47, 32)
    np.testing.assert_allclose(short, np.interp(src, np.arange(48), rope_view.PHI35_SHORT_FACTOR))
    np.testing.assert_allclose(long, np.interp(src, np.arange(48), rope_view.PHI35_LONG_FACTOR))
    assert len(rope_view.PHI35_SHORT_FACTOR) == len(rope_view.PHI35_LONG_FACTOR) == 48


# ------------------------------------------------------------------ YaRN mscale (DeepSeek)
def _get_mscale(scale, mscale=1.0):
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


@pytest.mark.parametrize("ms,msa", [(1.0, 1.0), (0.707, 0.707), (1.0, 0.5), (0.0, 1.0)])
def test_yarn_mscale_matches_hf_and_deepseek(ms, msa):
    f = 40.0
    data = view(
        head_dim=64,
        scaling="yarn",
        factor=f,
        original_max_position_embeddings=4096,
        mscale=ms,
        mscale_all_dim=msa,
    )
    expected = _get_mscale(f, ms) / _get_mscale(f, msa) if ms and msa else _get_mscale(f)
    _inv, af = rope_view.frequencies(
        VIEWS["rope"].model.validate(
            {
                "head_dim": 64,
                "scaling": "yarn",
                "factor": f,
                "original_max_position_embeddings": 4096,
                "mscale": ms,
                "mscale_all_dim": msa,
            },
            partial=True,
        )
    )
    assert af == pytest.approx(expected, rel=1e-13)
    text = " ".join(data.notes)
    if ms and msa:
        soft = _get_mscale(f, msa) ** 2
        assert f"{expected:.6g}" in text and f"{soft:.6g}" in text
        assert f"{expected**2 * soft:.6g}" in text
        assert expected**2 * soft == pytest.approx(_get_mscale(f, ms) ** 2)
        if ms == msa:
            assert "attention factor" not in data.formula  # DeepSeek-V3: cos/sin untouched
    else:
        assert "act only together" in text


# ------------------------------------------------------------------ Qwen2-VL M-RoPE (HF)
IMAGE_PAD, VISION_START = 151655, 151652


def ref_get_rope_index(input_ids, image_grid_thw, spatial_merge_size=2):
    """Port of HF ``Qwen2VLModel.get_rope_index`` for one sequence with images only."""
    input_tokens = list(input_ids)
    starts = [i for i, t in enumerate(input_tokens) if t == VISION_START]
    image_nums = sum(input_tokens[i + 1] == IMAGE_PAD for i in starts)
    llm_pos_ids_list = []
    st = 0
    for image_index in range(image_nums):
        ed = input_tokens.index(IMAGE_PAD, st)
        t, h, w = image_grid_thw[image_index]
        gt, gh, gw = t, h // spatial_merge_size, w // spatial_merge_size
        text_len = ed - st
        st_idx = llm_pos_ids_list[-1].max() + 1 if llm_pos_ids_list else 0
        llm_pos_ids_list.append(np.tile(np.arange(text_len), (3, 1)) + st_idx)
        t_index = np.repeat(np.arange(gt)[:, None], gh * gw, axis=1).ravel()
        h_index = np.broadcast_to(np.arange(gh)[None, :, None], (gt, gh, gw)).ravel()
        w_index = np.broadcast_to(np.arange(gw)[None, None, :], (gt, gh, gw)).ravel()
        llm_pos_ids_list.append(np.stack([t_index, h_index, w_index]) + text_len + st_idx)
        st = ed + gt * gh * gw
    if st < len(input_tokens):
        st_idx = llm_pos_ids_list[-1].max() + 1 if llm_pos_ids_list else 0
        text_len = len(input_tokens) - st
        llm_pos_ids_list.append(np.tile(np.arange(text_len), (3, 1)) + st_idx)
    return np.concatenate(llm_pos_ids_list, axis=1).reshape(3, -1)


@pytest.mark.parametrize(
    "before,t,gh,gw,after", [(3, 1, 6, 8, 2), (1, 1, 2, 3, 4), (5, 2, 3, 3, 1)]
)
def test_mrope_position_ids_match_hf_get_rope_index(before, t, gh, gw, after):
    ids = [7] * (before - 1) + [VISION_START] + [IMAGE_PAD] * (t * gh * gw) + [8] * after
    ref = ref_get_rope_index(ids, [(t, 2 * gh, 2 * gw)])
    np.testing.assert_array_equal(mrope_position_ids(before, t, gh, gw, after), ref)


def ref_mrope_cos_sin(position_ids, theta, section):
    """HF rotary embedding for (3, seq) ids then ``apply_multimodal_rotary_pos_emb``'s
    section selection: returns the (seq, head_dim) cos and sin actually applied."""
    freqs = position_ids[:, :, None].astype(np.float64) * theta[None, None, :]  # (3, seq, h)
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb), np.sin(emb)
    sizes = list(section) * 2
    edges = np.cumsum(sizes)[:-1]
    pick = lambda a: np.concatenate(  # noqa: E731
        [m[i % 3] for i, m in enumerate(np.split(a, edges, axis=-1))], axis=-1
    )
    return pick(cos), pick(sin)


def test_mrope_rotation_matches_hf_apply_multimodal_rotary_pos_emb():
    section = (16, 24, 24)
    theta = ref_theta(128, 1e6)
    pos = mrope_position_ids(3, 2, 3, 4, 2)
    cos, sin = ref_mrope_cos_sin(pos, theta, section)
    ang = mrope_angles(pos, theta, section)
    np.testing.assert_allclose(np.cos(np.concatenate([ang, ang], axis=1)), cos, atol=1e-15)
    np.testing.assert_allclose(np.sin(np.concatenate([ang, ang], axis=1)), sin, atol=1e-15)
    q = np.random.default_rng(0).standard_normal((pos.shape[1], 128))
    rotate_half = np.concatenate([-q[:, 64:], q[:, :64]], axis=1)
    hf = q * cos + rotate_half * sin
    # the same rotation, pair by pair, with the view's angles
    ours = q.copy()
    c, s = np.cos(ang), np.sin(ang)
    ours[:, :64] = q[:, :64] * c - q[:, 64:] * s
    ours[:, 64:] = q[:, :64] * s + q[:, 64:] * c
    np.testing.assert_allclose(ours, hf, atol=1e-12)


def ref_vision_angles(rows, cols, head_dim, base=10000.0):
    """HF ``VisionRotaryEmbedding(head_dim // 2)`` table indexed by (h, w), flattened."""
    dim = head_dim // 2
    inv = 1.0 / base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
    table = np.arange(max(max(rows), max(cols)) + 1)[:, None] * inv[None, :]
    return np.concatenate([table[rows], table[cols]], axis=1)


def test_vision_2d_angles_match_hf():
    rows, cols = np.array([0, 0, 1, 3, 5]), np.array([0, 2, 1, 4, 0])
    np.testing.assert_allclose(
        vision_2d_angles(rows, cols, 80), ref_vision_angles(rows, cols, 80), rtol=1e-15
    )


@pytest.mark.parametrize("mode", ["mrope", "2d"])
def test_patch_maps_equal_reference_mean_cos(mode):
    data = view(
        topic="images", image_rope=mode, grid_h=4, grid_w=5, patch_row=1, patch_col=3, base=1e4
    )
    theta = ref_theta(128)
    rows, cols = np.divmod(np.arange(20), 5)
    if mode == "mrope":
        axes = np.array([0] * 16 + [1] * 24 + [2] * 24)
        pos3 = np.stack([np.zeros(20), rows, cols])
        ang = pos3[axes, :].T * theta
    else:
        ang = ref_vision_angles(rows, cols, 128)
    ref = np.cos(ang[1 * 5 + 3] - ang).mean(axis=1).reshape(4, 5)
    np.testing.assert_allclose(data.panel("patches").image, ref, atol=1e-14)
    raster = np.arange(20)[:, None] * theta
    ref1 = np.cos(raster[8] - raster).mean(axis=1).reshape(4, 5)
    np.testing.assert_allclose(data.panel("patches_1d").image, ref1, atol=1e-14)
    if mode == "2d":  # rows and columns turn the same pairs' frequencies: a symmetric map
        assert ref[0, 3] == pytest.approx(ref[1, 2])


def test_position_id_table_quotes_get_rope_index():
    data = view(topic="images", grid_h=2, grid_w=3)
    ids = [7, 7, VISION_START] + [IMAGE_PAD] * 6 + [8, 8]
    ref = ref_get_rope_index(ids, [(1, 4, 6)])
    table = data.panel("mrope_ids")
    rows = {int(r[0]): r for r in table.rows if r[0].isdigit()}
    assert sorted(rows) == list(range(11))
    for j, r in rows.items():
        assert [int(v) for v in r[2:]] == list(ref[:, j])
    assert f"max + 1 = {ref[0, 9]}" in table.note


def test_mrope_section_must_be_three_sizes():
    spec = VIEWS["rope"]
    with pytest.raises(ValueError, match="three sizes"):
        spec.compute(
            spec.model.validate({"mrope_section": (16, 24), "topic": "images"}, partial=True), CTX
        )
    with pytest.raises(ValueError, match="divisible by 4"):
        spec.compute(
            spec.model.validate(
                {"mrope_section": (1, 2, 2), "image_rope": "2d", "topic": "images"}, partial=True
            ),
            CTX,
        )


# ------------------------------------------------------------------ xPos (torchscale)
def ref_xpos(x, scale_base, downscale):
    """Port of torchscale ``XPOS.forward`` (offset 0) for x of shape (len, d)."""
    length, d = x.shape
    scale_vec = (np.arange(0, d, 2) + 0.4 * d) / (1.4 * d)
    min_pos = -length // 2
    max_pos = length + min_pos
    scale = scale_vec ** (np.arange(min_pos, max_pos, dtype=np.float64) / scale_base)[:, None]
    half = scale.shape[1]
    inv = 1.0 / (10000 ** (np.arange(0, half) / half))
    sinusoid = np.arange(0, scale.shape[0], dtype=np.float64)[:, None] * inv[None, :]
    sin, cos = np.sin(sinusoid), np.cos(sinusoid)
    if downscale:
        scale = 1 / scale
    sin, cos = np.repeat(sin * scale, 2, axis=1), np.repeat(cos * scale, 2, axis=1)
    rot = np.stack([-x[:, 1::2], x[:, 0::2]], axis=-1).reshape(length, d)
    return x * cos + rot * sin


def test_xpos_zeta_is_torchscale_scale():
    d = 64
    np.testing.assert_allclose(xpos_zeta(d), (np.arange(0, d, 2) + 0.4 * d) / (1.4 * d))


def test_xpos_decay_curve_matches_torchscale():
    length, d, b = 300, 32, 64.0
    data = view(head_dim=d, seq_len=length, xpos_scale_base=b)
    unit = np.zeros((length, d))
    unit[:, 0::2] = 1.0  # (1, 0) in every interleaved pair
    q, k = ref_xpos(unit, b, False), ref_xpos(unit, b, True)
    m = length - 1  # the last query against every key before it: Δ = m − n
    ref = np.array([q[m] @ k[m - delta] for delta in range(length)]) / (d // 2)
    curve = series(data.panel("decay"), "xPos (b")
    np.testing.assert_allclose(curve.y, ref[curve.x.astype(int)], rtol=1e-9, atol=1e-12)
    env = series(data.panel("decay"), "xPos envelope")
    np.testing.assert_allclose(env.y, [np.mean(xpos_zeta(d) ** (x / b)) for x in env.x], rtol=1e-12)
    assert np.all(np.diff(env.y) < 0) and env.y[-1] < 0.5  # ζ_i < 1: a real decay
    assert re.search(r"from 0\.2857 to 0\.9[0-9]+", data.panel("decay").note)


def test_rope_deck_notes_match_the_new_scenes():
    import json
    from pathlib import Path

    deck = json.loads(
        (Path(__file__).parent.parent / "resources/decks/rope-deep-dive.json").read_text("utf-8")
    )
    checked = 0
    for scene in deck["scenes"]:
        note, params = scene["note"], scene["params"]
        if "simplified" in scene["title"]:
            data = view(**params)
            m, n = params["m"], params["n"]
            assert f"m − n = {m - n}".replace("-", "−") in note
            assert f"({m}, {n}) and ({m + 100}, {n + 100})" in note
            real = series(data.panel("simplified"), "rotation (real")
            cos_only = series(data.panel("simplified"), "× cos(p·θ_i)")
            assert real.y[0] == pytest.approx(real.y[100], rel=1e-9)
            assert abs(cos_only.y[0] - cos_only.y[100]) > 1e-3
            checked += 1
        if "M-RoPE" in scene["title"]:
            data = view(**params)
            sec = params["mrope_section"]
            assert f"mrope_section {sec[0]}, {sec[1]}, {sec[2]} of {sum(sec)}" in note
            assert "M-RoPE" in data.formula and params["topic"] == "images"
            ids = mrope_position_ids(3, 1, params["grid_h"], params["grid_w"], 2)
            resume = int(ids[0, 3 + params["grid_h"] * params["grid_w"]])
            assert resume == ids[:, :-2].max() + 1
            assert f"max + 1 = {resume}" in data.panel("mrope_ids").note
            checked += 1
    assert checked == 2


def test_patch_probes_read_the_drawn_cells():
    data = view(topic="images", grid_h=3, grid_w=4, patch_row=2, patch_col=1)
    for key in ("patches", "patches_1d"):
        panel = data.panel(key)
        for r, c in ((0, 0), (2, 1), (1, 3)):
            text = panel.probe(float(c), float(r))
            assert f"patch (row {r}, col {c})" in text
            assert float(text.rsplit(" ", 1)[-1]) == pytest.approx(panel.image[r, c], rel=1e-5)
        assert panel.probe(9.0, 0.0) == ""
    assert "ids (t, h, w) = (0, 1, 3)" in data.panel("patches").probe(3.0, 1.0)
