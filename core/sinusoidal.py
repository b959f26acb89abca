"""Sinusoidal positional encoding (Vaswani et al., 2017).

Layout convention: *interleaved* sin/cos, as in the paper and the course material:
``PE[p, 2i] = sin(p·ω_i)`` and ``PE[p, 2i+1] = cos(p·ω_i)`` with ``ω_i = base^(−2i/d)``.
An odd ``d_model`` works: its last column is a sine.
"""

from __future__ import annotations

import numpy as np

from core.backend import Backend, as_backend


def _check_sizes(seq_len: int, d_model: int) -> None:
    if int(seq_len) < 1:
        raise ValueError(f"seq_len must be at least 1, got {seq_len}")
    if int(d_model) < 1:
        raise ValueError(f"d_model must be at least 1, got {d_model}")


def sinusoidal_frequencies(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Angular frequency of every column: ``ω_{⌊c/2⌋} = base^(−2⌊c/2⌋/d_model)``.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model,)``; columns ``2i`` and ``2i+1`` share ``ω_i``.
    """
    if base <= 0:
        raise ValueError(f"base must be positive, got {base}")
    pair = np.arange(d_model) // 2
    return np.power(float(base), -2.0 * pair / d_model)


def sinusoidal_wavelengths(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Wavelength in positions of every column, ``2π/ω`` (from 2π up to about 2π·base)."""
    return 2.0 * np.pi / sinusoidal_frequencies(d_model, base)


def sinusoidal(seq_len: int, d_model: int, base: float = 10000.0, *,
               positions: np.ndarray | None = None, dims: np.ndarray | None = None,
               backend: Backend | str | None = None) -> np.ndarray:
    """Sinusoidal position-encoding matrix.

    Parameters
    ----------
    seq_len, d_model
        Matrix size ``(seq_len, d_model)``; any ``d_model >= 1`` (odd works).
    base
        Frequency base (10000 in the paper).
    positions, dims
        Optional subsets of rows / columns (used for display-resolution sampling);
        values are exact at those entries.
    backend
        Array backend (``None``: numpy).

    Returns
    -------
    numpy.ndarray
        ``PE[p, 2i] = sin(p·ω_i)``, ``PE[p, 2i+1] = cos(p·ω_i)``.
    """
    _check_sizes(seq_len, d_model)
    be = as_backend(backend)
    pos = np.arange(seq_len) if positions is None else np.asarray(positions)
    cols = np.arange(d_model) if dims is None else np.asarray(dims)
    omega = sinusoidal_frequencies(d_model, base)[cols]
    xp = be.xp
    even = cols % 2 == 0
    p = be.asarray(pos)[:, None]
    if be.name == "numpy":  # one trig call per entry: sin on even columns, cos on odd
        out = np.empty((len(pos), len(cols)))
        out[:, even] = np.sin(p * omega[even])
        out[:, ~even] = np.cos(p * omega[~even])
        return out
    angles = p * be.asarray(omega)[None, :]
    is_sin = be.asarray(even)
    return be.to_numpy(is_sin * xp.sin(angles) + (1 - is_sin) * xp.cos(angles))


def sinusoidal_similarity(seq_len: int, d_model: int, base: float = 10000.0, *,
                          positions: np.ndarray | None = None,
                          backend: Backend | str | None = None) -> np.ndarray:
    """Dot products ``PE_p · PE_q`` between positions (the relative-structure matrix).

    For even ``d_model`` this equals ``Σ_i cos((p−q)·ω_i)``, which depends only on p−q.
    """
    pe = sinusoidal(seq_len, d_model, base, positions=positions, backend=backend)
    return pe @ pe.T


def sinusoidal_dot_vs_offset(offsets: np.ndarray, d_model: int,
                             base: float = 10000.0) -> np.ndarray:
    """``PE_p · PE_{p+Δ}`` as a function of the offset Δ (independent of p for even d)."""
    offsets = np.asarray(offsets, dtype=np.float64)
    omega = sinusoidal_frequencies(d_model, base)[0::2]
    total = np.cos(offsets[:, None] * omega[None, :]).sum(axis=1)
    if d_model % 2:  # the lone last sine column: sin(pω)sin((p+Δ)ω) is not shift invariant
        total = total - 0.5 * np.cos(offsets * omega[-1])  # its p-averaged value is cos(Δω)/2
    return total
