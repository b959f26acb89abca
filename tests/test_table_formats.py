"""Position tables from .safetensors and .pt files (core.table_formats) and the learned view.

safetensors files are built byte by byte here (8-byte little-endian header length, JSON
header, raw data), independently of the module's own writer. torch tests ask for the
``torch`` fixture.
"""

from __future__ import annotations

import json
import os
import pickle
import struct

import numpy as np
import pytest

import core.table_formats as tf
from core.table_formats import load_position_table, pick_table_key, write_safetensors
from core.viewdata import ComputeContext
from core.views import VIEWS


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def raw_safetensors(path, entries: dict, data: bytes, pad: int = 0) -> None:
    header = json.dumps(entries).encode() + b" " * pad
    path.write_bytes(struct.pack("<Q", len(header)) + header + data)


def table(rows=10, d=4, seed=0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((rows, d)).astype(np.float32)


def learned_view(**params):
    spec = VIEWS["learned"]
    return spec.compute(spec.model.validate(params, partial=True), ComputeContext())


# ------------------------------------------------------------------ safetensors
def test_hand_built_safetensors_f32_f16_bf16(tmp_path):
    t = table()
    f16 = t.astype(np.float16)
    bf16 = (t.view(np.uint32) >> 16).astype(np.uint16)  # truncated to bfloat16
    blobs = [t.tobytes(), f16.tobytes(), bf16.tobytes()]
    offsets = np.cumsum([0, *map(len, blobs)])
    entries = {
        "__metadata__": {"format": "pt"},
        "a": {"dtype": "F32", "shape": [10, 4], "data_offsets": [0, int(offsets[1])]},
        "b": {"dtype": "F16", "shape": [10, 4], "data_offsets": [int(offsets[1]), int(offsets[2])]},
        "c": {
            "dtype": "BF16",
            "shape": [10, 4],
            "data_offsets": [int(offsets[2]), int(offsets[3])],
        },
    }
    path = tmp_path / "m.safetensors"
    raw_safetensors(path, entries, b"".join(blobs), pad=5)
    np.testing.assert_array_equal(load_position_table(path, "a"), t)
    np.testing.assert_array_equal(load_position_table(path, "b"), f16.astype(np.float64))
    expected_bf16 = (bf16.astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_array_equal(load_position_table(path, "c"), expected_bf16)
    assert np.max(np.abs(load_position_table(path, "c") - t)) < 0.02  # it is the table
    with pytest.raises(ValueError, match="no wpe.weight"):
        load_position_table(path)  # three 2-D tensors, none named like a table


@pytest.mark.parametrize(
    ("names", "picked"),
    [
        (["wte.weight", "wpe.weight", "h.0.attn.c_attn.weight"], "wpe.weight"),
        (["transformer.wte.weight", "transformer.wpe.weight"], "transformer.wpe.weight"),
        (
            [
                "bert.embeddings.word_embeddings.weight",
                "bert.embeddings.position_embeddings.weight",
                "bert.embeddings.token_type_embeddings.weight",
            ],
            "bert.embeddings.position_embeddings.weight",
        ),
        (["table"], "table"),
    ],
)
def test_key_rule_gpt2_then_bert_then_the_only_table(tmp_path, names, picked):
    tensors = {n: table(seed=k) for k, n in enumerate(names)}
    path = tmp_path / "m.safetensors"
    write_safetensors(path, tensors)
    np.testing.assert_array_equal(load_position_table(path), tensors[picked])


def test_explicit_key_wins_and_unknown_key_lists_tables(tmp_path):
    tensors = {"wpe.weight": table(seed=1), "other": table(seed=2)}
    path = tmp_path / "m.safetensors"
    write_safetensors(path, tensors)
    np.testing.assert_array_equal(load_position_table(path, "other"), tensors["other"])
    with pytest.raises(ValueError, match=r"no tensor named 'nope'; 2-D tensors: other, wpe"):
        load_position_table(path, "nope")


def test_ambiguous_tables_ask_for_a_key():
    shapes = {"a.wpe.weight": (4, 2), "b.wpe.weight": (4, 2)}
    with pytest.raises(ValueError, match="several position tables.*table_key"):
        pick_table_key("f", shapes)


def test_only_the_table_bytes_are_read(tmp_path, monkeypatch):
    """A big checkpoint costs one table: the other tensors' bytes are never read."""
    t = table(rows=16, d=8)
    big = np.zeros((1024, 1024), np.float32)  # 4 MiB of "weights"
    path = tmp_path / "gpt2.safetensors"
    write_safetensors(path, {"h.0.mlp.weight": big, "wpe.weight": t})
    reads = []
    real_open = open

    class Counting:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def read(self, n=-1):
            reads.append(n)
            return self.f.read(n)

        def seek(self, *a):
            return self.f.seek(*a)

    monkeypatch.setattr(tf, "open", lambda *a, **k: Counting(real_open(*a, **k)), raising=False)
    np.testing.assert_array_equal(load_position_table(path), t)
    assert sum(n for n in reads if n > 0) < 64 * 1024
    assert all(n >= 0 for n in reads)  # never "read everything"


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"\x01\x02", "shorter than its 8-byte header length"),
        (struct.pack("<Q", 2**63) + b"{}", "does not fit the file"),
        (struct.pack("<Q", 4) + b"{}", "does not fit the file"),
        (struct.pack("<Q", 3) + b"\xff\xfe{", "header"),
        (struct.pack("<Q", 5) + b"{oops", "header"),
        (struct.pack("<Q", 2) + b"[]", "not a JSON object"),
        (struct.pack("<Q", 13) + b'{"a":1,"a":2}', "duplicate name 'a'"),
    ],
)
def test_malformed_safetensors_headers_are_one_line(tmp_path, content, match):
    path = tmp_path / "bad.safetensors"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=match) as info:
        load_position_table(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


@pytest.mark.parametrize(
    ("entry", "data", "match"),
    [
        (
            {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 64]},
            b"\0" * 16,
            "outside the file",
        ),
        ({"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 12]}, b"\0" * 16, "12 bytes for"),
        ({"dtype": "F32", "shape": [2, -2], "data_offsets": [0, 16]}, b"\0" * 16, "invalid shape"),
        ({"shape": [2, 2], "data_offsets": [0, 16]}, b"\0" * 16, "no dtype"),
        ({"dtype": "F8_E4M3", "shape": [2, 2], "data_offsets": [0, 4]}, b"\0" * 4, "not supported"),
        ({"dtype": "F32", "shape": [16], "data_offsets": [0, 64]}, b"\0" * 64, "2-D"),
        (
            {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
            np.array([1, np.nan, 0, 0], np.float32).tobytes(),
            "NaN",
        ),
    ],
)
def test_bad_safetensors_entries(tmp_path, entry, data, match):
    path = tmp_path / "bad.safetensors"
    raw_safetensors(path, {"wpe.weight": entry}, data)
    with pytest.raises(ValueError, match=match) as info:
        load_position_table(path)
    assert "\n" not in str(info.value)


def test_huge_table_is_refused_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "big.safetensors"
    write_safetensors(path, {"wpe.weight": table(rows=64, d=64)})
    monkeypatch.setattr(tf, "MAX_TABLE_BYTES", 1024)
    with pytest.raises(ValueError, match="more than"):
        load_position_table(path)


def test_not_a_regular_file(tmp_path):
    folder = tmp_path / "dir.safetensors"
    folder.mkdir()
    with pytest.raises(ValueError, match=r"not a regular table file \(a folder\)"):
        load_position_table(folder)
    fifo = tmp_path / "p.safetensors"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"not a regular table file \(a pipe\)"):
        load_position_table(fifo)  # checked before opening: never blocks


def test_npy_still_goes_through_the_npy_loader(tmp_path):
    path = tmp_path / "t.npy"
    np.save(path, table())
    np.testing.assert_array_equal(load_position_table(path), table())
    with pytest.raises(ValueError, match=r"leave the tensor name \(table_key\) empty"):
        load_position_table(path, "wpe.weight")


# ------------------------------------------------------------------ torch files
def test_pt_tensor_and_nested_state_dict(torch, tmp_path):
    t = table()
    plain, nested = tmp_path / "t.pt", tmp_path / "sd.pth"
    torch.save(torch.tensor(t), plain)
    torch.save(
        {"model": {"bert.embeddings.position_embeddings.weight": torch.tensor(t), "step": 3}},
        nested,
    )
    np.testing.assert_array_equal(load_position_table(plain), t)
    np.testing.assert_array_equal(load_position_table(nested), t)
    bf = tmp_path / "bf.bin"
    torch.save({"wpe.weight": torch.tensor(t).to(torch.bfloat16)}, bf)
    np.testing.assert_allclose(load_position_table(bf), t, atol=0.02)


class Evil:
    """Unpickling this would run code (write a marker file)."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').close()",))


def test_pt_that_would_execute_code_is_refused(torch, tmp_path):
    marker = tmp_path / "EXECUTED"
    path = tmp_path / "evil.pt"
    torch.save({"wpe.weight": torch.zeros(4, 2), "payload": Evil(marker)}, path)
    with pytest.raises(ValueError, match="refused: unpickling this file would call code") as info:
        load_position_table(path)
    assert "GLOBAL" in str(info.value) and "exec" in str(info.value)
    assert "\n" not in str(info.value) and "\x1b" not in str(info.value)
    assert not marker.exists()
    legacy = tmp_path / "legacy.pt"
    with open(legacy, "wb") as handle:
        pickle.dump(Evil(marker), handle, protocol=2)
    with pytest.raises(ValueError, match="refused"):
        load_position_table(legacy)
    assert not marker.exists()


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"garbage", "not a valid torch weights file"),
        (b"PK\x03\x04" + b"\0" * 30, "not a valid torch"),
        (b"", "not a valid torch"),
    ],
)
def test_malformed_pt_files(torch, tmp_path, content, match):
    path = tmp_path / "bad.pt"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=match) as info:
        load_position_table(path)
    assert "\n" not in str(info.value)


def test_pt_without_a_table(torch, tmp_path):
    path = tmp_path / "list.pt"
    torch.save([torch.zeros(2, 2)], path)
    with pytest.raises(ValueError, match="expected a tensor or a dict"):
        load_position_table(path)
    empty = tmp_path / "empty.pt"
    torch.save({"step": 3}, empty)
    with pytest.raises(ValueError, match="holds no tensors"):
        load_position_table(empty)


def test_pt_without_torch_says_so(tmp_path, monkeypatch):
    path = tmp_path / "t.pt"
    path.write_bytes(b"x")
    monkeypatch.setitem(__import__("sys").modules, "torch", None)
    with pytest.raises(ValueError, match="needs torch"):
        load_position_table(path)


# ------------------------------------------------------------------ learned view
def test_learned_view_loads_safetensors_with_a_key(tmp_path):
    t = table(rows=12, d=6)
    path = tmp_path / "ckpt.safetensors"
    write_safetensors(path, {"wpe.weight": t, "my.table": 2 * t})
    data = learned_view(table_file=str(path), seq_len=8)
    np.testing.assert_allclose(data.panel("table").image, t)
    keyed = learned_view(table_file=str(path), table_key="my.table", seq_len=8)
    np.testing.assert_allclose(keyed.panel("table").image, 2 * t)
    with pytest.raises(ValueError, match="no tensor named 'x'") as info:
        learned_view(table_file=str(path), table_key="x", seq_len=8)
    assert "\n" not in str(info.value)


def test_learned_view_loads_pt(torch, tmp_path):
    t = table(rows=12, d=6)
    path = tmp_path / "t.pt"
    torch.save({"wpe.weight": torch.tensor(t)}, path)
    np.testing.assert_allclose(
        learned_view(table_file=str(path), seq_len=8).panel("table").image, t
    )
