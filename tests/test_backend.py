"""Array backends: numpy by default, torch when installed, same numbers, clear fallbacks."""

from __future__ import annotations

import numpy as np
import pytest

from core import backend as backend_mod
from core.backend import NUMPY, resolve_backend
from core.encodings import alibi_bias, apply_rope, rope_inv_freq, sinusoidal


def test_numpy_is_default_and_explicit():
    assert NUMPY.name == "numpy"
    assert resolve_backend("numpy").name == "numpy"


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(ValueError, match="backend: 'cuda9' is not one of"):
        resolve_backend("cuda9")


def test_missing_torch_falls_back_with_reason(monkeypatch):
    resolve_backend.cache_clear()
    monkeypatch.setattr(backend_mod, "torch_installed", lambda: False)
    try:
        chosen = resolve_backend("torch-cuda")
        assert chosen.name == "numpy"
        assert "torch is not installed" in chosen.note
        assert "not installed" in resolve_backend("auto").note
    finally:
        resolve_backend.cache_clear()


@pytest.fixture
def torch():
    """The torch module; only the tests using it are skipped where torch is not installed."""
    return pytest.importorskip("torch")


def test_torch_cpu_parity_float32_tolerance(torch):
    be = resolve_backend("torch-cpu")
    assert be.name == "torch" and be.device == "cpu"
    np.testing.assert_allclose(sinusoidal(50, 17, backend=be), sinusoidal(50, 17), atol=1e-6)
    inv, _ = rope_inv_freq(16, 500.0)
    x = np.random.default_rng(0).standard_normal((2, 9, 20))
    for style in ("half", "interleaved"):
        np.testing.assert_allclose(
            apply_rope(x, np.arange(9), inv, style, backend=be),
            apply_rope(x, np.arange(9), inv, style),
            atol=1e-6,
        )
    for causal in (True, False):
        got, want = alibi_bias(12, 6, causal, backend=be), alibi_bias(12, 6, causal)
        assert np.array_equal(np.isneginf(got), np.isneginf(want))
        finite = np.isfinite(want)
        np.testing.assert_allclose(got[finite], want[finite], atol=1e-6)


def test_unavailable_gpu_falls_back_to_numpy_with_reason(torch):
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    chosen = resolve_backend("torch-cuda")
    assert chosen.name == "numpy" and "cuda not available" in chosen.note
    auto = resolve_backend("auto")
    assert auto.name == "numpy" and "no GPU" in auto.note


def test_cuda_parity_when_available(torch):
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device here")
    be = resolve_backend("torch-cuda")
    np.testing.assert_allclose(sinusoidal(64, 32, backend=be), sinusoidal(64, 32), atol=1e-5)


def test_status_bar_names_the_backend_in_use_only_where_its_box_does_not():
    """ "backend: numpy" beside a box that said numpy read the same word twice; the
    backend in use is named where it differs from the choice (auto, or a fallback)."""
    from core.backend import Backend
    from gui.window.main_window import backend_text

    assert backend_text(Backend("numpy"), "numpy") == "Backend:"
    assert backend_text(Backend("numpy"), "auto") == "Backend in use: numpy; chosen:"
    assert (
        backend_text(Backend("torch", "cpu"), "torch-cuda")
        == "Backend in use: torch (cpu); chosen:"
    )
