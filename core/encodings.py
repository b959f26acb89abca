"""Public math API of Positional Encoding Studio (a stable contract).

Import everything from here::

    from core.encodings import (sinusoidal, rope_inv_freq, apply_rope, alibi_slopes,
                                alibi_bias, relative_positions, shaw_relative_index,
                                t5_relative_bucket, learned_lookup)

All results are numpy arrays; pass ``backend=`` to compute with torch where supported.
"""

from core.alibi import alibi_attention_row, alibi_bias, alibi_slopes, softmax
from core.attention import (
    ATTENTION_METHODS,
    AttentionResult,
    permutation_between,
    permutation_gap,
    token_embeddings,
    tokenize,
    toy_attention,
)
from core.learned import init_learned_table, learned_lookup, load_table_npy
from core.relative import relative_positions, shaw_relative_index, t5_relative_bucket
from core.rope import (
    ROPE_SCALINGS,
    ROPE_STYLES,
    apply_rope,
    check_rotary_width,
    rope_decay,
    rope_inv_freq,
    rope_pair_indices,
    rope_score_vs_offset,
    yarn_correction_range,
    yarn_get_mscale,
)
from core.sinusoidal import (
    sinusoidal,
    sinusoidal_dot_vs_offset,
    sinusoidal_frequencies,
    sinusoidal_similarity,
    sinusoidal_wavelengths,
)

__all__ = [
    "ATTENTION_METHODS",
    "ROPE_SCALINGS",
    "ROPE_STYLES",
    "AttentionResult",
    "alibi_attention_row",
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "check_rotary_width",
    "init_learned_table",
    "learned_lookup",
    "load_table_npy",
    "permutation_between",
    "permutation_gap",
    "relative_positions",
    "rope_decay",
    "rope_inv_freq",
    "rope_pair_indices",
    "rope_score_vs_offset",
    "shaw_relative_index",
    "sinusoidal",
    "sinusoidal_dot_vs_offset",
    "sinusoidal_frequencies",
    "sinusoidal_similarity",
    "sinusoidal_wavelengths",
    "softmax",
    "t5_relative_bucket",
    "token_embeddings",
    "tokenize",
    "toy_attention",
    "yarn_correction_range",
    "yarn_get_mscale",
]
