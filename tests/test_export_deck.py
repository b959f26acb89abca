"""``main.py export --deck DECK -o FOLDER``: one image per scene, named by number and title."""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from interrupts import ctrl_c_swallowed
from tiers import FULL

from core.scenes import Deck, Scene, load_deck
from gui import cli
from gui.export.deck import slide_names, slugify

REPO = Path(__file__).resolve().parent.parent
QUICK_TOUR = REPO / "resources" / "decks" / "quick-tour.json"
SMALL = ["--width", "320", "--height", "200"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args), 0.0)
    out, err = capsys.readouterr()
    return code, out, err


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_quick_tour_writes_one_png_per_scene(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = load_deck(QUICK_TOUR)
    out = tmp_path / "slides"  # created by the export
    code, stdout, err = run(capsys, "export", "--deck", str(QUICK_TOUR), "-o", str(out), *SMALL)
    assert (code, err) == (0, "")
    files = sorted(out.iterdir())
    assert len(files) == len(deck.scenes) == 7
    assert [f.name for f in files] == [
        "01-sinusoidal.png",
        "02-learned.png",
        "03-rope.png",
        "04-alibi.png",
        "05-relative.png",
        "06-word-order.png",
        "07-compare.png",
    ]
    for path in files:
        assert png_size(path) == (320, 200)
    digests = {hashlib.sha256(f.read_bytes()).hexdigest() for f in files}
    assert len(digests) == len(files)  # every slide shows its own scene


@FULL
def test_svg_slides_carry_the_scene_titles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(QUICK_TOUR.read_text(encoding="utf-8"))
    data["scenes"] = data["scenes"][:2]
    data["scenes"][1]["title"] = "Learned: a table, not a formula"
    deck_file = tmp_path / "two.json"
    deck_file.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(
        capsys, "export", "--deck", str(deck_file), "-o", str(tmp_path), "--format", "svg", *SMALL
    )
    assert (code, err) == (0, "")
    names = sorted(p.name for p in tmp_path.glob("*.svg"))
    assert names == ["01-sinusoidal.svg", "02-learned-a-table-not-a-formula.svg"]
    text = (tmp_path / names[1]).read_text(encoding="utf-8")
    assert ET.fromstring(text).tag.endswith("svg")
    assert "Learned: a table, not a formula" in text


def _write(path: Path, content: object) -> Path:
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "invalid JSON at line 1"),
        ({"format": "pe-studio-deck", "version": 1, "scenes": []}, "at least one scene"),
        (
            {"format": "pe-studio-deck", "version": 1, "scenes": [{"view": "nope", "params": {}}]},
            "scenes[0].view",
        ),
        (
            {
                "format": "pe-studio-deck",
                "version": 1,
                "scenes": [{"view": "rope", "params": {}}, {"view": "rope", "params": {"m": -5}}],
            },
            "scenes[1].params.m",
        ),
        (None, "cannot read"),
    ],
)
def test_bad_deck_exits_2_with_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object, expected: str
) -> None:
    deck_file = tmp_path / "deck.json"
    if content is not None:
        _write(deck_file, content)
    out = tmp_path / "slides"
    code, stdout, err = run(capsys, "export", "--deck", str(deck_file), "-o", str(out), *SMALL)
    assert code == 2
    assert stdout == ""
    assert err.count("\n") == 1 and err.startswith(f"error: deck '{deck_file}': ")
    assert expected in err
    assert not out.exists()


@pytest.mark.parametrize(
    "extra",
    [
        ["rope"],
        ["--scene", "x.json"],
        ["--panel", "heatmap"],
        ["--param", "seq_len=8"],
    ],
)
def test_deck_conflicts_with_single_view_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    code, _, err = run(capsys, "export", *extra, "--deck", str(QUICK_TOUR), "-o", str(tmp_path))
    assert code == 2
    assert err.count("\n") == 1 and "--deck" in err
    assert list(tmp_path.iterdir()) == []


def test_format_without_deck_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "export", "rope", "-o", str(tmp_path / "r.png"), "--format", "svg")
    assert code == 2 and "--format applies to --deck" in err


def test_output_that_is_a_file_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = _write(tmp_path / "slides", "x")
    code, _, err = run(capsys, "export", "--deck", str(QUICK_TOUR), "-o", str(target), *SMALL)
    assert code == 1
    assert err.count("\n") == 1 and "not a folder" in err


def test_slide_names_number_in_deck_order_and_fall_back_to_the_view_id() -> None:
    scenes = tuple(Scene("rope", {}, f"Scene {k}") for k in range(1, 101))
    names = slide_names(Deck("big", scenes), "png")
    assert names[0] == "001-scene-1.png" and names[-1] == "100-scene-100.png"
    untitled = slide_names(Deck("", (Scene("alibi", {}, ""), Scene("rope", {}, "θ !"))), "svg")
    assert untitled == ["01-alibi.svg", "02-rope.svg"]


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("RoPE: position 5 vs 9", "rope-position-5-vs-9"),
        ("  Word order / ALiBi  ", "word-order-alibi"),
        ("Énergie à 10 000", "energie-a-10-000"),
        ("x" * 80, "x" * 60),
        ("θ", ""),
    ],
)
def test_slugify(title: str, slug: str) -> None:
    assert slugify(title) == slug


def test_scene_the_view_refuses_becomes_a_slide_showing_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scene whose view raises while computing (e.g. a limit shown on purpose) still
    gets its slide: title, the one-line problem in the warning banner, and the note."""
    from gui.export import deck as deck_module

    real_export = deck_module.export_view

    def refusing(view_id: str, params: dict[str, object], path: Path, **kw: object) -> Path:
        if kw.get("title") == "Past the end":
            raise ValueError("position 64 is out of range: this table has 64 rows")
        return real_export(view_id, params, path, **kw)

    monkeypatch.setattr(deck_module, "export_view", refusing)
    deck = {
        "format": "pe-studio-deck",
        "version": 1,
        "scenes": [
            {"view": "learned", "title": "Fits", "params": {"seq_len": 32}},
            {
                "view": "learned",
                "title": "Past the end",
                "note": "No row to look up.",
                "params": {"seq_len": 80},
            },
        ],
    }
    deck_file = _write(tmp_path / "deck.json", deck)
    out = tmp_path / "slides"
    code, _, err = run(
        capsys, "export", "--deck", str(deck_file), "-o", str(out), "--format", "svg", *SMALL
    )
    assert (code, err) == (0, "")
    assert sorted(p.name for p in out.iterdir()) == ["01-fits.svg", "02-past-the-end.svg"]
    text = (out / "02-past-the-end.svg").read_text(encoding="utf-8")
    assert "Past the end" in text
    assert "position 64 is out of range: this table has 64 rows" in text
    assert "No row to look up." in text
    assert "out of range" not in (out / "01-fits.svg").read_text(encoding="utf-8")


def _table_deck(tmp_path: Path, table: Path) -> Path:
    """A deck whose second scene reads the Learned table ``table``."""
    return _write(
        tmp_path / "deck.json",
        {
            "format": "pe-studio-deck",
            "version": 1,
            "scenes": [
                {"view": "relative", "title": "Course grid", "params": {}},
                {
                    "view": "learned",
                    "title": "GPT-2 positions",
                    "params": {"table_file": str(table), "seq_len": 16},
                },
            ],
        },
    )


@pytest.mark.parametrize("output", ["slides", "lecture.pdf"])
@pytest.mark.parametrize(
    ("content", "problem"),
    [(None, "cannot read (No such file or directory)"), (b"not an array", "wpe.npy: ")],
)
def test_scene_whose_table_file_is_missing_or_broken_fails_the_deck_export(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    output: str,
    content: bytes | None,
    problem: str,
) -> None:
    """The export has nobody to show the view's banner to: one line naming the scene and
    the file, exit 2, and nothing written (it used to write a banner slide and exit 0)."""
    table = tmp_path / "wpe.npy"
    if content is not None:
        table.write_bytes(content)
    deck_file = _table_deck(tmp_path, table)
    out = tmp_path / output
    code, stdout, err = run(capsys, "export", "--deck", str(deck_file), "-o", str(out), *SMALL)
    assert (code, stdout) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(
        f"error: deck '{deck_file}': scenes[1].params.table_file ('GPT-2 positions'): {table}"
    )
    assert problem in err
    assert not out.exists()


def test_scene_whose_table_file_loads_is_exported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import numpy as np

    table = tmp_path / "wpe.npy"
    np.save(table, np.arange(12 * 4, dtype=np.float32).reshape(12, 4))
    out = tmp_path / "slides"
    code, _, err = run(
        capsys, "export", "--deck", str(_table_deck(tmp_path, table)), "-o", str(out), *SMALL
    )
    assert (code, err) == (0, "")
    assert sorted(p.name for p in out.iterdir()) == ["01-course-grid.png", "02-gpt-2-positions.png"]


def test_pdf_path_ending_with_a_slash_is_refused(tmp_path: Path) -> None:
    """``export_deck_pdf`` wrote a file 'x.pdf' for 'x.pdf/' (a folder's name)."""
    from gui.export.deck import export_deck_pdf

    with pytest.raises(ValueError, match=r"x\.pdf/' ends with '/', so it names a folder"):
        export_deck_pdf(QUICK_TOUR, f"{tmp_path}/x.pdf/", width=320, height=200)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["slides.png", "slides.SVG", "slides.gif", "slides.npy"])
def test_deck_output_named_like_a_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """``-o slides.png`` made a folder 'slides.png' of slides and exited 0."""
    out = tmp_path / name
    code, stdout, err = run(capsys, "export", "--deck", str(QUICK_TOUR), "-o", str(out), *SMALL)
    assert (code, stdout) == (2, "")
    assert err == (
        f"error: deck output '{out}' names a .{out.suffix.lower()[1:]} file; a deck writes one "
        "image per scene into a folder (e.g. -o slides/) or one PDF (-o lecture.pdf)\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_deck_output_folder_with_a_suffix_is_taken_when_it_says_so(tmp_path: Path) -> None:
    """A trailing slash, or a folder that exists, is a folder whatever its name."""
    from gui.export.deck import _check_folder_name

    _check_folder_name(f"{tmp_path}/slides.png/")
    (tmp_path / "old.svg").mkdir()
    _check_folder_name(tmp_path / "old.svg")
    _check_folder_name(tmp_path / "slides.v2")  # not a suffix the app writes
    with pytest.raises(ValueError, match="names a .mp4 file"):
        _check_folder_name(tmp_path / "clip.mp4")


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 720)])
def test_a_slide_of_a_table_alone_fills_the_page_with_it(qapp, size) -> None:
    """The lecture's slide "All methods side by side" (Compare's table
    staged alone) drew the table at its full size: 40 % of a 1600 x 1000 page, the rest
    blank, its text the window's 10 pt where the stage showed it large. A table shown
    alone now grows into the room (up to twice its size), and is seen whole."""
    from gui.export.deck import SceneWidgets, scene_image_steps
    from gui.export.headless import export_ui_scale

    deck = load_deck(REPO / "resources" / "decks" / "lecture-positional-encoding.json")
    (scene,) = [s for s in deck.scenes if s.view_id == "compare" and list(s.panels) == ["table"]]
    kept = SceneWidgets()
    try:
        image = list(scene_image_steps(scene, *size, widgets=kept))[-1]
        assert (image.width(), image.height()) == size
        (widget,) = kept.widgets()
        plot = widget.plots["table"]
        full = 10 * export_ui_scale(*size)  # TABLE_PT at the export's UI scale (80 % at 1280)
        assert plot.table_text_pt() >= 1.5 * full
        drawn = plot.table.textItem.document().size().height()
        assert drawn <= plot.plot.getViewBox().height()  # whole, nothing cut
    finally:
        kept.clear()


# ----------------------------------------------------------------------- Ctrl+C
def _rope_deck(tmp_path: Path, count: int, title: str = "RoPE") -> Path:
    """A deck of ``count`` rope scenes titled ``<title> <k>``."""
    scenes = [{"view": "rope", "title": f"{title} {k}", "params": {}} for k in range(count)]
    deck = {"format": "pe-studio-deck", "version": 1, "scenes": scenes}
    return _write(tmp_path / f"{title.lower()}-{count}.json", deck)


class _Swallowed:
    """Ctrl+C arrives while the second scene is drawn, inside a drawing that swallows
    the ``KeyboardInterrupt`` (as a Qt paint did: pyqtgraph's "Ignored exception")."""

    def __init__(self, real: Any) -> None:
        self.real, self.calls, self.swallowed = real, 0, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        result = self.real(*args, **kwargs)
        if self.calls == 2 and ctrl_c_swallowed():
            self.swallowed += 1
        return result


@pytest.mark.parametrize("output", ["slides", "slides.pdf"])
def test_ctrl_c_while_a_scene_is_drawn_stops_after_it_and_writes_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    output: str,
) -> None:
    import signal

    from gui.export import deck as deck_module

    name = "_scene_pictures" if output.endswith(".pdf") else "export_view"
    drawing = _Swallowed(getattr(deck_module, name))
    monkeypatch.setattr(deck_module, name, drawing)
    deck_file = _rope_deck(tmp_path, 5)
    out = tmp_path / "out"
    out.mkdir()
    earlier = _write(out / "01-earlier.png", "earlier slide")
    before = signal.getsignal(signal.SIGINT)
    code, stdout, err = run(
        capsys, "export", "--deck", str(deck_file), "-o", str(out / output), *SMALL
    )
    assert drawing.swallowed == 0  # never raised inside the drawing
    assert (code, stdout, err) == (130, "", "error: interrupted\n")
    assert drawing.calls == 2  # it stopped after the scene being drawn
    assert list(out.iterdir()) == [earlier]  # no slide, PDF or temporary part of one
    assert earlier.read_text() == "earlier slide"
    assert signal.getsignal(signal.SIGINT) is before  # Ctrl+C is back to normal after


def test_ctrl_c_to_the_process_after_the_first_slide_leaves_the_folder_as_it_was(
    tmp_path: Path,
) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    deck_file = _rope_deck(tmp_path, 40)
    out = tmp_path / "slides"
    out.mkdir()
    earlier = {"01-old.png": b"old slide 1", "02-old.png": b"old slide 2", "notes.txt": b"n"}
    for file_name, data in earlier.items():
        (out / file_name).write_bytes(data)
    command = [sys.executable, "main.py", "export", "--deck", str(deck_file), "-o", str(out)]
    process = subprocess.Popen(
        [*command, *SMALL],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # (a shell's background job ignores SIGINT, and the export would inherit that)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        while process.poll() is None:  # until the first new slide is written
            if any(path.suffix == ".png" and path.name not in earlier for path in out.rglob("*")):
                break
            time.sleep(0.02)
        assert process.poll() is None, process.communicate()
        os.kill(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=300)  # (a hang guard, not a timing)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (process.returncode, stdout, stderr) == (130, b"", b"error: interrupted\n")
    assert {path.name: path.read_bytes() for path in out.iterdir()} == earlier


# ----------------------------------------------------------------------- export again
def test_exporting_again_into_the_folder_replaces_the_earlier_slides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SVG slides, then PNG slides of the same deck, then fewer slides of another deck
    into one folder: each export leaves its own slides and the lecturer's files only.
    (Decks of RoPE scenes, the cheapest to draw: the quick tour's 7 scenes, exported
    twice, drew 18 slides where 8 check the same.)"""
    out = tmp_path / "deck"
    three = _rope_deck(tmp_path, 3, "Earlier")
    code, _, err = run(
        capsys, "export", "--deck", str(three), "-o", str(out), "--format", "svg", *SMALL
    )
    assert (code, err) == (0, "")
    assert len(list(out.glob("*.svg"))) == 3
    code, _, err = run(capsys, "export", "--deck", str(three), "-o", str(out), *SMALL)
    assert (code, err) == (0, "")
    assert len(list(out.glob("*.png"))) == 3 and len(list(out.glob("*.svg"))) == 0
    mine = {"cover.png": b"my cover", "1-intro.png": b"mine", "readme.txt": b"about"}
    for file_name, data in mine.items():
        (out / file_name).write_bytes(data)
    two = _rope_deck(tmp_path, 2, "Again")
    code, _, err = run(capsys, "export", "--deck", str(two), "-o", str(out), *SMALL)
    assert (code, err) == (0, "")
    names = ["01-again-0.png", "02-again-1.png"]
    assert sorted(path.name for path in out.iterdir()) == sorted([*names, *mine])
    for file_name in names:
        assert png_size(out / file_name) == (320, 200)
    for file_name, data in mine.items():  # the lecturer's own files stay as they were
        assert (out / file_name).read_bytes() == data


@pytest.mark.parametrize(
    ("name", "slide"),
    [
        ("01-intro.png", True),
        ("007-rope-position-5.svg", True),
        ("1-intro.png", False),
        ("01-Intro.png", False),
        ("01-intro.jpg", False),
        ("01-.png", False),
        ("cover.png", False),
        ("01-intro.png.part", False),
    ],
)
def test_earlier_slides_are_the_files_named_like_slides(
    tmp_path: Path, name: str, slide: bool
) -> None:
    from gui.export.deck import earlier_slides

    (tmp_path / name).write_bytes(b"x")
    (tmp_path / "02-a-folder.png").mkdir()
    assert earlier_slides(tmp_path) == ([tmp_path / name] if slide else [])


def test_a_slide_that_cannot_be_written_is_named_as_the_user_gave_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from gui.export import deck as deck_module

    def full_disk(view_id: str, params: Any, path: Path, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(deck_module, "export_view", full_disk)
    out = tmp_path / "slides"
    code, _, err = run(capsys, "export", "--deck", str(QUICK_TOUR), "-o", str(out), *SMALL)
    assert code == 1
    slide = out / "01-sinusoidal.png"  # not the hidden folder the slides are drawn in
    assert err == f"error: cannot write '{slide}': No space left on device\n"
    assert not out.exists()  # the folder it made goes with the failed export
