"""A tiny causal transformer whose positional method is a parameter (torch, imported lazily).

The position tensors come from the same functions the views draw — :func:`core.sinusoidal.
sinusoidal`, :func:`core.rope.rope_inv_freq` with :func:`core.rope_fast.rope_cos_sin`,
:func:`core.alibi.alibi_bias`, :func:`core.relative.t5_relative_bucket` and
:func:`core.learned.init_learned_table` — so the lab trains exactly the math the lecture shows.

torch is imported only inside functions: importing this module never imports torch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from core.alibi import alibi_bias
from core.learned import init_learned_table
from core.relative import t5_relative_bucket
from core.rope import rope_inv_freq
from core.rope_fast import rope_cos_sin
from core.sinusoidal import sinusoidal

PE_METHODS: tuple[str, ...] = ("none", "sinusoidal", "learned", "rope", "alibi", "t5")
"""Positional methods of the lab (``none`` is NoPE: only the causal mask orders tokens)."""

PE_LABELS: dict[str, str] = {
    "none": "NoPE",
    "sinusoidal": "sinusoidal",
    "learned": "learned",
    "rope": "RoPE",
    "alibi": "ALiBi",
    "t5": "T5 bias",
}

T5_BUCKETS = 32
T5_MAX_DISTANCE = 128
ROPE_BASE = 10000.0


@dataclass(frozen=True)
class ModelConfig:
    """Size and positional method of the model.

    Attributes
    ----------
    pe
        One of :data:`PE_METHODS`.
    n_tokens
        Token vocabulary size.
    d_model, n_layers, n_heads
        Width (32–128 in the lab), depth and heads; ``d_model`` must divide by
        ``n_heads`` (and the head width must be even for RoPE).
    max_positions
        Rows of the learned table (only ``learned``): longer inputs have no row.
    seed
        Seed of the initial weights (the learned table uses the learned view's seeded
        N(0, 1) initialisation, times ``learned_init_std``).
    learned_init_std
        Scale of the learned table's initial N(0, 1) entries: 1 is ``nn.Embedding``'s
        default (learns the shift task fastest, but the random start dominates the
        table's cosine similarity); GPT-2 uses 0.02, and then a smooth diagonal band
        forms (neighbour cosine ≈ 0.74 after 400 default steps) while learning is slower.
    """

    pe: str = "rope"
    n_tokens: int = 16
    d_model: int = 64
    n_layers: int = 2
    n_heads: int = 4
    max_positions: int = 32
    seed: int = 0
    learned_init_std: float = 1.0

    def __post_init__(self) -> None:
        if self.pe not in PE_METHODS:
            raise ValueError(f"positional method {self.pe!r} is not one of {', '.join(PE_METHODS)}")
        if not 8 <= self.d_model <= 512:
            raise ValueError(f"d_model must be in 8..512, got {self.d_model}")
        if not 1 <= self.n_layers <= 8:
            raise ValueError(f"n_layers must be in 1..8, got {self.n_layers}")
        if not 1 <= self.n_heads <= 16 or self.d_model % self.n_heads:
            raise ValueError(
                f"n_heads must be in 1..16 and divide d_model={self.d_model}, got {self.n_heads}"
            )
        if self.pe == "rope" and (self.d_model // self.n_heads) % 2:
            raise ValueError(
                f"RoPE rotates pairs of dimensions: head width {self.d_model // self.n_heads} "
                "must be even"
            )
        if not 0 < self.learned_init_std <= 10:
            raise ValueError(f"learned_init_std must be in (0, 10], got {self.learned_init_std}")
        if self.max_positions < 1:
            raise ValueError(f"max_positions must be at least 1, got {self.max_positions}")

    @property
    def head_dim(self) -> int:
        """Width of one attention head."""
        return self.d_model // self.n_heads


def position_tables(cfg: ModelConfig, seq_len: int) -> dict[str, np.ndarray]:
    """The fixed (untrained) position tensors for one sequence length, as numpy.

    Returns
    -------
    dict
        ``"mask"``: additive causal mask ``(L, L)`` (0 or −inf) and, by method,
        ``"sinusoidal"`` ``(L, d)``; ``"cos"``, ``"sin"`` ``(L, head_dim/2)`` (RoPE,
        ``half`` pairing); ``"alibi"`` ``(heads, L, L)`` (causal, −inf above the
        diagonal); ``"t5_bucket"`` ``(L, L)`` int64 bucket of key − query.
    """
    n = int(seq_len)
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    out: dict[str, np.ndarray] = {"mask": np.where(j > i, -np.inf, 0.0)}
    if cfg.pe == "sinusoidal":
        out["sinusoidal"] = sinusoidal(n, cfg.d_model)
    elif cfg.pe == "rope":
        inv_freq, _ = rope_inv_freq(cfg.head_dim, ROPE_BASE)
        out["cos"], out["sin"] = rope_cos_sin(np.arange(n), inv_freq)
    elif cfg.pe == "alibi":
        out["alibi"] = alibi_bias(n, cfg.n_heads, causal=True)
    elif cfg.pe == "t5":
        out["t5_bucket"] = t5_relative_bucket(
            j - i, bidirectional=False, num_buckets=T5_BUCKETS, max_distance=T5_MAX_DISTANCE
        )
    return out


def rope_frequencies(cfg: ModelConfig) -> np.ndarray:
    """RoPE's inverse frequencies ``θ_i`` used by the model (one per rotation pair)."""
    return rope_inv_freq(cfg.head_dim, ROPE_BASE)[0]


def build_model(cfg: ModelConfig) -> Any:
    """A fresh :class:`TinyTransformer` (a ``torch.nn.Module``) on the CPU.

    The initial weights depend only on ``cfg.seed`` (a private CPU generator), so the
    same seed gives the same model on every device.
    """
    return _classes()["TinyTransformer"](cfg)


@cache
def _classes() -> dict[str, Any]:
    """Define the torch modules on first use (torch is imported here, not at import)."""
    import torch
    from torch import nn

    class Block(nn.Module):
        """Pre-LN transformer block: causal self-attention, then a 4×d GELU MLP."""

        def __init__(self, cfg: ModelConfig) -> None:
            super().__init__()
            d = cfg.d_model
            self.cfg = cfg
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.proj = nn.Linear(d, d)
            self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(
            self, x: Any, bias: Any, rope: tuple[Any, Any] | None, keep: list[Any] | None
        ) -> Any:
            b, n, d = x.shape
            h, hd = self.cfg.n_heads, self.cfg.head_dim
            q, k, v = self.qkv(self.ln1(x)).view(b, n, 3, h, hd).permute(2, 0, 3, 1, 4)
            if rope is not None:
                q, k = _rotate(q, *rope), _rotate(k, *rope)
            scores = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(hd)) + bias
            attn = torch.softmax(scores, dim=-1)
            if keep is not None:
                keep.append(attn.detach())
            y = (attn @ v).transpose(1, 2).reshape(b, n, d)
            x = x + self.proj(y)
            return x + self.mlp(self.ln2(x))

    def _rotate(x: Any, cos: Any, sin: Any) -> Any:
        """RoPE, ``half`` pairing (HF/NeoX): pairs ``(i, i + hd/2)``, as core.rope."""
        half = x.shape[-1] // 2
        a, b = x[..., :half], x[..., half:]
        return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)

    class TinyTransformer(nn.Module):
        """Token embedding (+ absolute PE) → blocks → LayerNorm → logits."""

        def __init__(self, cfg: ModelConfig) -> None:
            super().__init__()
            self.cfg = cfg
            d = cfg.d_model
            self.tok = nn.Embedding(cfg.n_tokens, d)
            self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
            self.ln_f = nn.LayerNorm(d)
            self.head = nn.Linear(d, cfg.n_tokens)
            self.wpe: Any = None
            self.t5: Any = None
            if cfg.pe == "learned":
                table = init_learned_table(cfg.max_positions, d, cfg.seed)
                table *= cfg.learned_init_std
                self.wpe = nn.Parameter(torch.tensor(table, dtype=torch.float32))
            if cfg.pe == "t5":
                self.t5 = nn.Embedding(T5_BUCKETS, cfg.n_heads)
            self._cache: dict[tuple[int, str], dict[str, Any]] = {}
            gen = torch.Generator().manual_seed(int(cfg.seed))
            with torch.no_grad():
                for name, p in self.named_parameters():
                    if name == "wpe":
                        continue
                    if name.endswith("bias"):
                        p.zero_()
                    elif "ln" in name:
                        p.fill_(1.0)
                    elif name.startswith("tok"):
                        nn.init.normal_(p, 0.0, 1.0, generator=gen)
                    else:
                        nn.init.normal_(p, 0.0, 0.02, generator=gen)

        def tables(self, n: int, device: Any) -> dict[str, Any]:
            """Position tensors for length ``n`` on ``device`` (cached per length)."""
            key = (n, str(device))
            if key not in self._cache:
                if len(self._cache) > 16:
                    self._cache.clear()
                raw = position_tables(self.cfg, n)
                self._cache[key] = {
                    k: torch.as_tensor(
                        v, dtype=torch.long if v.dtype.kind == "i" else torch.float32
                    ).to(device)
                    for k, v in raw.items()
                }
            return self._cache[key]

        def forward(self, tokens: Any, keep: list[Any] | None = None) -> Any:
            """Logits ``(batch, L, n_tokens)``; ``keep`` collects each layer's attention."""
            n = tokens.shape[1]
            if self.wpe is not None and n > self.wpe.shape[0]:
                raise ValueError(
                    f"no row: the learned table has {self.wpe.shape[0]} rows, "
                    f"a sequence of {n} tokens needs positions up to {n - 1}"
                )
            t = self.tables(n, tokens.device)
            x = self.tok(tokens)
            if "sinusoidal" in t:
                x = x + t["sinusoidal"]
            if self.wpe is not None:
                x = x + self.wpe[:n]
            bias = t["mask"]
            if "alibi" in t:
                bias = t["alibi"]
            elif self.t5 is not None:
                bias = bias + self.t5(t["t5_bucket"]).permute(2, 0, 1)
            rope = (t["cos"], t["sin"]) if "cos" in t else None
            for block in self.blocks:
                x = block(x, bias, rope, keep)
            return self.head(self.ln_f(x))

    return {"TinyTransformer": TinyTransformer, "Block": Block}
