"""Toy sequence tasks where order matters, as plain numpy batches (no torch needed).

Every task turns a *content length* ``n`` (the "training length" of the lab) into
token sequences for a causal model plus targets; ``IGNORE`` marks positions that are
not scored. Batches come from a numpy ``Generator``, so the same seed gives the same
data for every positional method (a fair comparison).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

IGNORE = -100
"""Target value of positions that are not scored (``cross_entropy(ignore_index=...)``)."""

TASKS: tuple[str, ...] = ("shift", "reverse")


@dataclass(frozen=True)
class Task:
    """A toy task.

    Attributes
    ----------
    name
        ``"shift"``: at position ``i`` predict the token ``k`` positions back, ``x[i − k]``
        (positions ``i < k`` are not scored). ``"reverse"``: read ``n`` tokens and a
        separator, then write them in reverse order.
    vocab
        Number of ordinary symbols (the reverse task adds one separator token).
    k
        Shift distance of the ``shift`` task.
    """

    name: str = "shift"
    vocab: int = 16
    k: int = 3

    def __post_init__(self) -> None:
        if self.name not in TASKS:
            raise ValueError(f"task {self.name!r} is not one of {', '.join(TASKS)}")
        if not 2 <= self.vocab <= 4096:
            raise ValueError(f"vocab must be in 2..4096, got {self.vocab}")
        if self.name == "shift" and self.k < 1:
            raise ValueError(f"shift distance k must be at least 1, got {self.k}")

    @property
    def n_tokens(self) -> int:
        """Size of the model's token vocabulary (symbols plus special tokens)."""
        return self.vocab + (1 if self.name == "reverse" else 0)

    def min_length(self) -> int:
        """Shortest content length with at least one scored position."""
        return self.k + 1 if self.name == "shift" else 1

    def seq_len(self, n: int) -> int:
        """Tokens the model reads for content length ``n`` (``n``, or ``2n`` for reverse)."""
        return int(n) if self.name == "shift" else 2 * int(n)

    def batch(self, rng: np.random.Generator, n: int, size: int) -> tuple[np.ndarray, np.ndarray]:
        """``size`` sequences of content length ``n``.

        Returns
        -------
        (inputs, targets) : tuple of numpy.ndarray
            int64 arrays of shape ``(size, seq_len(n))``; targets hold :data:`IGNORE`
            where nothing is scored.
        """
        n = int(n)
        if n < self.min_length():
            raise ValueError(f"length {n} is too short for task {self.name!r}")
        x = rng.integers(0, self.vocab, size=(int(size), n), dtype=np.int64)
        if self.name == "shift":
            targets = np.full_like(x, IGNORE)
            targets[:, self.k :] = x[:, : n - self.k]
            return x, targets
        sep = np.full((x.shape[0], 1), self.vocab, dtype=np.int64)
        rev = x[:, ::-1]
        inputs = np.concatenate([x, sep, rev[:, :-1]], axis=1)
        targets = np.concatenate([np.full((x.shape[0], n), IGNORE, dtype=np.int64), rev], axis=1)
        return inputs, targets
