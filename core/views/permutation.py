"""Permutation view: "dog bites man" vs "man bites dog" through one toy attention head."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from core.attention import (
    ATTENTION_METHODS,
    TOY_ALIBI_SLOPE,
    AttentionResult,
    no_rope_layers,
    nope_causal_weight,
    permutation_between,
    tokenize,
    toy_attention,
)
from core.formula import approx_text, number, plain_text
from core.memory import check_allocation
from core.params import Param, ParamModel
from core.viewdata import (
    ComputeContext,
    ExportData,
    Panel,
    Series,
    ViewData,
    ViewSpec,
    fmt_value,
)

METHODS = tuple(m for m in ATTENTION_METHODS if m != "none")
IDENTICAL_TOL = 1e-9
METHOD_NAMES = {
    "sinusoidal": "sinusoidal PE",
    "learned": "learned PE",
    "rope": "RoPE",
    "alibi": "ALiBi (symmetric −m·|i−j|)",
}

MODEL = ParamModel(
    "permutation",
    "Word order",
    (
        Param(
            "sentence",
            "text",
            "dog bites man",
            "Sentence A",
            "Words of the first sentence.",
            max_items=200,
        ),
        Param(
            "permuted",
            "text",
            "man bites dog",
            "Sentence B",
            "The same words in another order.",
            max_items=200,
        ),
        Param(
            "method",
            "choice",
            "sinusoidal",
            "Position method",
            "How positions enter the toy "
            "attention head: added to the input (sinusoidal, learned), rotating q and k (rope) "
            "or as a distance bias on the scores (alibi).",
            choices=METHODS,
        ),
        Param(
            "d_model", "int", 16, "Model width d", "Size of the toy token embeddings.", 2, 256, 1
        ),
        Param(
            "base",
            "float",
            10000.0,
            "Base",
            "Frequency base for sinusoidal PE and RoPE.",
            2.0,
            1e7,
            100.0,
            log_scale=True,
        ),
        Param(
            "nope_interval",
            "int",
            4,
            "NoPE every n-th layer",
            "no_rope_layer_interval of SmolLM3 and Llama 4 (4 in both configs): layers "
            "n, 2n, … (1-based) use no positional encoding; 1 makes every layer NoPE.",
            1,
            16,
            1,
        ),
    ),
)

D_LAYOUT = int(MODEL["d_model"].default)  # d the plot grid is laid out for (16 values)
SMOLLM3_LAYERS, LLAMA4_LAYERS = 36, 48  # SmolLM3-3B; Llama 4 Scout (HF config defaults)
NOPE_QUERIES = 64  # query positions in the causal-NoPE panel

# The plots are named by their titles, which every layout shows: the grid is 1-4 plot
# columns wide with the window, the UI scale and the stage, so "top row" or "bottom
# right" named the wrong plot in all but the widest (tests check each quoted name
# against the titles).
EXPLANATION = (
    "Self-attention without positions and without a mask treats a sentence as a bag of "
    "words: reorder the words and the attention weights and outputs are reordered in "
    "exactly the same way (it is permutation-equivariant), so 'dog bites man' and 'man "
    "bites dog' are indistinguishable (the plots titled 'no positions': the difference "
    "is 0 up to rounding). Decoders such as GPT, LLaMA and Mistral use a causal mask, and "
    "the mask alone already leaks order: the first word sees only itself, so its output "
    "is its own value vector ('causal mask, no positions'). Give the head positions and "
    "the outputs change too (the plots titled with the position method); a symmetric "
    "distance bias such as ALiBi's −m·|i−j| only sees distances, so a sentence and its "
    "exact reversal still look the same. "
    "The course says self-attention 'treats tokens independently': it does not — every "
    "output row mixes the value vectors of all the tokens it attends to (each weight row "
    "spreads over every key); what it cannot see without positions is their order. "
    "'Causal mask, no positions' is a NoPE layer: SmolLM3 and Llama 4 use one every 4th "
    "layer ('RoPE (1) or NoPE (0) per layer'), and under the causal mask even equal "
    "scores tell query i where it is: it spreads its weight over i + 1 keys "
    "('Causal NoPE')."
)

RUNS = (  # (tag, method or None for the selected one, causal)
    ("none", "none", False),
    ("causal", "none", True),
    ("pe", None, False),
)


def _run(
    params: Mapping[str, Any],
) -> tuple[list[str], list[str], np.ndarray, dict[str, AttentionResult]]:
    a, b = tokenize(params["sentence"]), tokenize(params["permuted"])
    if not a:
        raise ValueError("Sentence A has no words to compare")
    perm = permutation_between(a, b)
    if b == a[::-1] and b != a:  # with repeated words, pair each word with its mirror image
        perm = np.arange(len(a))[::-1].copy()
    method, d, base = params["method"], params["d_model"], params["base"]
    runs = {
        f"{s}_{tag}": toy_attention(toks, meth or method, d, base, causal)
        for s, toks in (("a", a), ("b", b))
        for tag, meth, causal in RUNS
    }
    return a, b, perm, runs


def _quote(words: list[str], limit: int = 40) -> str:
    text = " ".join(words)
    return f"'{text if len(text) <= limit else text[: limit - 1] + '…'}'"


def _verdict(
    a: list[str], b: list[str], perm: np.ndarray, gaps: Mapping[str, float], method: str
) -> str:
    """One line: bidirectional and causal attention without positions, then the method."""
    qa, qb = _quote(a), _quote(b)
    if a == b:  # before any reordering test: a palindrome is also its own reversal
        return (
            f"Both sentences are the same ({qa}): the outputs are identical with and "
            "without positions — there is nothing to tell apart."
        )
    name = METHOD_NAMES[method]
    first = (
        f"Bidirectional, no positions: the outputs for {qb} are exactly the rows of {qa} "
        f"reordered (max difference {approx_text(gaps['none'], 2)}) — attention cannot tell the order."
    )
    if gaps["causal"] >= IDENTICAL_TOL:
        causal = (
            f" Causal mask, no positions: they differ (max difference {gaps['causal']:.3g}) — "
            f"the mask leaks order: the first word ('{a[0]}' vs '{b[0]}') sees only itself, "
            "so its output is its own value vector."
        )
    else:
        causal = (
            f" Causal mask, no positions: still identical up to reordering (max difference "
            f"{approx_text(gaps['causal'], 2)})."
        )
    if gaps["pe"] >= IDENTICAL_TOL:
        return (
            first
            + causal
            + (f" Bidirectional with {name}: they differ (max difference {gaps['pe']:.3g}).")
        )
    why = (
        " Reversing a sentence keeps every distance |i − j|, and a symmetric distance bias "
        "sees nothing else."
        if method == "alibi" and np.array_equal(perm, perm.size - 1 - np.arange(perm.size))
        else ""
    )
    return (
        first
        + causal
        + (
            f" Bidirectional with {name}: still identical up to reordering "
            f"(max difference {approx_text(gaps['pe'], 2)}).{why}"
        )
    )


def short_verdict(a: list[str], b: list[str], gaps: Mapping[str, float], method: str) -> str:
    """The verdict in one short line for the stage: each run and whether it tells the
    two sentences apart (the lecturer's note carries the whole :func:`_verdict`)."""
    if a == b:
        return "Both sentences are the same: nothing to tell apart."

    def told(gap: float, digits: str) -> str:
        return (
            f"differ ({gap:{digits}})"
            if gap >= IDENTICAL_TOL
            else f"same outputs, reordered ({approx_text(gap, 2)})"
        )

    name = METHOD_NAMES[method].split(" (")[0]
    return (
        f"No positions → {told(gaps['none'], '.2g')};  causal mask → "
        f"{told(gaps['causal'], '.3g')};  {name} → {told(gaps['pe'], '.3g')}"
    )


def nope_panels(interval: int, rows: int) -> tuple[list[Panel], str]:
    """Which layers of SmolLM3 and Llama 4 use RoPE (HF's default ``no_rope_layers``), and
    what a causal NoPE layer still tells: the weight 1/(i + 1) equal scores give each key.
    A fourth column: the layers (one column per model) over ``rows − 1`` rows, the
    causal-NoPE weights below them."""
    layers = np.full((LLAMA4_LAYERS, 2), np.nan)  # rows: layers, columns: models
    layers[:SMOLLM3_LAYERS, 0] = no_rope_layers(SMOLLM3_LAYERS, interval)
    layers[:, 1] = no_rope_layers(LLAMA4_LAYERS, interval)
    nope_1based = [int(k) + 1 for k in np.flatnonzero(layers[:, 1] == 0)]
    names = ("SmolLM3-3B", "Llama 4 Scout")
    totals = (SMOLLM3_LAYERS, LLAMA4_LAYERS)

    def probe_layer(px: float, py: float) -> str:
        c, layer = int(round(px)), int(round(py))
        if not (0 <= c < 2 and 0 <= layer < LLAMA4_LAYERS) or np.isnan(layers[layer, c]):
            return ""
        v = int(layers[layer, c])
        kind = "RoPE" if v else "NoPE, no positional encoding"
        return f"{names[c]}, layer {layer + 1} of {totals[c]}: {kind} ({v})"

    q = np.arange(NOPE_QUERIES)
    shown = ", ".join(map(str, nope_1based[:6])) + (", …" if len(nope_1based) > 6 else "")
    panels = [
        Panel(
            "layers",
            f"RoPE (1) or NoPE (0) per layer, interval {interval}",
            "heatmap",
            "model",
            "layer index (0-based)",
            image=layers,
            x_coords=np.arange(2),
            y_coords=np.arange(LLAMA4_LAYERS),
            x_ticks=[(0.0, f"SmolLM3 ({SMOLLM3_LAYERS})"), (1.0, f"Llama 4 ({LLAMA4_LAYERS})")],
            colormap="sequential",
            levels=(0.0, 1.0),
            value_label="RoPE (1) / NoPE (0)",
            probe=probe_layer,
            missing="no layer",
            note=f"NoPE layers (1-based): {shown or 'none'}",
            row=0,
            col=3,
            row_span=max(rows - 1, 1),
        ),
        Panel(
            "nope",
            "Causal NoPE: equal scores, weight 1/(i + 1)",
            "curves",
            "query position i",
            "weight per key",
            series=[
                Series("causal", q.astype(float), nope_causal_weight(q)),
                Series(
                    f"bidirectional (1/{NOPE_QUERIES})",
                    q.astype(float),
                    np.full(q.size, 1.0 / NOPE_QUERIES),
                    "dashed",
                ),
            ],
            row=max(rows - 1, 1),
            col=3,
        ),
    ]
    note = (
        "NoPE, equal scores: causal query i gives each of its i + 1 keys 1/(i + 1) "
        f"(query 0: 1, query {NOPE_QUERIES - 1}: {1.0 / NOPE_QUERIES:.3g}), so averages over "
        f"the prefix shrink with i and later layers can read it; bidirectional: "
        f"1/{NOPE_QUERIES} for every query"
    )
    return panels, note


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the permutation view (sentences are short: no sampling needed).

    Raises
    ------
    ValueError
        Sentence B is not a reordering of sentence A, or A has no words.
    """
    a, b, perm, runs = _run(params)
    method = params["method"]
    tags = [tag for tag, _, _ in RUNS]
    diffs = {tag: runs[f"b_{tag}"].outputs - runs[f"a_{tag}"].outputs[perm] for tag in tags}
    gaps = {tag: float(np.max(np.abs(diffs[tag]))) for tag in tags}
    lim = max(gaps["pe"], gaps["causal"], 1e-12)
    toks = {"a": a, "b": b}
    name = METHOD_NAMES[method]

    def weights_probe(key: str) -> Any:
        words, w = toks[key[0]], runs[key].weights

        def probe(x: float, y: float) -> str:
            i, j = int(round(y)), int(round(x))
            if not (0 <= i < len(words) and 0 <= j < len(words)):
                return ""
            return f"query '{words[i]}' ({i}) → key '{words[j]}' ({j}): {fmt_value(w[i, j])}"

        return probe

    def diff_probe(tag: str) -> Any:
        def probe(x: float, y: float) -> str:
            i, c = int(round(y)), int(round(x))
            if not (0 <= i < len(b) and 0 <= c < params["d_model"]):
                return ""
            return (
                f"'{b[i]}' (B row {i} vs A row {perm[i]}), dim {c}: {fmt_value(diffs[tag][i, c])}"
            )

        return probe

    panels = []
    # each title's run in parentheses after what it shows: a spaced dash before it
    # ("A: 'dog bites man' — no positions") started a line in the 1600 x 1000 and
    # 1920 x 1080 windows at 100 % ("— no positions"); ALiBi's own parenthesis set
    # off by a comma inside them, not nested
    labels = {
        "none": "no positions",
        "causal": "causal mask, no positions",
        "pe": name[:-1].replace(" (", ", ", 1) if name.endswith(")") else name,
    }
    for r, tag in enumerate(tags):
        label = labels[tag]
        for c, s in enumerate(("a", "b")):
            # the words are the ticks: the axis titles only say which side is which
            # (a title listing them too wrapped and shrank unreadably on a narrow plot)
            panels.append(
                Panel(
                    f"weights_{s}_{tag}",
                    f"{s.upper()}: '{' '.join(toks[s])}' ({label})",
                    "heatmap",
                    "keys",
                    "queries",
                    image=runs[f"{s}_{tag}"].weights,
                    x_coords=np.arange(len(toks[s])),
                    y_coords=np.arange(len(toks[s])),
                    x_ticks=list(enumerate(toks[s])),
                    y_ticks=list(enumerate(toks[s])),
                    colormap="sequential",
                    levels=(0.0, 1.0),
                    value_label="attention weight",
                    probe=weights_probe(f"{s}_{tag}"),
                    row=r,
                    col=c,
                    values_first=True,  # (fewer plot columns rather than 6-7 pt values)
                )
            )
        gap = gaps[tag]
        panels.append(
            Panel(
                f"diff_{tag}",
                f"out_B − out_A reordered ({label}): max {approx_text(gap, 2)}",
                "heatmap",
                "output dimension",
                "rows of B",
                image=diffs[tag],
                x_coords=np.arange(params["d_model"]),
                y_coords=np.arange(len(b)),
                y_ticks=list(enumerate(b)),
                colormap="diverging",
                levels=(-lim, lim),
                value_label="difference",
                probe=diff_probe(tag),
                row=r,
                col=2,
                square=False,  # words × dimensions: as tall as the plot, not a sliver
                cell_decimals=1,  # ("-0.41" did not fit its cells on stage: none printed)
                # laid out for the default d whatever d is: dragging d through 10-17
                # moved the plots between 3 and 4 plot columns and back
                layout_columns=D_LAYOUT,
                values_first=True,
            )
        )
    d, base = params["d_model"], params["base"]
    enters = {
        "sinusoidal": f"x = emb + PE (d={d}, base {number(base)})",
        "learned": f"x = emb + 0.5·E[p] (random table, d={d})",
        "rope": f"q, k rotated by p·θ_i  (θ_i = {number(base)}^{{−2i/{d - d % 2}}})",
        "alibi": f"scores − {TOY_ALIBI_SLOPE:g}·|i − j|",
    }[method]
    formula = (  # core.formula markup; two spaces separate terms
        f"out = softmax(\\frac{{q k^{{\\text{{T}}}}}}{{\\sqrt{{{d}}}}}) v,  "
        f"q, k, v = x W_q, x W_k, x W_v;  with {name}:  "
        f"{enters};  causal: keys j > i masked (−∞);  B = A reordered by {perm.tolist()}"
    )
    extra, nope_note = nope_panels(params["nope_interval"], len(tags))
    panels += extra
    return ViewData(
        "permutation",
        dict(params),
        panels,
        plain_text(formula),
        _verdict(a, b, perm, gaps, method),
        notes=[nope_note],
        formula_markup=formula,
        note_panels={nope_note: ("nope",)},
        verdict_short=short_verdict(a, b, gaps, method),
    )


def export(params: Mapping[str, Any]) -> ExportData:
    """Stacked outputs ``(6, words, d_model)``: A/B without positions, A/B with the
    method, A/B causal without positions."""
    a, b, perm, runs = _run(params)
    check_allocation("attention outputs", (6, len(a), params["d_model"]))
    keys = ("a_none", "b_none", "a_pe", "b_pe", "a_causal", "b_causal")
    out = np.stack([runs[k].outputs for k in keys])
    return ExportData(
        "outputs",
        out,
        ("run", "token", "dimension"),
        "toy attention outputs: [A none, B none, A method, B method, A causal, B causal]",
    )


SPEC = ViewSpec(
    "permutation",
    "Word order",
    MODEL,
    EXPLANATION,
    compute,
    export,
    "(6, words, d_model) float64 toy attention outputs, each in its own sentence's "
    "word order: [0] A without positions, [1] B without, [2] A with the method, "
    "[3] B with the method, [4] A causal without positions, [5] B causal without",
)
