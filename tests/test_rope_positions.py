"""RoPE scaling: original_max_position_embeddings is a count of positions (a whole number)."""

from __future__ import annotations

import numpy as np
import pytest

from core.rope import rope_inv_freq

YARN = {"rope_type": "yarn", "factor": 4.0, "beta_fast": 32.0, "beta_slow": 1.0}


@pytest.mark.parametrize("kind", ["yarn", "llama3", "dynamic"])
@pytest.mark.parametrize("bad", [2048.5, 0, -4])
def test_fractional_or_non_positive_original_context_is_refused(kind: str, bad: float) -> None:
    scaling = {**YARN, "rope_type": kind, "original_max_position_embeddings": bad}
    with pytest.raises(ValueError, match="original_max_position_embeddings' must be a whole"):
        rope_inv_freq(64, 10000.0, scaling, seq_len=4096)


def test_whole_float_original_context_equals_the_int() -> None:
    as_int = rope_inv_freq(64, 10000.0, {**YARN, "original_max_position_embeddings": 2048})
    as_float = rope_inv_freq(64, 10000.0, {**YARN, "original_max_position_embeddings": 2048.0})
    np.testing.assert_array_equal(as_int[0], as_float[0])
    assert as_int[1] == as_float[1] != 1.0
