"""Export of every view in every format: CLI (``main.py export``/``views``) and window."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from tiers import gate_cover

from core.encodings import alibi_bias, sinusoidal
from core.viewdata import ComputeContext
from core.views import VIEW_IDS, get_view
from gui import cli
from gui.export import headless as exporting

REPO = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
SMALL = ["--width", "640", "--height", "400"]
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


# ----------------------------------------------------------------------- helpers
def run(capsys, *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    code = cli.main(list(args), 0.0)
    out, err = capsys.readouterr()
    return code, out, err


def png_image(path: Path):
    from PySide6 import QtGui

    image = QtGui.QImage(str(path), "PNG")
    assert not image.isNull(), f"{path} does not decode as PNG"
    return image


def rgba(image) -> np.ndarray:
    from PySide6 import QtGui

    image = image.convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    raw = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return raw[:, : image.width() * 4].reshape(image.height(), image.width(), 4).copy()


def distinct_colours(px: np.ndarray) -> int:
    # one uint32 per RGBA pixel: the same count as unique rows, without a row sort
    return len(np.unique(np.ascontiguousarray(px).view(np.uint32)))


def path_lengths(root: ET.Element) -> list[int]:
    """Number of points of every <path>/<polyline> in an SVG tree."""
    counts = []
    for el in root.iter():
        if el.tag in (f"{SVG}path", f"{SVG}polyline"):
            counts.append(len(NUMBER.findall(el.get("d") or el.get("points") or "")) // 2)
    return counts


def read_csv(path: Path, ndim: int) -> np.ndarray:
    """Parse a matrix (ndim <= 2) or long-format (ndim >= 3) CSV back into an array."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    body = rows[1:]
    if ndim <= 2:
        assert [int(r[0]) for r in body] == list(range(len(body)))  # row indices
        out = np.array([[float(v) for v in r[1:]] for r in body])
        return out[:, 0] if ndim == 1 else out
    index = np.array([[int(v) for v in r[:ndim]] for r in body])
    out = np.full(tuple(index.max(axis=0) + 1), np.nan)
    out[tuple(index.T)] = [float(r[ndim]) for r in body]
    return out


def assert_one_line_error(err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word.lower() in err.lower(), (word, err)


def line_series_lengths(view_id: str) -> list[int]:
    """The points each line of ``view_id``'s panels is drawn with (a straight series'
    ends of its runs: ``Series.straight``)."""
    from gui.plotting.plot_data import drawn_xy

    data = get_view(view_id).compute(get_view(view_id).model.defaults(), ComputeContext())
    return [
        len(drawn_xy(s)[0])
        for p in data.panels
        if p.kind in ("curves", "arrows")  # an arrows panel's trails and arcs
        for s in p.series
        if s.style != "scatter"
    ]


# ----------------------------------------------------------------------- every view
@pytest.mark.parametrize("view_id", gate_cover(VIEW_IDS, keep=("rope", "relative")))
def test_png_and_svg_every_view(view_id, tmp_path, capsys, qapp):
    png, svg = tmp_path / f"{view_id}.png", tmp_path / f"{view_id}.svg"
    assert run(capsys, "export", view_id, "-o", str(png), *SMALL)[0] == 0
    image = png_image(png)
    assert (image.width(), image.height()) == (640, 400)
    assert distinct_colours(rgba(image)) > 40  # not blank
    assert run(capsys, "export", view_id, "-o", str(svg), *SMALL)[0] == 0
    root = ET.parse(svg).getroot()
    assert root.tag == f"{SVG}svg" and (root.get("width"), root.get("height")) == ("640", "400")
    lengths = line_series_lengths(view_id)
    if lengths:  # curves are vector paths with their points (a curve denser than the
        # SVG's quarter-pixel columns is reduced to its envelope there: gui.render.envelope)
        assert max(path_lengths(root)) >= min(0.9 * max(lengths), 4 * 640)
    else:  # heatmap-only views embed their images, axes stay vector
        assert list(root.iter(f"{SVG}image"))
        assert len(path_lengths(root)) > 10
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([png.name, svg.name])


@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_npy_and_csv_every_view(view_id, tmp_path, capsys):
    npy, table = tmp_path / "d.npy", tmp_path / "d.csv"
    assert run(capsys, "export", view_id, "-o", str(npy)) == (0, "", "")
    assert run(capsys, "export", view_id, "-o", str(table))[0] == 0
    spec = get_view(view_id)
    expected = spec.export(spec.model.defaults())
    saved = np.load(npy, allow_pickle=False)
    assert saved.dtype == expected.array.dtype
    np.testing.assert_array_equal(saved, expected.array)
    back = read_csv(table, saved.ndim)
    assert np.array_equal(back, saved.astype(np.float64), equal_nan=True)
    header = next(csv.reader(table.read_text(encoding="utf-8").splitlines()))
    if saved.ndim >= 3:
        assert header == [*expected.axes, "value"]
    else:
        assert header[1:] == [str(j) for j in range(saved.shape[1])]


def test_sinusoidal_npy_equals_core(tmp_path, capsys):
    path = tmp_path / "pe.npy"
    code, _, err = run(
        capsys,
        "export",
        "sinusoidal",
        "-o",
        str(path),
        "--param",
        "seq_len=50",
        "--param",
        "d_model=13",
        "--param",
        "base=500",
    )
    assert code == 0, err
    np.testing.assert_array_equal(np.load(path), sinusoidal(50, 13, 500.0))


@pytest.mark.parametrize("causal", [True, False])
def test_alibi_npy_and_csv_equal_core(causal, tmp_path, capsys):
    args = ["--param", "seq_len=8", "--param", "heads=3", "--param", f"causal={causal}"]
    for ext in ("npy", "csv"):
        assert run(capsys, "export", "alibi", "-o", str(tmp_path / f"a.{ext}"), *args)[0] == 0
    expected = alibi_bias(8, 3, causal)
    saved = np.load(tmp_path / "a.npy")
    np.testing.assert_array_equal(saved, expected)
    assert np.isneginf(saved[:, 0, 1:]).all() == causal
    assert np.array_equal(read_csv(tmp_path / "a.csv", 3), expected)
    assert ("-inf" in (tmp_path / "a.csv").read_text()) == causal


def test_single_plot_exports(tmp_path, capsys, qapp):
    spec = get_view("sinusoidal")
    params = spec.model.validate({"seq_len": 40}, partial=True)
    data = spec.compute(params, exporting.context_for_size(800, 500))
    names, table = data.panel("waves").data_table()
    for ext in ("csv", "npy", "png", "svg"):
        exporting.export_view(
            "sinusoidal", params, tmp_path / f"w.{ext}", width=800, height=500, panel="waves"
        )
    np.testing.assert_array_equal(np.load(tmp_path / "w.npy"), table)
    assert np.array_equal(read_csv(tmp_path / "w.csv", 2), table, equal_nan=True)
    assert (
        next(csv.reader((tmp_path / "w.csv").read_text(encoding="utf-8").splitlines()))[1:] == names
    )
    image = png_image(tmp_path / "w.png")
    assert (image.width(), image.height()) == (800, 500)
    assert max(path_lengths(ET.parse(tmp_path / "w.svg").getroot())) >= 40
    # A text table has no numbers for NPY, but CSV keeps its cells.
    code, _, err = run(
        capsys, "export", "compare", "--panel", "table", "-o", str(tmp_path / "t.npy")
    )
    assert code == 2 and not (tmp_path / "t.npy").exists()
    assert_one_line_error(err, "table")
    assert (
        run(capsys, "export", "compare", "--panel", "table", "-o", str(tmp_path / "t.csv"))[0] == 0
    )
    assert "method" in (tmp_path / "t.csv").read_text(encoding="utf-8")


def test_png_scale_and_transparent(tmp_path, qapp):
    path = exporting.export_view(
        "rope", {}, tmp_path / "r.png", width=400, height=250, scale=2, transparent=True
    )
    px = rgba(png_image(path))
    assert px.shape[:2] == (500, 800)
    assert px[0, 0, 3] == 0 and (px[..., 3] == 255).sum() > 1000
    themed = rgba(
        png_image(exporting.export_view("rope", {}, tmp_path / "o.png", width=400, height=250))
    )
    assert (themed[..., 3] == 255).all()


# ----------------------------------------------------------------------- errors
ERRORS = [
    (["export", "nosuch", "-o", "{d}/x.png"], 2, "nosuch"),
    (["export", "sinusoidal", "-o", "{d}/x.png", "--param", "speed=3"], 2, "speed"),
    (["export", "sinusoidal", "-o", "{d}/x.npy", "--param", "seq_len=0"], 2, "seq_len"),
    (["export", "sinusoidal", "-o", "{d}/x.npy", "--param", "seq_len"], 2, "malformed"),
    (["export", "sinusoidal", "-o", "{d}/x.npy", "--param", "base=abc"], 2, "base"),
    (["export", "sinusoidal", "-o", "{d}/x.gif"], 2, ".gif"),
    (
        [
            "export",
            "sinusoidal",
            "-o",
            "{d}/x.npy",
            "--param",
            "seq_len=65536",
            "--param",
            "d_model=16384",
        ],
        2,
        "memory budget",
    ),
    (
        ["export", "alibi", "-o", "{d}/x.png", "--width", "30000", "--height", "30000"],
        2,
        "memory budget",
    ),
    (["export", "sinusoidal", "-o", "{d}/x.png", "--panel", "nope"], 2, "nope"),
    (["export", "sinusoidal", "-o", "{d}/x.png", "--width", "0"], 2, "width"),
    (["export", "sinusoidal", "-o", "{d}/x.svg", "--scale", "2"], 2, "scale"),
    (["export", "sinusoidal"], 2, "-o"),
    (["export", "-o", "{d}/x.png"], 2, "VIEW"),
    (["frobnicate"], 2, "frobnicate"),
    # a trailing slash names a folder: Path() dropped it and a file 'adir.png' was written
    (["export", "relative", "-o", "{d}/adir.png/"], 2, "adir.png/' ends with '/', so it names"),
    (["export", "relative", "-o", "{d}/adir.csv/"], 2, "give a file name ending in .png"),
    (["export", "relative", "--panel", "grid", "-o", "{d}/g.svg/"], 2, "names a folder"),
    (
        ["export", "rope", "--animate", "m=0:4", "--duration", "0.2", "-o", "{d}/a.gif/"],
        2,
        "animation output '{d}/a.gif/' ends with '/'",
    ),
    # a whole view's data is full resolution: --width was ignored (exit 0)
    (["export", "sinusoidal", "-o", "{d}/x.csv", "--width", "800"], 2, "--width and --height"),
    (["export", "alibi", "-o", "{d}/x.npy", "--height", "90"], 2, "do not apply to a view's NPY"),
    # an empty item of a list was dropped: '1,,2' drew dims 1 and 2 (exit 0)
    (
        ["export", "sinusoidal", "-o", "{d}/x.npy", "--param", "dims=1,,2"],
        2,
        "dims: empty item 2 in '1,,2'",
    ),
    (
        ["export", "sinusoidal", "-o", "{d}/x.npy", "--param", "dims=0,1,"],
        2,
        "empty item 3 in '0,1,'",
    ),
    (
        ["export", "rope", "-o", "{d}/x.npy", "--param", "mrope_section=16,,24,24"],
        2,
        "mrope_section: empty item 2",
    ),
    (["export", "sinusoidal", "-o", "{d}/missing/x.png"], 1, "missing"),
    (["export", "sinusoidal", "-o", "{d}/file.txt/x.npy"], 1, "file.txt"),
]


@pytest.mark.parametrize(("args", "code", "word"), ERRORS)
def test_errors_are_one_line(args, code, word, tmp_path, capsys):
    work = tmp_path / "work"
    work.mkdir()
    if "file.txt" in " ".join(args):
        (work / "file.txt").write_text("x")
    before = sorted(p.name for p in work.iterdir())
    result = run(capsys, *[a.format(d=work) for a in args])
    assert result[0] == code, result
    assert_one_line_error(result[2], word.format(d=work))
    assert sorted(p.name for p in work.iterdir()) == before  # nothing left behind


@pytest.mark.parametrize(
    ("given", "name"),
    [
        (["table_key=wpe.weight"], "table_key"),  # no table file: the name names nothing
        (["table_file={table}", "d_model=64"], "d_model"),  # the file sets the width
        (["table_file={table}", "seed=3"], "seed"),
    ],
)
def test_a_parameter_the_view_does_not_use_is_refused(tmp_path, capsys, given, name):
    # it was exported silently (exit 0) with the value doing nothing; the window greys
    # the field out, its tooltip giving the same reason
    from core.views import VIEWS

    table = tmp_path / "wpe.npy"
    np.save(table, np.ones((10, 4), dtype=np.float32))
    items = [g.format(table=table) for g in given]
    args = [a for item in items for a in ("--param", item)]
    code, _, err = run(capsys, "export", "learned", "-o", str(tmp_path / "x.npy"), *args)
    model = VIEWS["learned"].model
    values = model.validate(dict(i.split("=", 1) for i in items[:-1]), partial=True)
    why = model[name].unused_why(values)
    assert why in ("no table file is set", "the table file sets it")
    assert code == 2
    assert err == (
        f"error: {name}: not used now ({why}), so it has no effect; leave --param {name} out\n"
    )
    assert not (tmp_path / "x.npy").exists()
    # used: the same value goes through (seq_len is used with a file, d_model without one)
    other = "seq_len=20" if "table_file" in items[0] else "d_model=64"
    ok = run(capsys, "export", "learned", "-o", str(tmp_path / "x.npy"), "--param", other)
    assert ok[0] == 0, ok


def test_a_scenes_own_unused_values_are_not_refused(tmp_path, capsys):
    """A scene saved by the window holds every parameter, those a table file sets too."""
    table = tmp_path / "wpe.npy"
    np.save(table, np.arange(40, dtype=np.float32).reshape(10, 4))
    params = {"table_file": str(table), "max_positions": 64, "d_model": 32, "seq_len": 8}
    scene = tmp_path / "s.json"
    doc = {"format": "pe-studio-scene", "version": 1, "view": "learned", "params": params}
    scene.write_text(json.dumps(doc))
    code, _, err = run(capsys, "export", "--scene", str(scene), "-o", str(tmp_path / "x.npy"))
    assert code == 0, err
    assert np.load(tmp_path / "x.npy").shape[-1] == 4  # the file's width, not d_model 32


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores permissions")
def test_permission_denied(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        code, _, err = run(capsys, "export", "sinusoidal", "-o", str(locked / "x.npy"))
    finally:
        locked.chmod(0o700)
    assert code == 1
    assert_one_line_error(err, "permission")
    assert not list(locked.iterdir())


@pytest.mark.parametrize("name", ["view.png", "view.npy"])
def test_unwritable_folder_is_refused_before_computing(
    capsys, monkeypatch, unwritable_folder, name
):
    # as root os.access says /proc is writable: the view was computed and drawn first
    import gui.export.headless as headless

    computed = []
    monkeypatch.setattr(headless, "compute_view", lambda *a, **k: computed.append(a))
    monkeypatch.setattr(headless, "get_view", _spy_get_view(computed))
    target = unwritable_folder / name
    size = SMALL if name.endswith(".png") else []
    code, _, err = run(capsys, "export", "alibi", "-o", str(target), *size)
    assert code == 1
    assert_one_line_error(err, f"no file can be created in folder '{unwritable_folder}'")
    assert computed == [] and not target.exists()


def _spy_get_view(computed):
    """``get_view`` whose spec records a call of its ``export`` (a view's NPY data)."""
    from dataclasses import replace

    from core.views import get_view

    def spy(view_id):
        spec = get_view(view_id)
        return replace(spec, export=lambda values: computed.append(values))

    return spy


def test_failed_render_keeps_old_png(tmp_path, capsys, monkeypatch, qapp):
    from gui.render import snapshot as render_export

    target = tmp_path / "view.png"
    target.write_bytes(b"old image")

    def broken(*_a, **_k):
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr(render_export, "_paint_tree", broken)
    code, _, err = run(capsys, "export", "sinusoidal", "-o", str(target), *SMALL)
    assert code == 1
    assert_one_line_error(err, "renderer exploded")
    assert target.read_bytes() == b"old image"
    assert [p.name for p in tmp_path.iterdir()] == ["view.png"]


def test_failed_write_keeps_old_npy_then_replaces(tmp_path, capsys, monkeypatch):
    target = tmp_path / "pe.npy"
    target.write_bytes(b"old data")
    real_save = np.save

    def half_save(handle, array, allow_pickle=True):
        handle.write(b"\x93NUMPY partial")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "save", half_save)
    code, _, err = run(capsys, "export", "sinusoidal", "-o", str(target))
    assert code == 1
    assert_one_line_error(err, "no space")
    assert target.read_bytes() == b"old data"
    assert [p.name for p in tmp_path.iterdir()] == ["pe.npy"]
    monkeypatch.setattr(np, "save", real_save)
    assert run(capsys, "export", "sinusoidal", "-o", str(target))[0] == 0
    np.testing.assert_array_equal(np.load(target), sinusoidal(100, 32, 10000.0))


# ----------------------------------------------------------------------- commands
@pytest.mark.parametrize("command", [[], ["views"], ["export"], ["present"]])
def test_help(command, capsys):
    code, out, err = run(capsys, *command, "--help")
    assert code == 0 and "usage:" in out and not err


def test_views_listing(capsys):
    code, out, err = run(capsys, "views")
    assert code == 0 and not err
    for view_id in VIEW_IDS:
        spec = get_view(view_id)
        assert f"{view_id}: {spec.title}" in out
        assert spec.data_description in out
        for p in spec.model.params:
            assert re.search(rf"\b{p.name}\s+{p.kind}\s+default", out), p.name
            assert p.range_text() in out
    assert run(capsys, "views", "nosuch")[0] == 2


def test_scene_export(tmp_path, capsys, qapp):
    scenes = pytest.importorskip("core.scenes")
    path = tmp_path / "scene.json"
    params = get_view("alibi").model.validate(
        {"seq_len": 6, "heads": 2, "causal": False}, partial=True
    )
    scenes.save_scene(scenes.Scene("alibi", params, "Symmetric ALiBi", "note"), path)
    assert run(capsys, "export", "--scene", str(path), "-o", str(tmp_path / "s.npy"))[0] == 0
    np.testing.assert_array_equal(np.load(tmp_path / "s.npy"), alibi_bias(6, 2, False))
    assert (
        run(capsys, "export", "--scene", str(path), "-o", str(tmp_path / "s.png"), *SMALL)[0] == 0
    )
    code, _, err = run(
        capsys, "export", "--scene", str(tmp_path / "none.json"), "-o", str(tmp_path / "x.png")
    )
    assert code == 2
    assert_one_line_error(err, "none.json")
    bad = tmp_path / "bad.pe-scene.json"  # (a field's error named the field, not the file)
    bad.write_text(path.read_text().replace('"heads": 2', '"heads": "two"'))
    code, _, err = run(capsys, "export", "--scene", str(bad), "-o", str(tmp_path / "x.png"))
    assert code == 2
    assert_one_line_error(err, f"scene '{bad}': params.heads: expected an integer, got 'two'")
    code, _, err = run(
        capsys, "export", "--scene", str(tmp_path / "none.json"), "-o", str(tmp_path / "x.png")
    )
    assert_one_line_error(err, f"scene '{tmp_path / 'none.json'}': cannot read")
    # a Learned table the scene reads is named with the scene (the line named the file only)
    table = tmp_path / "wpe.npy"
    learned = get_view("learned").model.validate({"table_file": str(table)}, partial=True)
    scenes.save_scene(scenes.Scene("learned", learned, "GPT-2 rows", ""), path)
    code, _, err = run(capsys, "export", "--scene", str(path), "-o", str(tmp_path / "x.png"))
    assert code == 2
    assert err == (
        f"error: scene '{path}': params.table_file ('GPT-2 rows'): {table}: cannot read "
        "(No such file or directory)\n"
    )
    assert not (tmp_path / "x.png").exists()


# ----------------------------------------------------------------------- real processes
def _env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["PE_STUDIO_NO_SETTINGS"] = "1"
    return env


@pytest.mark.slow
def test_subprocess_export_without_display(tmp_path):
    png, npy = tmp_path / "s.png", tmp_path / "a.npy"
    for args in (
        ["export", "sinusoidal", "-o", str(png)],
        ["export", "alibi", "-o", str(npy), "--param", "seq_len=8", "--param", "causal=false"],
    ):
        done = subprocess.run(
            [sys.executable, "main.py", *args],
            cwd=REPO,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
    image = png_image(png)
    assert (image.width(), image.height()) == (1600, 1000)
    assert distinct_colours(rgba(image)) > 100
    np.testing.assert_array_equal(np.load(npy), alibi_bias(8, 8, False))


@pytest.mark.slow
def test_subprocess_views_needs_no_qt_and_errors_are_clean(tmp_path):
    code = (
        "import sys, main; rc = main.main(['views']); "
        "print('QT-LOADED' if 'PySide6' in sys.modules else 'NO-QT'); sys.exit(rc)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("NO-QT") and "sinusoidal" in done.stdout
    bad = subprocess.run(
        [
            sys.executable,
            "main.py",
            "export",
            "rope",
            "-o",
            str(tmp_path / "r.png"),
            "--param",
            "base=1",
        ],
        cwd=REPO,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert_one_line_error(bad.stderr, "base")
    assert not list(tmp_path.iterdir())


# ----------------------------------------------------------------------- window
def test_window_actions(window, tmp_path, monkeypatch, qtbot):
    from PySide6 import QtGui

    from gui.export import actions as ea

    errors: list[str] = []
    asked: list[str] = []
    monkeypatch.setattr(ea, "notify_error", lambda _w, message: errors.append(message))
    options = [
        ea.ExportOptions("png", 640, 400, scale=1.5),
        ea.ExportOptions("csv", 800, 500, panel="waves"),
        ea.ExportOptions("npy"),
    ]
    monkeypatch.setattr(ea, "ask_options", lambda *_a, **_k: options.pop(0))
    targets = [tmp_path / "view.png", tmp_path / "plot.csv"]

    def save_path(_parent, _title, suggested, _fmt):
        asked.append(suggested)
        return str(targets.pop(0))

    monkeypatch.setattr(ea, "ask_save_path", save_path)
    monkeypatch.setattr(ea, "ask_folder", lambda *_a: str(tmp_path / "all"))
    (tmp_path / "all").mkdir()
    actions = {a.objectName(): a for a in window.findChildren(QtGui.QAction)}
    assert actions["action-export-view"].shortcut().toString() == "Ctrl+E"
    assert actions["action-copy-image"].shortcut().toString() == "Ctrl+Shift+C"
    assert window.file_menu.actions()[-1].objectName() == "action-quit"
    assert window.current_view == "sinusoidal"
    window.states["sinusoidal"].set_param("seq_len", 30)
    assert window.wait_idle()

    actions["action-export-view"].trigger()
    image = png_image(tmp_path / "view.png")
    assert (image.width(), image.height()) == (960, 600)
    assert os.environ.get("PE_STUDIO_NO_SETTINGS") == "1"
    assert window.settings.get(ea.SETTINGS_KEY) == str(tmp_path)
    actions["action-export-plot"].trigger()  # second dialog starts in the remembered folder
    assert Path(asked[1]).parent == tmp_path and Path(asked[1]).name == "sinusoidal-waves.csv"
    data = get_view("sinusoidal").compute(
        window.states["sinusoidal"].values, exporting.context_for_size(800, 500)
    )
    table = data.panel("waves").data_table()[1]
    assert table.shape[0] == 30
    assert np.array_equal(read_csv(tmp_path / "plot.csv", 2), table, equal_nan=True)

    actions["action-export-all"].trigger()
    assert sorted(p.stem for p in (tmp_path / "all").iterdir()) == sorted(VIEW_IDS)
    np.testing.assert_array_equal(
        np.load(tmp_path / "all" / "sinusoidal.npy"), sinusoidal(30, 32, 10000.0)
    )
    actions["action-copy-image"].trigger()
    assert not QtGui.QGuiApplication.clipboard().image().isNull()
    assert errors == []


def test_export_dialog(qtbot):
    from gui.export.actions import ExportDialog, ExportOptions

    dialog = ExportDialog(
        None,
        "Export plot",
        ExportOptions(panel="heatmap"),
        [("waves", "Waves"), ("heatmap", "Heatmap")],
    )
    qtbot.addWidget(dialog)
    assert dialog.options() == ExportOptions(panel="heatmap")
    dialog.scale.setValue(2.0)
    assert dialog.size_note.text() == "Image: 3200 × 2000 pixels"
    dialog.format.setCurrentIndex(dialog.format.findData("svg"))
    assert not dialog.scale.isEnabled() and not dialog.transparent.isEnabled()
    options = dialog.options()
    assert (options.fmt, options.panel) == ("svg", "heatmap")
    assert options.export_kwargs()["scale"] is None
    sizes = (dialog.width_box, dialog.height_box)
    assert all(box.isEnabled() for box in sizes)  # an SVG's page size
    for fmt in ("csv", "npy"):  # a data file has none (the CLI refuses --width/--height)
        dialog.format.setCurrentIndex(dialog.format.findData(fmt))
        assert not any(box.isEnabled() for box in sizes), fmt
    dialog.format.setCurrentIndex(dialog.format.findData("png"))
    assert all(box.isEnabled() for box in sizes)


def test_a_typed_extension_of_an_offered_format_chooses_it(window, tmp_path, monkeypatch):
    """SVG chosen, ``win_sin.npy`` typed: NumPy data, not "not an image format: 'npy'";
    a name with no offered extension gets the chosen format's."""
    from gui.export import actions as ea

    errors: list[str] = []
    monkeypatch.setattr(ea, "notify_error", lambda _w, message: errors.append(message))
    monkeypatch.setattr(ea, "ask_options", lambda *_a, **_k: ea.ExportOptions("svg", 800, 500))
    targets = [tmp_path / "win_sin.npy", tmp_path / "win_sin.CSV", tmp_path / "win.sin"]
    monkeypatch.setattr(ea, "ask_save_path", lambda *_a: str(targets.pop(0)))
    export = next(a for a in window.actions() if a.objectName() == "action-export-view")
    window.states["sinusoidal"].set_param("seq_len", 30)
    assert window.wait_idle()
    for _ in range(3):
        export.trigger()
    assert errors == []
    np.testing.assert_array_equal(np.load(tmp_path / "win_sin.npy"), sinusoidal(30, 32, 10000.0))
    assert read_csv(tmp_path / "win_sin.CSV", 2).shape[0] == 30
    assert ET.parse(tmp_path / "win.sin.svg").getroot().tag.endswith("svg")
    assert not (tmp_path / "win.sin").exists()


@pytest.mark.parametrize("animate", [False, True])
def test_a_parameter_given_twice_is_refused(capsys, tmp_path, animate) -> None:
    """``--param seq_len=100 --param seq_len=5`` silently exported seq_len=5."""
    out = tmp_path / ("x.gif" if animate else "x.npy")
    extra = ["--animate", "base=100:1000"] if animate else []
    args = ["sinusoidal", "-o", str(out), "--param", "seq_len=100", "--param", " seq_len=5"]
    code, _out, err = run(capsys, "export", *args, *extra)
    assert code == 2 and err == "error: --param seq_len given more than once; give it once\n"
    assert not out.exists()
    if not animate:  # once each: written
        code, _out, err = run(capsys, "export", *args[:5], "--param", "d_model=16")
        assert (code, err) == (0, "") and np.load(out).shape == (100, 16)


def test_a_message_ending_in_a_quoted_value_keeps_its_closing_quote(capsys, tmp_path) -> None:
    """Stripping every quote at both ends of a message cut the closing one off:
    "error: pair: expected an integer, got 'abc" (CLI and window alike)."""
    from core.errors import unquoted, user_message
    from core.params import ParamError

    out = str(tmp_path / "x.png")
    code, _out, err = run(capsys, "export", "rope", "-o", out, "--param", "pair=abc")
    assert code == 2 and err == "error: pair: expected an integer, got 'abc'\n"
    code, _out, err = run(capsys, "export", "rope", "-o", out, "--panel", "nope")
    assert code == 2 and err.startswith("error: no panel 'nope' in view 'rope'; panels: ")
    assert user_message(ParamError("n", "got 'x'")) == "n: got 'x'"
    assert user_message(KeyError("unknown 'x'")) == "unknown 'x'"
    assert unquoted("'whole'") == "whole" and unquoted('"whole"') == "whole"
    assert unquoted("'a' or 'b'") == "'a' or 'b'"  # the quotes are not one pair round it


@pytest.mark.parametrize("view_id", ["rope", "compare"])
def test_a_small_view_export_is_the_default_layout_scaled_down(qapp, tmp_path, view_id) -> None:
    """A whole view exported at 640 x 360 (a GIF for a web page, a thumbnail) is laid out
    at 1280 x 720 and drawn scaled down: laid out at its size, RoPE's plots were squashed
    under titles and legends lying over each other. One plot alone keeps its size."""
    from PySide6 import QtCore

    from gui.export.headless import ImageExport, compute_view, context_for_size
    from gui.plotting.layout_check import layout_problems
    from gui.render import snapshot

    spec, size = get_view(view_id), (640, 360)
    view = compute_view(view_id, spec.model.defaults(), context_for_size(*size))
    export = ImageExport(spec, view, None, "png", size, size, False, None, None)
    try:
        snapshot.run_steps(export.steps())
        assert export.widget.size() == QtCore.QSize(1280, 720)
        assert (export.render.image.width(), export.render.image.height()) == size
        assert layout_problems(export.widget) == []
    finally:
        export.close()
    svg = tmp_path / "small.svg"
    exporting.export_view(view_id, {}, svg, width=640, height=360)
    head = svg.read_text(encoding="utf-8")[:400]
    assert 'width="640" height="360" viewBox="0 0 1280 720"' in head
    plot = view.panels[0]
    alone = ImageExport(spec, view, plot, "png", (400, 400), (400, 400), False, None, None)
    try:
        assert alone.widget.size() == QtCore.QSize(400, 400)
    finally:
        alone.close()


def test_arrows_plot_csv_names_each_arrow(tmp_path, qapp):
    """RoPE's plane exported as CSV had rows 0, 1, 2: which was q and which k was left
    to guess. Each row now names its arrow, as the plot labels it."""
    spec = get_view("rope")
    params = spec.model.validate({"m": 7, "n": 2}, partial=True)
    path = tmp_path / "plane.csv"
    exporting.export_view("rope", params, path, width=800, height=500, panel="plane")
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    assert rows[0] == ["arrow \\ coordinate", "x", "y"]
    names = [r[0] for r in rows[1:]]
    assert names == ["unrotated", "q (m=7)", "k (n=2)"]
    q = rows[2]
    assert float(q[1]) == pytest.approx(np.cos(7.0)) and float(q[2]) == pytest.approx(np.sin(7.0))
    exporting.export_view(
        "rope", params, tmp_path / "plane.npy", width=800, height=500, panel="plane"
    )
    assert np.load(tmp_path / "plane.npy").shape == (3, 2)  # (NPY: the numbers alone)
