"""Toy single-head self-attention for the "dog bites man" demonstration.

Tokens get fixed pseudo-random embeddings (seeded from the token text with CRC-32, so the
same word always gets the same vector on every machine). Attention is *bidirectional*
by default; ``causal=True`` adds the decoder mask (GPT, LLaMA, Mistral), which by itself
tells word orders apart: query 0 sees only key 0, so its output is its own value vector.
"""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from core.alibi import softmax
from core.learned import init_learned_table
from core.rope import apply_rope, rope_inv_freq
from core.sinusoidal import sinusoidal

ATTENTION_METHODS = ("none", "sinusoidal", "learned", "rope", "alibi")
TOY_ALIBI_SLOPE = 0.5  # slope of head 1 of 8 (2^-1): strong enough to see


def tokenize(sentence: str) -> list[str]:
    """Split on whitespace, lower-case, strip surrounding punctuation."""
    words = [w.strip(".,;:!?\"'()").lower() for w in sentence.split()]
    return [w for w in words if w]


@lru_cache(maxsize=256)
def _token_vector(token: str, d_model: int) -> np.ndarray:
    vec = np.random.default_rng(zlib.crc32(token.encode("utf-8"))).standard_normal(d_model)
    vec.flags.writeable = False  # shared between calls: never written
    return vec


def token_embeddings(tokens: list[str], d_model: int) -> np.ndarray:
    """Fixed toy embedding per token, ``(len(tokens), d_model)``, entries ~ N(0, 1)."""
    rows = [_token_vector(t, d_model) for t in tokens]
    return np.array(rows).reshape(len(tokens), d_model)


@lru_cache(maxsize=4)
def _projections(d_model: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fixed ``W_q, W_k, W_v`` (cached: every frame of every run uses the same; read-only)."""
    rng = np.random.default_rng(20240607)
    mats = tuple(rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(3))
    for m in mats:
        m.flags.writeable = False
    return mats


@dataclass(frozen=True)
class AttentionResult:
    """Attention weights ``(L, L)`` (rows: queries) and outputs ``(L, d)``."""

    weights: np.ndarray
    outputs: np.ndarray


#: the methods whose result depends on ``base``
_BASE_METHODS = frozenset({"sinusoidal", "rope"})
#: results of at most this many numbers (weights and outputs) are kept: 16 of them
#: hold at most 8 MB
KEEP_LIMIT = 65536


def toy_attention(
    tokens: list[str],
    method: str = "none",
    d_model: int = 16,
    base: float = 10000.0,
    causal: bool = False,
) -> AttentionResult:
    """Run one toy attention head over ``tokens`` with a positional method.

    Results of up to :data:`KEEP_LIMIT` numbers are kept for the last few inputs (a
    drag of ``base`` leaves the runs without positions, and with learned or ALiBi
    positions, as they were: the permutation view computed all six of its runs on
    every frame); each call gets arrays of its own.

    Parameters
    ----------
    method
        ``none`` (no positions), ``sinusoidal`` / ``learned`` (added to the input),
        ``rope`` (rotates q and k), ``alibi`` (symmetric bias ``−m·|i−j|`` on scores).
    causal
        Mask keys after the query (``−inf`` before the softmax), as decoders do.
    """
    if method not in ATTENTION_METHODS:
        raise ValueError(f"method must be one of {', '.join(ATTENTION_METHODS)}")
    if not tokens:
        raise ValueError("the sentence has no words")
    n = len(tokens)
    if n * (n + d_model) > KEEP_LIMIT:  # (a long sentence: not kept)
        return _attention(tokens, method, d_model, base, causal)
    kept = _kept_attention(
        tuple(tokens), method, d_model, base if method in _BASE_METHODS else None, causal
    )
    return AttentionResult(kept.weights.copy(), kept.outputs.copy())


@lru_cache(maxsize=16)
def _kept_attention(
    tokens: tuple[str, ...], method: str, d_model: int, base: float | None, causal: bool
) -> AttentionResult:
    """:func:`_attention` for a method's own inputs (``base`` ``None`` where unused)."""
    return _attention(list(tokens), method, d_model, 10000.0 if base is None else base, causal)


def _attention(
    tokens: list[str], method: str, d_model: int, base: float, causal: bool
) -> AttentionResult:
    """:func:`toy_attention` computed."""
    n = len(tokens)
    x = token_embeddings(tokens, d_model)
    if method == "sinusoidal":
        x = x + sinusoidal(n, d_model, base)
    elif method == "learned":
        x = x + init_learned_table(max(n, 1), d_model, seed=7)[:n] * 0.5
    wq, wk, wv = _projections(d_model)
    q, k, v = x @ wq, x @ wk, x @ wv
    if method == "rope":
        if d_model < 2:
            raise ValueError("RoPE needs d_model >= 2")
        inv, _ = rope_inv_freq(d_model - d_model % 2, base)
        q = apply_rope(q, np.arange(n), inv)
        k = apply_rope(k, np.arange(n), inv)
    scores = q @ k.T / np.sqrt(d_model)
    if method == "alibi":
        pos = np.arange(n)
        scores = scores - TOY_ALIBI_SLOPE * np.abs(pos[:, None] - pos[None, :])
    if causal:
        scores = np.where(np.triu(np.ones((n, n), dtype=bool), 1), -np.inf, scores)
    weights = softmax(scores, axis=-1)
    return AttentionResult(weights, weights @ v)


def _words(counts: Counter[str], shown: int = 5) -> str:
    """``counts``' words quoted, each as often as counted ("'dog', 'dog'"), the first
    ``shown`` of them and "…" for the rest."""
    words = sorted(counts.elements())
    listed = ", ".join(f"'{w}'" for w in words[:shown])
    return listed + (", …" if len(words) > shown else "")


def permutation_between(a: list[str], b: list[str]) -> np.ndarray:
    """Indices ``perm`` with ``b == [a[p] for p in perm]``.

    Raises
    ------
    ValueError
        When ``b`` is not a reordering of ``a`` (the message lists what differs).
    """
    if not b:
        raise ValueError(
            "Sentence B has no words: give the same words as sentence A in another order"
        )
    if sorted(a) != sorted(b):
        # both sides, each word as often as it is off ("cat bites man" for "dog bites
        # man" listed only "dog": what to take out of B was left to guess)
        extra, missing = Counter(b) - Counter(a), Counter(a) - Counter(b)
        parts = [
            f"{_words(extra)} not in A" if extra else "",
            f"{_words(missing)} missing" if missing else "",
        ]
        raise ValueError(
            "Sentence B must use the same words as sentence A in another order "
            f"({'; '.join(p for p in parts if p)})"
        )
    used = [False] * len(a)
    perm = []
    for word in b:
        idx = next(i for i, w in enumerate(a) if w == word and not used[i])
        used[idx] = True
        perm.append(idx)
    return np.array(perm, dtype=np.int64)


def permutation_gap(res_a: AttentionResult, res_b: AttentionResult, perm: np.ndarray) -> float:
    """``max |out_b − out_a[perm]|``: 0 means attention only permuted the outputs."""
    return float(np.max(np.abs(res_b.outputs - res_a.outputs[perm])))


def no_rope_layers(num_layers: int, interval: int) -> np.ndarray:
    """Which layers apply RoPE (1) and which are NoPE (0), as HF transformers' SmolLM3 and
    Llama 4 configs build their default ``no_rope_layers``:
    ``int((layer_idx + 1) % no_rope_layer_interval != 0)``: every ``interval``-th layer
    (layers interval−1, 2·interval−1, … counting from 0) has no positional encoding.
    """
    if int(interval) < 1:
        raise ValueError(f"no_rope_layer_interval must be at least 1, got {interval}")
    idx = np.arange(int(num_layers))
    return np.asarray(((idx + 1) % int(interval) != 0).astype(np.int64))


def nope_causal_weight(queries: np.ndarray) -> np.ndarray:
    """What a NoPE layer can still tell under a causal mask: with equal scores (nothing
    about content or position), query ``i`` spreads its weight over keys ``0..i``, so each
    key gets ``1/(i + 1)`` — a function of the query's absolute position."""
    return 1.0 / (np.asarray(queries, dtype=np.float64) + 1.0)
