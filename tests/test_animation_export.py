"""``main.py export --animate`` (GIF, WebP, MP4) and ``export --deck … -o lecture.pdf``."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from interrupts import ctrl_c_swallowed
from tiers import FULL

from core.schedule import frame_count, frame_durations_ms, round_half_up, schedule, swept
from core.views import get_view
from gui import cli
from gui.export import animation
from gui.export.animation import Sweep, export_animation, parse_sweep

REPO = Path(__file__).resolve().parent.parent
QUICK_TOUR = REPO / "resources" / "decks" / "quick-tour.json"
SMALL = ["--width", "320", "--height", "180"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args), 0.0)
    out, err = capsys.readouterr()
    return code, out, err


# ----------------------------------------------------------------------- schedule
def test_linear_schedule_is_exact_and_includes_both_ends() -> None:
    assert schedule(0, 10, 6) == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    assert schedule(5, -1, 4) == [5.0, 3.0, 1.0, -1.0]
    assert schedule(3, 3, 3) == [3.0, 3.0, 3.0]
    assert schedule(7, 9, 1) == [7.0]


def test_geometric_schedule_has_equal_ratios() -> None:
    values = schedule(100, 100_000, 4, "geometric")
    assert values[0] == 100.0 and values[-1] == 100_000.0
    assert values == pytest.approx([100.0, 1000.0, 10_000.0, 100_000.0], rel=1e-12)
    with pytest.raises(ValueError, match="same sign and not 0"):
        schedule(0, 10, 4, "geometric")
    with pytest.raises(ValueError, match="unknown easing"):
        schedule(1, 2, 3, "cubic")


def test_integer_parameters_round_half_up() -> None:
    assert round_half_up([0.5, 1.5, 2.5, 2.49, -2.5]) == [1, 2, 3, 2, -3]
    spec = get_view("rope")
    sweep = parse_sweep("m=0:10", spec)
    assert animation.sweep_values(sweep, spec, 4) == [0, 3, 7, 10]  # 0, 3.33, 6.67, 10


def test_frame_count_and_gif_frame_durations() -> None:
    assert frame_count(4, 25) == 100
    assert frame_count(0.4, 10) == 4
    assert frame_durations_ms(4, 25) == [40, 40, 40, 40]
    assert frame_durations_ms(3, 30) == [30, 40, 30]  # 33.3 ms in 10 ms steps, no drift
    assert sum(frame_durations_ms(90, 30)) == 3000
    with pytest.raises(ValueError, match="duration"):
        frame_count(0, 25)


# ----------------------------------------------------------------------- frames (no Qt)
class _Recorder:
    """Frame renderer stand-in: records each frame's parameters, returns a plain image."""

    calls: list[dict[str, Any]]
    fail_at: int | None = None

    def __init__(self, spec: Any, layout: Any, pixels: tuple[int, int], *_: Any) -> None:
        self.pixels = pixels

    def render(self, values: Mapping[str, Any]) -> Any:
        from PIL import Image

        _Recorder.calls.append(dict(values))
        if len(_Recorder.calls) == _Recorder.fail_at:
            raise RuntimeError("renderer failed")
        shade = (len(_Recorder.calls) * 40) % 256
        return Image.new("RGB", self.pixels, (shade, 0, 255 - shade))

    def close(self) -> None:
        pass


def test_frames_are_the_exact_schedule(tmp_path: Path) -> None:
    _Recorder.calls, _Recorder.fail_at = [], None
    sweep = Sweep("base", 100.0, 100_000.0, "geometric")
    export_animation(
        "rope", {"m": 7}, sweep, tmp_path / "a.gif", duration=0.5, fps=10, renderer=_Recorder
    )
    # the schedule, to 4 significant digits (as the window's sweep sets it): 562.3, …
    want = swept(schedule(100, 100_000, 5, "geometric"), 100, 100_000, "geometric", 4)
    assert want[:2] == [100.0, 562.3] and want[-1] == 100_000.0
    assert [c["base"] for c in _Recorder.calls] == want
    assert {c["m"] for c in _Recorder.calls} == {7}  # the other parameters stay


@pytest.mark.parametrize("suffix", ["gif", "mp4"])
def test_failure_on_frame_3_leaves_no_file(tmp_path: Path, suffix: str) -> None:
    if suffix == "mp4":
        pytest.importorskip("av")
    _Recorder.calls, _Recorder.fail_at = [], 3
    target = tmp_path / f"out.{suffix}"
    with pytest.raises(RuntimeError, match="renderer failed"):
        export_animation(
            "rope", {}, Sweep("m", 0, 10), target, duration=0.6, fps=10, renderer=_Recorder
        )
    assert len(_Recorder.calls) == 3
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary part of it


def test_cancel_keeps_an_existing_file(tmp_path: Path) -> None:
    _Recorder.calls, _Recorder.fail_at = [], None
    target = tmp_path / "out.gif"
    target.write_bytes(b"old")

    def cancel(done: int, total: int) -> None:
        if done == 2:
            raise animation.Cancelled

    with pytest.raises(animation.Cancelled):
        export_animation(
            "rope",
            {},
            Sweep("m", 0, 10),
            target,
            duration=1,
            fps=10,
            renderer=_Recorder,
            progress=cancel,
        )
    assert [p.name for p in tmp_path.iterdir()] == ["out.gif"]
    assert target.read_bytes() == b"old"


class _SwallowingRenderer(_Recorder):
    """Like a Qt paint, which swallows (or crashes on) an exception raised inside it:
    Ctrl+C arrives while frame 2 is drawn."""

    swallowed: list[int]

    def render(self, values: Mapping[str, Any]) -> Any:
        image = super().render(values)
        if len(_Recorder.calls) == 2 and ctrl_c_swallowed():
            _SwallowingRenderer.swallowed.append(len(_Recorder.calls))
        return image


@pytest.mark.parametrize("suffix", ["gif", "mp4"])
def test_ctrl_c_while_a_frame_is_drawn_stops_after_it_with_no_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    suffix: str,
) -> None:
    if suffix == "mp4":
        pytest.importorskip("av")
    import functools
    import signal

    _Recorder.calls, _Recorder.fail_at, _SwallowingRenderer.swallowed = [], None, []
    real = animation.export_animation
    monkeypatch.setattr(
        animation, "export_animation", functools.partial(real, renderer=_SwallowingRenderer)
    )
    before = signal.getsignal(signal.SIGINT)
    out = tmp_path / f"out.{suffix}"
    code, _, err = run(
        capsys,
        "export",
        "rope",
        "--animate",
        "m=0:10",
        "--duration",
        "1",
        "--fps",
        "10",
        "-o",
        str(out),
        *SMALL,
    )
    assert _SwallowingRenderer.swallowed == []  # never raised inside the drawing
    assert code == 130
    assert err.splitlines()[-1] == "error: interrupted"
    assert len(_Recorder.calls) == 2  # it stopped after the frame being drawn
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary part of it
    assert signal.getsignal(signal.SIGINT) is before  # Ctrl+C is back to normal after


# ----------------------------------------------------------------------- CLI, real frames
@pytest.mark.parametrize("suffix", ["gif", "webp"])
def test_cli_animation_has_requested_frames_size_and_duration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    from PIL import Image

    out = tmp_path / f"rope.{suffix}"
    code, _, err = run(
        capsys,
        "export",
        "rope",
        "--animate",
        "base=100:100000",
        "--ease",
        "geometric",
        "--duration",
        "0.4",
        "--fps",
        "10",
        "-o",
        str(out),
        *SMALL,
    )
    assert code == 0, err
    assert err.splitlines() == [f"frame {i}/4" for i in range(1, 5)]
    with Image.open(out) as image:
        assert image.size == (320, 180)
        assert getattr(image, "n_frames", 1) == 4
        durations = []
        for k in range(4):
            image.seek(k)
            image.load()  # WebP sets the frame's duration when it decodes it
            durations.append(image.info["duration"])
    assert sum(durations) == 400


def test_cli_mp4_frames_and_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    av = pytest.importorskip("av")
    out = tmp_path / "rope.mp4"
    code, _, err = run(
        capsys,
        "export",
        "rope",
        "--animate",
        "m=0:30",
        "--duration",
        "0.4",
        "--fps",
        "10",
        "-o",
        str(out),
        *SMALL,
    )
    assert code == 0, err
    with av.open(str(out)) as container:
        stream = container.streams.video[0]
        frames = list(container.decode(stream))
        assert stream.average_rate == 10
    assert len(frames) == 4
    assert {(f.width, f.height) for f in frames} == {(320, 180)}
    assert len({bytes(f.to_ndarray().tobytes()) for f in frames}) == 4  # the arrow moves


def test_mp4_without_pyav_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "av", None)  # import av -> ImportError
    out = tmp_path / "rope.mp4"
    code, _, err = run(capsys, "export", "rope", "--animate", "m=0:3", "-o", str(out), *SMALL)
    assert code == 2
    assert len(err.splitlines()) == 1 and "pip install av" in err
    assert not out.exists()


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("nope=1:2", "nope"),
        ("m=a:5", "'a' is not a number"),
        ("m=5", "expected PARAM=START:END"),
        ("scaling=1:2", "not a number"),
        ("base=1:100", "base"),  # below the parameter's minimum 10
    ],
)
def test_bad_animate_spec_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, expected: str
) -> None:
    out = tmp_path / "x.gif"
    code, _, err = run(capsys, "export", "rope", "--animate", spec, "-o", str(out), *SMALL)
    assert code == 2
    assert len(err.splitlines()) == 1 and expected in err, err
    assert not out.exists()


def test_sweeping_a_parameter_the_view_does_not_use_is_refused_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Learned's d_model with a table file (the file sets the width): every frame was the
    same picture (exit 0). Refused before any frame, as the window's sweep refuses it."""
    table = tmp_path / "wpe.npy"
    np.save(table, np.ones((10, 4), dtype=np.float32))
    out = tmp_path / "x.gif"
    code, _, err = run(
        capsys,
        *("export", "learned", "--animate", "d_model=8:16", "-o", str(out), *SMALL),
        *("--param", f"table_file={table}"),
    )
    assert code == 2
    assert err == "error: d_model: not used now (the table file sets it); nothing to animate\n"
    assert "frame" not in err and not out.exists()


@pytest.mark.parametrize(("ext", "width"), [("mp4", 16386), ("webp", 16384)])
def test_frames_wider_than_the_encoder_takes_are_refused_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str, width: int
) -> None:
    """An MP4 wider than 16384 px ended in 'internal error (ExternalError: ...
    avcodec_open2("libx264" ...)' and exit 1; a WebP wider than 16383 px failed after
    rendering every frame. Now one line before any frame, exit 2."""
    out = tmp_path / f"x.{ext}"
    size = ("--width", str(width), "--height", "64", "--duration", "0.1", "--fps", "10")
    code, _, err = run(capsys, "export", "rope", "--animate", "m=0:3", "-o", str(out), *size)
    assert code == 2
    assert len(err.splitlines()) == 1 and f"pixels a side, got {width}x64" in err, err
    assert not out.exists()


def test_start_equal_to_end_is_allowed() -> None:
    spec = get_view("rope")
    assert parse_sweep("m=4:4", spec) == Sweep("m", 4.0, 4.0, "linear")
    assert animation.sweep_values(parse_sweep("m=4:4", spec), spec, 3) == [4, 4, 4]


# ----------------------------------------------------------------------- deck PDF
def _pdf_pages(path: Path) -> list[tuple[float, float]]:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    pages = re.findall(rb"/Type\s*/Page\b(?!s)", data)
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert len(boxes) == len(pages)
    return [(float(w), float(h)) for w, h in boxes]


@FULL
def test_deck_pdf_has_one_page_per_scene(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(QUICK_TOUR.read_text(encoding="utf-8"))
    data["scenes"] = data["scenes"][:3]
    deck = tmp_path / "three.json"
    deck.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "lecture.pdf"
    code, _, err = run(capsys, "export", "--deck", str(deck), "-o", str(out), *SMALL)
    assert (code, err) == (0, "")
    assert _pdf_pages(out) == [(240.0, 135.0)] * 3  # 320 x 180 px at 96 px/inch
    handout = tmp_path / "handout.pdf"
    code, _, err = run(capsys, "export", "--deck", str(deck), "-o", str(handout), "--notes", *SMALL)
    assert (code, err) == (0, "")
    assert _pdf_pages(handout) == [(240.0, 189.0)] * 3  # + 40 % for the note
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "handout.pdf",
        "lecture.pdf",
        "three.json",
    ]


def test_notes_need_a_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "export", "--deck", str(QUICK_TOUR), "-o", str(tmp_path / "f"), "--notes"
    )
    assert code == 2 and "--notes applies to a PDF deck" in err


def test_missing_pillow_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL -> ImportError
    out = tmp_path / "rope.gif"
    code, _, err = run(capsys, "export", "rope", "--animate", "m=0:3", "-o", str(out), *SMALL)
    assert code == 2
    assert len(err.splitlines()) == 1 and "pip install Pillow" in err
    assert not out.exists()


def test_later_frames_look_like_the_single_image_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reused widget re-draws frame 4 as a fresh export of the same values draws it:
    the same data in every plot, at the same UI scale and size (a small frame is laid
    out as large as MIN_LAYOUT_FIT and drawn scaled down, as a small PNG is). Only the
    GIF palette differs, and the room of an axis whose labels were wider in an earlier
    frame: it stays, so the plots do not jitter (about 1.5 of 255 on average here)."""
    import numpy as np
    from PIL import Image
    from PySide6 import QtCore

    from gui.export.headless import ImageExport, compute_view, context_for_size
    from gui.render import snapshot

    size = ["--width", "640", "--height", "360"]
    gif, png = tmp_path / "a.gif", tmp_path / "m12.png"
    code, _, err = run(
        capsys,
        "export",
        "rope",
        "--animate",
        "m=0:12",
        "--duration",
        "0.4",
        "--fps",
        "10",
        "-o",
        str(gif),
        *size,
    )
    assert code == 0, err
    assert run(capsys, "export", "rope", "--param", "m=12", "-o", str(png), *size)[0] == 0
    with Image.open(gif) as image:
        image.seek(3)
        last = np.asarray(image.convert("RGB"), dtype=float)
    with Image.open(png) as image:
        single = np.asarray(image.convert("RGB"), dtype=float)
    assert np.abs(last - single).mean() < 2.5
    # the same, plot by plot: the frames' widget holds what a fresh export draws
    spec, layout = get_view("rope"), (640, 360)
    frames = animation.FrameRenderer(spec, layout, layout)
    fresh = None
    try:
        for m in (0, 4, 8, 12):
            frames.render({**spec.model.defaults(), "m": m})
        view = compute_view("rope", {**spec.model.defaults(), "m": 12}, context_for_size(*layout))
        fresh = ImageExport(spec, view, None, "png", layout, layout, False, None, None)
        snapshot.run_steps(fresh.steps())
        assert frames.widget.size() == fresh.widget.size() == QtCore.QSize(1280, 720)
        for key, plot in fresh.widget.plots.items():
            reused = frames.widget.plots[key]
            assert reused.plot.titleLabel.text == plot.plot.titleLabel.text, key
            now, then = reused.plotted_arrays(), plot.plotted_arrays()
            assert now.keys() == then.keys(), key
            # (values: to rounding; a frame may reuse a table an earlier one computed)
            assert all(np.allclose(now[k], then[k], atol=1e-9, equal_nan=True) for k in now), key
    finally:
        frames.close()
        if fresh is not None:
            fresh.close()


def test_pdf_scene_the_view_refuses_still_gets_its_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gui.export import deck as deck_module

    real = deck_module.compute_view

    def refusing(view_id: str, values: dict[str, Any], context: Any) -> Any:
        if values.get("seq_len") == 80:
            raise ValueError("position 64 is out of range: this table has 64 rows")
        return real(view_id, values, context)

    monkeypatch.setattr(deck_module, "compute_view", refusing)
    scenes = [
        {"view": "learned", "title": "Fits", "params": {"seq_len": 32}},
        {"view": "learned", "title": "Past the end", "params": {"seq_len": 80}},
    ]
    deck = tmp_path / "deck.json"
    deck.write_text(
        json.dumps({"format": "pe-studio-deck", "version": 1, "scenes": scenes}), encoding="utf-8"
    )
    out = tmp_path / "lecture.pdf"
    code, _, err = run(capsys, "export", "--deck", str(deck), "-o", str(out), *SMALL)
    assert (code, err) == (0, "")
    assert len(_pdf_pages(out)) == 2


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["rope", "--fps", "10", "-o", "x.png"], "--fps applies to --animate only"),
        (["rope", "--notes", "-o", "x.png"], "--notes applies to a PDF deck"),
        (["--deck", str(QUICK_TOUR), "--animate", "m=0:3", "-o", "x.pdf"], "--animate"),
        (["rope", "--animate", "m=0:4", "--transparent", "-o", "x.gif"], "--transparent"),
    ],
)
def test_options_that_do_not_fit_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], expected: str
) -> None:
    args = [str(tmp_path / a) if a.startswith("x.") else a for a in args]
    code, _, err = run(capsys, "export", *args)
    assert code == 2 and len(err.splitlines()) == 1 and expected in err, err
    assert list(tmp_path.iterdir()) == []
