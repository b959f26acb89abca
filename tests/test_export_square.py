"""The lecturer's "Square cells" choice reaches the window's image exports (issue 14)."""

import xml.etree.ElementTree as ET

import pytest
from PySide6 import QtGui
from tiers import FULL

from gui.export import actions as ea
from gui.export.headless import export_view
from gui.render import snapshot

NS = "{http://www.w3.org/2000/svg}"


def _cell_aspects(path) -> list[float]:
    """Width / height of one cell of each heatmap drawn as crisp cells, in drawing order."""
    root = ET.parse(path).getroot()
    aspects = []
    for parent in root.iter(f"{NS}g"):
        for group in parent:
            if group.get("shape-rendering") == "crispEdges":
                m = snapshot._matrix(parent.get("transform"))
                assert m is not None
                rect = group[0]
                w, h = float(rect.get("width")), float(rect.get("height"))
                aspects.append(abs(m[0] * w) / abs(m[3] * h))
    return aspects


def _export(window, monkeypatch, options, path) -> None:
    monkeypatch.setattr(ea, "ask_options", lambda *_a, **_k: options)
    monkeypatch.setattr(ea, "ask_save_path", lambda *_a: str(path))
    monkeypatch.setattr(ea, "notify_error", lambda _w, message: pytest.fail(message))
    actions = {a.objectName(): a for a in window.findChildren(QtGui.QAction)}
    name = "action-export-plot" if options.panel else "action-export-view"
    actions[name].trigger()
    assert path.exists()


@FULL
def test_window_exports_draw_the_cells_as_the_lecturer_chose(window, monkeypatch, tmp_path):
    window.set_view("relative")
    assert window.wait_idle()
    widget = window.view_widget("relative")
    widget.plots["grid"].set_square_cells(False)  # "Square cells" unticked in its menu
    plot_svg, view_svg = tmp_path / "grid.svg", tmp_path / "view.svg"
    _export(window, monkeypatch, ea.ExportOptions("svg", 500, 300, panel="grid"), plot_svg)
    (aspect,) = _cell_aspects(plot_svg)
    assert abs(aspect - 1.0) > 0.2  # fills the wide plot, as on screen
    _export(window, monkeypatch, ea.ExportOptions("svg", 1600, 600), view_svg)
    grid, shaw, t5 = _cell_aspects(view_svg)  # the three matrices of the first row
    assert abs(grid - 1.0) > 0.05
    assert abs(shaw - 1.0) < 0.01 and abs(t5 - 1.0) < 0.01  # untouched: automatic, square
    # a sweep's frames and an animation are drawn with it too
    frame = tmp_path / "frame.svg"
    params = window.states["relative"].values
    window.lecture.sweep.frame_writer("relative", params, frame, width=1600, height=600)
    assert _cell_aspects(frame) == pytest.approx([grid, shaw, t5], abs=0.01)
    import gui.app

    seen = []
    monkeypatch.setattr(gui.app, "export_animation", lambda *a, **k: seen.append(k))
    window.lecture.animation.writer("relative", params, "seq_len", 4, 8, "linear", "a.gif")
    assert seen[0]["renderer"].keywords["square_cells"] == {"grid": False}
    # headless, the same plot without the choice is square
    export_view("relative", {}, tmp_path / "auto.svg", panel="grid", width=500, height=300)
    (auto,) = _cell_aspects(tmp_path / "auto.svg")
    assert abs(auto - 1.0) < 0.01
