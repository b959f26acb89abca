"""Array backends: numpy always, torch (CPU, CUDA, MPS) when installed.

torch is imported lazily, only when a torch backend is asked for; it is never imported
at module level anywhere in ``core``. Every public math function accepts
``backend=`` (a :class:`Backend`, a choice string or ``None`` for numpy) and returns
numpy arrays, so callers never see a tensor.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

BACKEND_CHOICES: tuple[str, ...] = ("auto", "numpy", "torch-cpu", "torch-cuda", "torch-mps")


@dataclass(frozen=True)
class Backend:
    """A resolved array backend.

    Attributes
    ----------
    name
        ``"numpy"`` or ``"torch"``.
    device
        ``"cpu"``, ``"cuda"`` or ``"mps"``.
    note
        Why this backend is active (e.g. the reason for a fallback); shown in the GUI.
    """

    name: str
    device: str = "cpu"
    note: str = ""

    @property
    def label(self) -> str:
        """Short label for the status bar, e.g. ``torch (cuda)``."""
        return "numpy" if self.name == "numpy" else f"torch ({self.device})"

    @property
    def xp(self) -> Any:
        """The array module (``numpy`` or ``torch``)."""
        if self.name == "numpy":
            return np
        import torch

        return torch

    @property
    def float_dtype(self) -> Any:
        """float64 on CPU, float32 on accelerators (MPS has no float64)."""
        if self.name == "numpy":
            return np.float64
        import torch

        return torch.float64 if self.device == "cpu" else torch.float32

    def asarray(self, values: Any, dtype: Any = None) -> Any:
        """Convert ``values`` to this backend's array type and device."""
        dtype = self.float_dtype if dtype is None else dtype
        if self.name == "numpy":
            return np.asarray(values, dtype=dtype)
        import torch

        if isinstance(values, np.ndarray):
            values = torch.from_numpy(np.ascontiguousarray(values))
        return torch.as_tensor(values, dtype=dtype, device=self.device)

    def arange(self, n: int, dtype: Any = None) -> Any:
        """``0..n-1`` as a float array on this backend."""
        return self.asarray(np.arange(n), dtype)

    def to_numpy(self, array: Any) -> np.ndarray:
        """Bring an array back to numpy (float64 for floating types)."""
        if isinstance(array, np.ndarray):
            return array
        out: np.ndarray = array.detach().cpu().numpy()
        return out.astype(np.float64) if out.dtype.kind == "f" else out


NUMPY = Backend("numpy", "cpu", "numpy")


def torch_installed() -> bool:
    """True when torch can be imported (checked without importing it)."""
    return importlib.util.find_spec("torch") is not None


@cache
def resolve_backend(choice: str = "auto") -> Backend:
    """Resolve a backend choice, falling back to numpy with a reason.

    Parameters
    ----------
    choice
        One of :data:`BACKEND_CHOICES`. ``auto`` picks torch on CUDA (or MPS) when
        available and numpy otherwise (torch on CPU is no faster than numpy here).

    Returns
    -------
    Backend
        Never raises for a valid choice: failures become a numpy backend whose
        ``note`` explains what happened.
    """
    if choice not in BACKEND_CHOICES:
        raise ValueError(f"backend: {choice!r} is not one of {', '.join(BACKEND_CHOICES)}")
    if choice == "numpy":
        return Backend("numpy", "cpu", "numpy (chosen)")
    if not torch_installed():
        why = "torch is not installed" if choice != "auto" else "torch not installed"
        return Backend("numpy", "cpu", f"numpy ({why})")
    try:
        import torch
    except Exception as exc:  # broken install: import error, missing shared library, ...
        return Backend("numpy", "cpu", f"numpy (torch failed to import: {exc})")
    wanted = {"torch-cpu": "cpu", "torch-cuda": "cuda", "torch-mps": "mps"}.get(choice)
    if wanted is None:  # auto
        if _device_works(torch, "cuda"):
            return Backend("torch", "cuda", "torch on CUDA (auto)")
        if _device_works(torch, "mps"):
            return Backend("torch", "mps", "torch on MPS (auto)")
        return Backend("numpy", "cpu", "numpy (auto: no GPU found for torch)")
    if wanted == "cpu" or _device_works(torch, wanted):
        return Backend("torch", wanted, f"torch on {wanted}")
    return Backend("numpy", "cpu", f"numpy ({wanted} not available to torch)")


def _device_works(torch: Any, device: str) -> bool:
    """Check that a tiny computation runs on ``device``."""
    try:
        if device == "cuda" and not torch.cuda.is_available():
            return False
        if device == "mps" and not (
            hasattr(torch.backends, "mps") and torch.backends.mps.is_available()
        ):
            return False
        x = torch.ones(4, device=device)
        return float((x * 2).sum().cpu()) == 8.0
    except Exception:
        return False


def as_backend(backend: Backend | str | None) -> Backend:
    """Normalise a ``backend=`` argument: ``None`` means numpy."""
    if backend is None:
        return NUMPY
    if isinstance(backend, Backend):
        return backend
    return resolve_backend(backend)
