"""The window's animation export (issue 15 item 4): MP4/GIF/WebP at the requested size
with the Animation box's schedule, a progress bar, and a Cancel that leaves no file."""

from __future__ import annotations

import pytest
from PIL import Image
from tiers import gate_cover

from core.schedule import schedule
from gui.lecture.animate_dialog import AnimationExportDialog


def _clock_sweep(window, start=0.0, end=6.0):
    window.set_view("clock")
    sweep = window.lecture.sweep
    sweep.configure(param="shift", start=start, end=end, ease="linear", mode="loop")
    return sweep


def test_gif_has_the_requested_frames_size_and_schedule(window, tmp_path, monkeypatch):
    _clock_sweep(window)
    drawn: list[float] = []
    from gui.export import animation

    original = animation.FrameRenderer.render

    def render(self, values):
        drawn.append(values["shift"])
        return original(self, values)

    monkeypatch.setattr(animation.FrameRenderer, "render", render)
    done: list[tuple[int, int]] = []
    labels: list[str] = []
    export = window.lecture.animation
    export.frame_done.connect(lambda a, b: done.append((a, b)))
    export.frame_done.connect(lambda a, b: labels.append(export.progress.labelText()))
    path = tmp_path / "clock.gif"
    # big enough for plots: at 160x90 the formula fills the stage, the frames are equal and
    # Pillow merges equal GIF frames into one
    out = window.lecture.animation.export(path, width=480, height=270, duration=0.4, fps=10)
    assert out == path
    with Image.open(path) as gif:
        assert gif.n_frames == 4 and gif.size == (480, 270)
        total = 0
        for i in range(gif.n_frames):
            gif.seek(i)
            total += gif.info["duration"]
        assert total == 400
    assert drawn == schedule(0.0, 6.0, 4)  # the Animation box's sweep, once
    assert done == [(1, 4), (2, 4), (3, 4), (4, 4)]
    # the parameter as the panel labels it ("… frames of shift…" read as a typo)
    assert set(labels) == {"Drawing and encoding 4 frames of Shift both by s…"}
    assert window.lecture.animation.progress is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clock.gif"]


@pytest.mark.parametrize("suffix", gate_cover([".mp4", ".webp"], keep=(".webp",)))
def test_cancel_leaves_no_file(window, tmp_path, suffix):
    if suffix == ".mp4":
        pytest.importorskip("av")
    _clock_sweep(window)
    export = window.lecture.animation

    def cancel_at_two(done, _total):
        if done == 2:
            export.progress.cancel()  # what the progress dialog's Cancel does

    export.frame_done.connect(cancel_at_two)
    path = tmp_path / f"clock{suffix}"
    assert export.export(path, width=160, height=90, duration=0.5, fps=10) is None
    assert list(tmp_path.iterdir()) == []  # no partial file, no temporary file
    assert "cancelled" in window.statusBar().currentMessage()
    existing = tmp_path / f"old{suffix}"
    existing.write_bytes(b"keep me")
    assert export.export(existing, width=160, height=90, duration=0.5, fps=10) is None
    assert existing.read_bytes() == b"keep me"  # an existing file stays as it was
    assert [p.name for p in tmp_path.iterdir()] == [existing.name]


def test_bad_requests_are_one_line(window, tmp_path):
    _clock_sweep(window)
    export = window.lecture.animation
    with pytest.raises(ValueError, match=r"\.gif, \.webp or \.mp4"):
        export.export(tmp_path / "clock.png", width=160, height=90, duration=0.2, fps=10)
    # a name typed with a trailing slash means a folder (a file 'clock.gif' was written)
    with pytest.raises(ValueError, match=r"clock\.gif/' ends with '/', so it names a folder"):
        export.export(f"{tmp_path}/clock.gif/", width=160, height=90, duration=0.2, fps=10)
    with pytest.raises(ValueError, match="even"):
        pytest.importorskip("av")
        export.export(tmp_path / "clock.mp4", width=161, height=90, duration=0.2, fps=10)
    assert list(tmp_path.iterdir()) == []


def test_dialog_defaults_and_format_switch(window, qtbot):
    dialog = AnimationExportDialog(window, "/tmp/x/clock-shift.mp4", 3.5)
    qtbot.addWidget(dialog)
    values = dialog.values()
    assert (values["width"], values["height"], values["duration"], values["fps"]) == (
        1920,
        1080,
        3.5,
        25,
    )
    dialog.format_combo.setCurrentIndex(dialog.format_combo.findData("gif"))
    assert dialog.values()["path"] == "/tmp/x/clock-shift.gif"


def test_a_typed_suffix_chooses_the_format(window, qtbot):
    """Typing "anim.gif" left the format box at "MP4 video" (a GIF was written, as the
    name says): the typed suffix now chooses the format, and the name stays as typed."""
    dialog = AnimationExportDialog(window, "/tmp/x/rope-m.mp4", 2.0)
    qtbot.addWidget(dialog)
    dialog.path_edit.selectAll()
    qtbot.keyClicks(dialog.path_edit, "/tmp/x/anim.gif")
    assert dialog.format_combo.currentData() == "gif"
    assert dialog.values()["path"] == "/tmp/x/anim.gif"
    qtbot.keyClicks(dialog.path_edit, "x")  # "anim.gifx": no known suffix, the box stays
    assert dialog.format_combo.currentData() == "gif"
    dialog.path_edit.selectAll()
    qtbot.keyClicks(dialog.path_edit, "/tmp/x/anim.WebP")
    assert dialog.format_combo.currentData() == "webp"
    assert dialog.values()["path"] == "/tmp/x/anim.WebP"


def test_playing_names_the_parameter_by_its_label(window):
    """Space said "Animating shift: 0 → 6 …", the parameter's code name."""
    sweep = _clock_sweep(window)
    try:
        sweep.play()
        assert (
            window.statusBar().currentMessage().startswith("Animating Shift both by s: 0 → 6 in ")
        )
    finally:
        sweep.stop()


def test_playing_writes_a_swept_base_as_its_field_does(window):
    """Space on Sinusoidal (its default sweep: Base geometric 10000 → 10⁷) said
    "Animating Base: 10000 → 1e+07 in 4 s" in the live window, where the Base field
    writes 10000000: the ends read as the fields write them."""
    window.set_view("sinusoidal")
    sweep = window.lecture.sweep
    sweep.configure(param="base", start=10000.0, end=1e7, ease="geometric", mode="loop")
    try:
        sweep.play()
        message = window.statusBar().currentMessage()
        assert message.startswith("Animating Base: 10000 → 10000000 in "), message
        assert "e+" not in message
    finally:
        sweep.stop()
