"""Values the view could not be drawn with are not an undo step: Ctrl+Z goes back to
what was last drawn, not to a typo."""

from __future__ import annotations

import numpy as np


def test_undo_after_a_bad_then_good_table_file_goes_back_to_the_random_table(
    qapp, open_window, tmp_path
):
    """Live window, Learned: a lecturer typed a path that does not exist (Enter: "cannot
    read"), then the right one (a 128 x 16 table, drawn), then pressed Ctrl+Z to go back
    to the random table. The undo brought back the missing path instead: the error
    banner again, and the loaded 128 x 16 table still drawn under fields that said
    64 x 32. The failed path is now no step of its own: one Ctrl+Z draws the random
    table again."""
    good = tmp_path / "ok.npy"
    np.save(good, np.random.default_rng(0).standard_normal((128, 16)).astype(np.float32))
    with open_window(1600, 1000) as win:
        win.set_view("learned")
        state = win.states["learned"]
        assert win.wait_idle()
        widget = win.views["learned"]
        assert state.set_param("table_file", str(tmp_path / "missing.npy"), merge=False)
        assert win.wait_idle()
        assert widget.data is not None and "(64 × 32" in widget.data.panels[0].title
        assert state.set_param("table_file", str(good), merge=False)
        assert win.wait_idle()
        assert "(128 × 16" in widget.data.panels[0].title
        win.undo()
        assert win.wait_idle()
        assert state.values["table_file"] == ""
        assert "(64 × 32" in widget.data.panels[0].title
        # redo brings the good table back, not the missing file
        win.redo()
        assert win.wait_idle()
        assert state.values["table_file"] == str(good)


def test_fields_a_table_file_sets_are_live_while_no_file_loads(qapp, open_window, tmp_path):
    """Learned: with a table file loaded, "Table rows" and "Model width d" are greyed
    out and show the file's shape. A path that does not load (missing, or a text file
    named .npy) left them greyed although no file was in use; now they are live and
    show the values in use (64 × 32), greyed again when a good file is drawn, Ctrl+Z
    included, in the panel and the presentation strip."""
    from gui.lecture.stage_strip import StageControls

    good = tmp_path / "ok.npy"
    np.save(good, np.random.default_rng(0).standard_normal((128, 16)).astype(np.float32))
    bad = tmp_path / "text.npy"
    bad.write_text("not a table", encoding="utf-8")
    with open_window(1600, 1000) as win:
        win.set_view("learned")
        state = win.states["learned"]
        assert win.wait_idle()
        rows = win.panels["learned"].rows
        widget = win.views["learned"]

        def fields() -> dict[str, tuple[bool, int]]:
            return {
                name: (rows[name].editor.isEnabled(), rows[name].editor.value())
                for name in ("max_positions", "d_model", "seed")
            }

        live = {"max_positions": (True, 64), "d_model": (True, 32), "seed": (True, 0)}
        loaded = {"max_positions": (False, 128), "d_model": (False, 16), "seed": (False, 0)}
        assert fields() == live
        assert not rows["table_key"].editor.isEnabled()  # (no file: no tensor to name)

        def chosen(path: object) -> None:
            assert state.set_param("table_file", str(path), merge=False)
            assert win.wait_idle()

        chosen(tmp_path / "missing.npy")
        assert "cannot read" in widget.error
        assert fields() == live
        assert rows["table_key"].editor.isEnabled()
        chosen(good)
        assert widget.error == "" and fields() == loaded
        chosen(bad)
        assert widget.error and fields() == live
        win.undo()  # the failed path is no step: back to the good file
        assert win.wait_idle()
        assert state.values["table_file"] == str(good) and fields() == loaded
        chosen(tmp_path / "missing.npy")
        assert fields() == live
        # the presentation strip's cells follow the same rule
        win.lecture.display.enter_presentation(fullscreen=False)
        try:
            controls = win.feature(StageControls)
            controls.show_strip()
            assert win.wait_idle()
            cells = controls.strip.rows
            assert cells["max_positions"].editor.isEnabled()
            assert cells["max_positions"].editor.value() == 64
            win.undo()
            assert win.wait_idle()
            assert not cells["max_positions"].editor.isEnabled()
            assert cells["max_positions"].editor.value() == 128
        finally:
            win.lecture.display.leave_presentation()
        assert fields() == loaded
        win.undo()
        assert win.wait_idle()
        assert state.values["table_file"] == "" and fields() == live
