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
