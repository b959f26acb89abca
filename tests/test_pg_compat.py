"""pyqtgraph's internals the code relies on are where gui/render/pg_compat.py says.

An upgrade of pyqtgraph that renames or reshapes one of them fails here, naming it.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pyqtgraph as pg
import pytest

from gui.render import pg_compat
from gui.render.pg_compat import PRIVATE_MEMBERS, compat_problems

GUI = Path(__file__).resolve().parent.parent / "gui"
COMPAT = GUI / "render" / "pg_compat.py"


def test_every_member_the_code_uses_is_as_expected(qtbot):
    assert compat_problems() == []


def test_the_tables_cover_the_members_named_in_the_issue():
    private = {f"{owner}.{name}" for owner, names in PRIVATE_MEMBERS.items() for name in names}
    assert {
        "AxisItem._tickLevels",
        "AxisItem._updateMaxTextSize",
        "PlotCurveItem._boundsCache",
        "PlotCurveItem._exportOpts",
        "ImageItem._renderRequired",
        "ViewBox._itemBoundsCache",
    } <= private
    assert "AxisItem.generateDrawSpecs" in pg_compat.PORTED_SOURCES


# pyqtgraph's classes are patched only around compat_problems(), not for the rest of the
# test: pytest-qt processes the application's events after the test function returns and
# before fixtures are torn down, and a plot shown elsewhere in the worker (an earlier
# test's window) that repainted then ran the patched class (a removed
# AxisItem._updateMaxTextSize: "Exceptions caught in Qt event loop", a flaky failure
# under -n 2).
def test_a_removed_method_is_reported_by_name(qtbot, monkeypatch):
    with monkeypatch.context() as m:
        m.delattr(pg.AxisItem, "_updateMaxTextSize")
        problems = compat_problems()
    assert problems == ["AxisItem._updateMaxTextSize: missing"]


def test_renamed_parameters_are_reported(qtbot, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(pg.ViewBox, "itemBoundsChanged", lambda self, changed: None)
        problems = compat_problems()
    assert problems == ["ViewBox.itemBoundsChanged: parameters (changed), expected (item)"]


def test_an_attribute_missing_on_new_instances_is_reported(qtbot, monkeypatch):
    init = pg.ImageItem.__init__

    def without_flag(self, *args, **kwargs):
        init(self, *args, **kwargs)
        del self._unrenderable  # as if pyqtgraph had renamed it

    with monkeypatch.context() as m:
        m.setattr(pg.ImageItem, "__init__", without_flag)
        problems = compat_problems()
    assert problems == ["ImageItem._unrenderable: missing on a new ImageItem"]


def test_a_missing_option_key_is_reported(qtbot, monkeypatch):
    init = pg.PlotCurveItem.__init__

    def without_key(self, *args, **kwargs):
        init(self, *args, **kwargs)
        del self.opts["segmentedLineMode"]

    with monkeypatch.context() as m:
        m.setattr(pg.PlotCurveItem, "__init__", without_key)
        problems = compat_problems()
    assert problems == ["PlotCurveItem.opts: no key 'segmentedLineMode'"]


def test_a_changed_ported_function_is_reported(qtbot, monkeypatch):
    def tickValues(self, minVal, maxVal, size):  # pyqtgraph's parameter names
        return []

    with monkeypatch.context() as m:
        m.setattr(pg.AxisItem, "tickValues", tickValues)
        problems = compat_problems()
    assert len(problems) == 1
    assert problems[0].startswith("AxisItem.tickValues: source changed")
    assert "gui/render/fast_axis.py" in problems[0]  # where to port the change


def test_a_name_pyqtgraph_takes_over_is_reported(qtbot, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(pg.ImageItem, "_version", 3, raising=False)
        problems = compat_problems()
    assert problems == ["ImageItem._version: now used by pyqtgraph, and by fast_image"]


def _menu_texts(menu) -> list:
    """The texts of ``menu``'s actions, a submenu's as a nested list (what a right click
    shows, widgets in the menu left out)."""
    return [
        [a.text(), _menu_texts(a.menu())] if a.menu() is not None else a.text()
        for a in menu.actions()
    ]


def test_view_box_menus_are_built_on_first_use_and_the_same(qtbot):
    """A view box builds no menu until right-clicked (pyqtgraph builds one per view box,
    about a tenth of a window's build); the menu it then shows is pyqtgraph's own."""
    from pyqtgraph.graphicsItems.ViewBox.ViewBoxMenu import ViewBoxMenu

    from gui.render.view_box import PlotViewBox

    plot = pg.PlotItem(viewBox=PlotViewBox())
    view = plot.getViewBox()
    assert view.menu is None and view.menuEnabled()
    menu = view.getMenu(None)  # the right click
    assert isinstance(menu, ViewBoxMenu) and view.menu is menu
    assert view.getMenu(None) is menu  # built once
    assert view.getContextMenus(None) == menu.actions()  # right click on an item in it
    eager = ViewBoxMenu(pg.ViewBox())  # what pyqtgraph builds in ViewBox.__init__
    assert _menu_texts(menu) == _menu_texts(eager)
    assert "View All" in _menu_texts(menu)
    other = pg.ViewBox()
    other.setMenuEnabled(False)
    assert other.getMenu(None) is None and other.getContextMenus(None) == []
    other.setMenuEnabled(True)
    assert isinstance(other.getMenu(None), ViewBoxMenu)


def test_menu_entries_are_added_when_the_menu_is_built(qtbot):
    """extend_view_box_menu adds entries to a view box's menu when the right click builds
    it (once), or at once to a menu built already."""
    from gui.render.pg_compat import extend_view_box_menu

    view = pg.ViewBox()
    added: list = []

    def extend(menu) -> None:
        added.append(menu)
        menu.addAction("Extra")

    extend_view_box_menu(view, extend)
    assert view.menu is None and added == []  # nothing built for it
    menu = view.getMenu(None)
    assert added == [menu] and _menu_texts(menu)[-1] == "Extra"
    assert view.getMenu(None) is menu and added == [menu]  # once
    extend_view_box_menu(view, extend)  # built already: now
    assert added == [menu, menu] and _menu_texts(menu)[-2:] == ["Extra", "Extra"]


def test_a_view_box_building_its_menu_eagerly_again_is_reported(qtbot, monkeypatch):
    from pyqtgraph.graphicsItems.ViewBox.ViewBoxMenu import ViewBoxMenu

    with monkeypatch.context() as m:
        m.setattr(pg_compat._VIEW_BOX_MODULE, "ViewBoxMenu", ViewBoxMenu)
        problems = compat_problems()
    assert problems == ["ViewBox.menu: built in __init__ again; update defer_view_box_menus"]


def test_a_changed_replaced_view_box_method_is_reported(qtbot, monkeypatch):
    """pyqtgraph's own getMenu is fingerprinted, not the replacement installed here."""
    assert inspect.unwrap(pg.ViewBox.getMenu) is not pg.ViewBox.getMenu
    with monkeypatch.context() as m:
        m.setattr(pg.ViewBox.getMenu, "__wrapped__", lambda self, ev: self.menu)
        problems = compat_problems()
    assert len(problems) == 1 and problems[0].startswith("ViewBox.getMenu: source changed")


# ------------------------------------------------------------------ Plot Options menus
class _EagerPlot(pg.PlotItem):
    """A plot built by pyqtgraph's own ``PlotItem.__init__`` (its menu built at once)."""

    def __init__(self, **kwargs) -> None:
        pg_compat.PYQTGRAPH_PLOT_ITEM_INIT(self, **kwargs)


def _use(plot) -> list:
    """What the code and a user do with a plot's Plot Options before and after adding
    curves: pyqtgraph's setters, the controls themselves (values out of range, radio
    buttons of one group, groups), curves added after (which take the settings)."""
    first = plot.plot([1.0, 2.0, 3.0], [1.0, 10.0, 100.0])
    plot.showGrid(x=True, alpha=0.3)
    plot.showGrid(x=False, y=False)  # as the app's plots do: nothing changes
    plot.showGrid(y=True)
    plot.setLogMode(y=True)
    plot.setLogMode(x=False)
    plot.setDownsampling(ds=4, auto=True, mode="peak")
    plot.setDownsampling(mode="mean")
    plot.setDownsampling(mode="subsample")
    plot.ctrl.meanRadio.setChecked(True)
    plot.ctrl.meanRadio.setChecked(False)  # the checked radio button stays checked
    plot.setClipToView(True)
    plot.ctrl.alphaSlider.setValue(5000)  # beyond its maximum (1000)
    clamped = [plot.alphaState(), first.opts["alphaHint"]]
    plot.ctrl.alphaSlider.setValue(400)
    plot.ctrl.autoAlphaCheck.setChecked(True)
    plot.ctrl.autoAlphaCheck.setChecked(False)
    plot.ctrl.gridAlphaSlider.setValue(-3)  # below its minimum (0)
    clamped.append(plot.getAxis("bottom").grid)
    plot.ctrl.gridAlphaSlider.setValue(90)
    plot.ctrl.fftCheck.setChecked(False)
    plot.ctrl.pointsGroup.setChecked(False)
    second = plot.plot([0.0, 1.0, 2.0, 3.0], [5.0, 6.0, 7.0, 8.0])
    plot.ctrl.maxTracesCheck.setChecked(True)
    plot.ctrl.maxTracesSpin.setValue(1)  # only the newest curve shown
    curves = [
        (
            dict(
                (k, c.opts[k])
                for k in (
                    "logMode",
                    "downsample",
                    "autoDownsample",
                    "downsampleMethod",
                    "clipToView",
                    "alphaHint",
                    "alphaMode",
                    "fftMode",
                    "symbol",
                )
            ),
            c.isVisible(),
        )
        for c in (first, second)
    ]
    axes = [(name, plot.getAxis(name).grid, plot.getAxis(name).logMode) for name in plot.axes]
    return [
        clamped,
        curves,
        axes,
        plot.alphaState(),
        plot.downsampleMode(),
        plot.pointMode(),
        plot.clipToViewMode(),
    ]


def test_plot_options_are_built_on_first_use_and_behave_as_pyqtgraphs(qtbot):
    """A PlotItem builds no Plot Options menu until it is used; until then what
    pyqtgraph's methods set and read is kept by stand-ins, with the same effects on the
    plot, its axes and its curves as pyqtgraph's own form; built, the menu is the same
    as pyqtgraph's, set to that state, and drives the plot."""
    lazy, eager = pg.PlotItem(), _EagerPlot()
    assert not pg_compat.plot_menu_built(lazy) and pg_compat.plot_menu_built(eager)
    assert isinstance(lazy.ctrl, pg_compat.PlotControls)
    assert _use(lazy) == _use(eager)
    assert not pg_compat.plot_menu_built(lazy)  # none of that needed the menu
    held = lazy.ctrl.yGridCheck  # a stand-in kept across the build
    # the right click: the scene asks the view box's parents for their menus
    menu = lazy.getContextMenus(None)
    assert pg_compat.plot_menu_built(lazy) and isinstance(lazy.ctrl, type(eager.ctrl))
    assert menu is lazy.ctrlMenu and lazy.getContextMenus(None) is menu  # built once
    assert menu.title() == eager.ctrlMenu.title() == "Plot Options"
    assert _menu_texts(menu) == _menu_texts(eager.ctrlMenu)
    assert [a.text() for a in menu.actions()] == [
        "Transforms",
        "Downsample",
        "Average",
        "Alpha",
        "Grid",
        "Points",
    ]
    # the form shows the state set before it existed, and saves it as pyqtgraph's does
    state, expected = lazy.saveState(), eager.saveState()
    del state["view"], expected["view"]
    assert state == expected and state["meanRadio"] and state["gridAlphaSlider"] == 90
    # its controls drive the plot (grid, log mode), also through a stand-in held before
    for plot in (lazy, eager):
        plot.ctrl.xGridCheck.setChecked(True)
        plot.ctrl.logYCheck.setChecked(False)
    held.setChecked(False)
    eager.ctrl.yGridCheck.setChecked(False)
    assert held.isChecked() is False and lazy.ctrl.yGridCheck.isChecked() is False
    assert lazy.getAxis("bottom").grid == eager.getAxis("bottom").grid == 90
    assert lazy.getAxis("left").grid is eager.getAxis("left").grid is False
    assert lazy.curves[0].opts["logMode"] == [False, False]
    lazy.restoreState(eager.saveState())
    assert lazy.saveState()["xGridCheck"] is True


def test_a_plots_menu_is_built_by_what_the_stand_ins_do_not_keep(qtbot):
    """Anything else asked of the form (a signal, a widget the stand-ins do not keep)
    builds the real menu first; a closed plot's menu is gone, as pyqtgraph's."""
    plot = pg.PlotItem()
    plot.showGrid(x=True)
    signal = plot.ctrl.xGridCheck.toggled
    assert pg_compat.plot_menu_built(plot)
    seen: list = []
    signal.connect(seen.append)
    plot.showGrid(x=False)
    assert seen == [False] and plot.getAxis("bottom").grid is False
    other = pg.PlotItem()
    assert other.ctrl.transformGroup.isVisible() is False  # a group: the real widget
    assert pg_compat.plot_menu_built(other)
    averaged, eager = pg.PlotItem(), _EagerPlot()
    for each in (averaged, eager):  # a curve with parameters to average over
        each.plot([0.0, 1.0], [2.0, 3.0], params={"run": 1})
    assert pg_compat.plot_menu_built(averaged)
    assert (
        averaged.ctrl.avgParamList.item(0).text() == "run"
        and averaged.paramList == {"run": False} == eager.paramList
    )
    closing = pg.GraphicsLayoutWidget()
    qtbot.addWidget(closing)
    last = closing.addPlot()
    last.close()
    assert last.ctrlMenu is None and last.getMenu() is None


def test_a_plot_building_its_menu_eagerly_again_is_reported(qtbot, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(pg.PlotItem, "__init__", pg_compat.PYQTGRAPH_PLOT_ITEM_INIT)
        problems = compat_problems()
    assert problems == ["PlotItem.ctrlMenu: built in __init__ again; update defer_plot_menus"]


def test_a_renamed_plot_options_control_is_reported(qtbot, monkeypatch):
    defaults = dict(pg_compat.plot_menu_defaults())
    del defaults["maxTracesSpin"]
    monkeypatch.setattr(pg_compat, "_DEFAULTS", defaults)
    monkeypatch.setattr(pg_compat, "_FORM_NAMES", pg_compat._FORM_NAMES - {"gridGroup"})
    assert compat_problems() == [
        "PlotItem Plot Options: no control 'maxTracesSpin' (for updateDecimation)",
        "PlotItem Plot Options: no group 'gridGroup'",
    ]


# ------------------------------------------------------------------ source rules
def _gui_modules() -> list[Path]:
    return sorted(p for p in GUI.rglob("*.py") if p != COMPAT)


def _patchable_names() -> set[str]:
    """Methods of the pyqtgraph classes the app uses, and pyqtgraph's class names: what
    assigning on a foreign object would monkey-patch."""
    classes = (
        pg.AxisItem,
        pg.LabelItem,
        pg.PlotItem,
        pg.ViewBox,
        pg.ImageItem,
        pg.PlotCurveItem,
        pg.PlotDataItem,
        pg.ColorBarItem,
        pg.LegendItem,
        pg.TextItem,
    )
    names = {n for cls in classes for n, v in inspect.getmembers(cls) if callable(v)}
    names -= {n for n in names if n.startswith("__")}
    return names | {n for n in dir(pg) if n[:1].isupper() and inspect.isclass(getattr(pg, n))}


# Qt value types whose fields are set by assignment (not methods): a name bound to one
# of them may have ``.palette`` set (the notes line's QAbstractTextDocumentLayout.
# PaintContext, gui/render/math_text.py), which is no patch of a pyqtgraph method.
STRUCTS = {"PaintContext"}


def _structs(tree: ast.AST) -> set[str]:
    """Names bound to a new :data:`STRUCTS` value (``x = ...PaintContext()``)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in STRUCTS:
                out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return out


def _violations(source: str, private: set[str], patchable: set[str]) -> list[str]:
    out = []
    tree = ast.parse(source)
    structs = _structs(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private:
            out.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in private:
            out.append(f"{node.lineno}: overrides {node.name}")
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr in patchable
                    and not (
                        isinstance(target.value, ast.Name)
                        and (target.value.id == "self" or target.value.id in structs)
                    )
                ):
                    out.append(f"{target.lineno}: patches .{target.attr}")
    return out


def test_only_pg_compat_names_private_pyqtgraph_members():
    """No module but pg_compat names a member of PRIVATE_MEMBERS (read, write, call or
    override), and none replaces a pyqtgraph method on an object or a class in a
    pyqtgraph module (instance monkey-patches, module-global swaps)."""
    private = {name for names in PRIVATE_MEMBERS.values() for name in names}
    patchable = _patchable_names()
    found = {
        str(path.relative_to(GUI.parent)): v
        for path in _gui_modules()
        if (v := _violations(path.read_text(encoding="utf-8"), private, patchable))
    }
    assert found == {}


@pytest.mark.parametrize(
    "source,expected",
    [
        ("n = axis._tickLevels", ["1: ._tickLevels"]),
        (
            "class A:\n    def _updateMaxTextSize(self, x): pass",
            ["2: overrides _updateMaxTextSize"],
        ),
        ("label.updateGeometry = lambda: None", ["1: patches .updateGeometry"]),
        ("del label.updateGeometry", ["1: patches .updateGeometry"]),
        ("module.AxisItem = FastAxisItem", ["1: patches .AxisItem"]),
        ("self.plot = plot\nitem.colour = 3", []),
        ("label.palette = palette", ["1: patches .palette"]),
        ("c = QtGui.QAbstractTextDocumentLayout.PaintContext()\nc.palette = palette", []),
    ],
)
def test_the_source_rule_catches_what_it_forbids(source, expected):
    private = {name for names in PRIVATE_MEMBERS.values() for name in names}
    assert _violations(source, private, _patchable_names()) == expected


# ------------------------------------------------------------------ what replaced the patches
def _plot_with_title(qtbot):
    from gui.render.title_label import install_title_label

    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(500, 300)
    plot = win.addPlot()
    plot.setTitle("before", color="#cc0000", size="20pt")
    label = install_title_label(plot)
    win.show()
    pg.QtWidgets.QApplication.processEvents()
    return win, plot, label


def test_title_label_takes_the_place_of_pyqtgraphs(qtbot):
    from gui.render.title_label import MIN_WIDTH, TitleLabel, install_title_label

    win, plot, label = _plot_with_title(qtbot)
    assert isinstance(label, TitleLabel) and plot.titleLabel is label
    assert install_title_label(plot) is label  # once per plot
    titles = [i for i in win.scene().items() if isinstance(i, pg.LabelItem)]
    assert titles == [label]  # pyqtgraph's own left the scene
    assert label.isVisible() and label.text == "before"  # its title and style carried over
    assert label.item.toHtml().count("#cc0000") == 1 and "20pt" in label.item.toHtml()
    width = plot.width()
    plot.setTitle("a title far longer than the plot is wide " * 4, size="20pt")
    pg.QtWidgets.QApplication.processEvents()
    assert plot.width() == width  # a long title does not widen the plot
    assert label.minimumWidth() == MIN_WIDTH
    hint = label.sizeHint(pg.QtCore.Qt.SizeHint.PreferredSize)
    assert hint == pg.QtCore.QSizeF(MIN_WIDTH, label.itemRect().height())  # its height only


def test_title_text_changes_in_place_without_a_new_layout(qtbot):
    _win, plot, label = _plot_with_title(qtbot)
    plot.layout.activate()
    label.set_text_in_place("after, same style")
    assert label.text == label.item.toPlainText() == "after, same style"
    assert plot.layout.isActivated()  # the grid was not invalidated
    cursor = pg.QtGui.QTextCursor(label.item.document())
    cursor.movePosition(pg.QtGui.QTextCursor.MoveOperation.End)
    after = cursor.charFormat()
    assert after.foreground().color() == pg.QtGui.QColor("#cc0000")
    assert after.font().pointSizeF() == 20.0
    centre = label.mapRectToParent(label.itemRect()).center().x()
    assert abs(centre - label.geometry().center().x()) < 1.0  # centred again
    label.setText("through pyqtgraph")
    assert not plot.layout.isActivated()  # what set_text_in_place avoids


def test_title_changed_in_place_is_drawn_from_a_device_cache(qtbot):
    """Titles paint from a device cache (the view widget sets it on its texts); a text
    swapped in place in a box of the same size is drawn, not left blank (RoPE's plane
    title vanished from the 200 % stage after a few values of m)."""
    cache = pg.QtWidgets.QGraphicsItem.CacheMode
    win, plot, label = _plot_with_title(qtbot)
    label.setText("q: m·θ = 11 rad (atan2 +57.3°)")
    pg.QtWidgets.QApplication.processEvents()
    label.item.setCacheMode(cache.DeviceCoordinateCache)
    win.grab()  # the cache is filled
    box = label.itemRect()
    label.set_text_in_place("q: m·θ = 19 rad (atan2 +51.6°)")
    assert label.itemRect() == box  # (the case: same box, digits of one width)
    cached = win.grab().toImage()
    label.item.setCacheMode(cache.NoCache)
    assert win.grab().toImage() == cached


def test_wrapped_title_changes_in_place_while_its_lines_stay(qtbot):
    """A wrapped title whose new text takes as many lines is swapped in place (the
    grid stays laid out) and looks as ``setText`` draws it: same height, centred
    lines in the same style; a text of another number of lines re-fits the title row."""
    win, plot, label = _plot_with_title(qtbot)
    plot.setTitle("q: m·θ = 27 rad<br>(atan2 +107.3°)", color="#cc0000", size="20pt")
    pg.QtWidgets.QApplication.processEvents()
    plot.layout.activate()
    height, row = label.itemRect().height(), label.maximumHeight()
    label.set_text_in_place("q: m·θ = 512 rad<br>(atan2 −175.4°)")
    assert plot.layout.isActivated()  # the grid was not invalidated
    assert label.itemRect().height() == height and label.maximumHeight() == row
    assert label.text == "q: m·θ = 512 rad<br>(atan2 −175.4°)"
    assert label.item.toPlainText().split("\n") == ["q: m·θ = 512 rad", "(atan2 −175.4°)"]
    in_place = win.grab().toImage()
    label.setText(label.text)  # pyqtgraph's way, same style
    pg.QtWidgets.QApplication.processEvents()
    assert label.itemRect().height() == height
    assert win.grab().toImage() == in_place  # the same picture
    # a line wider than the lines before (laid out at their width, it wrapped there)
    # and one narrower: as setText draws them
    for text in ("q: m·θ = 5120000 rad<br>(atan2 −175.4°)", "q: m·θ = 5 rad<br>(atan2 −1°)"):
        label.set_text_in_place(text)
        assert label.item.toPlainText().split("\n") == text.split("<br>")
        assert label.item.textWidth() == label.item.document().idealWidth()
        in_place = win.grab().toImage()
        label.setText(text)
        pg.QtWidgets.QApplication.processEvents()
        assert win.grab().toImage() == in_place, text
    label.set_text_in_place("one<br>two<br>three lines")
    assert label.itemRect().height() > height  # another height: the row follows
    assert not plot.layout.isActivated()
    pg.QtWidgets.QApplication.processEvents()
    assert label.maximumHeight() >= label.itemRect().height()


def test_title_with_scripts_changes_in_place_as_set_text_draws_it(qtbot):
    """A title with sub- and superscripts (Sinusoidal's "… i = 10 … |x_i|² …" follows
    the query slider) swapped in place keeps its scripts and escaped characters and
    draws as ``setText`` does; the grid stays laid out."""
    win, plot, label = _plot_with_title(qtbot)
    plot.setTitle("query i = 9 &lt; j:<br>x<sub>i</sub> + p<sub>i</sub>", color="#cc0000")
    pg.QtWidgets.QApplication.processEvents()
    plot.layout.activate()
    text = "query i = 8 &lt; j:<br>x<sub>i</sub> + 2<sup>h</sup>"
    label.set_text_in_place(text)
    assert plot.layout.isActivated()  # the grid was not invalidated
    assert label.item.toPlainText().split("\n") == ["query i = 8 < j:", "xi + 2h"]
    in_place = win.grab().toImage()
    label.setText(text)  # pyqtgraph's way, same style
    pg.QtWidgets.QApplication.processEvents()
    assert win.grab().toImage() == in_place  # the same picture


def test_dying_label_answers_size_hints_and_ignores_resizes(qapp):
    """A LabelItem whose attributes the garbage collector already cleared (its Qt
    destructor still asks for size hints and sends resize events) answers an empty size
    and ignores the resize instead of raising; a live label is unaffected."""
    from PySide6 import QtCore

    live = pg.LabelItem("live")
    hint = QtCore.Qt.SizeHint.PreferredSize
    assert live.sizeHint(hint, QtCore.QSizeF()).width() > 0
    label = pg.LabelItem("x")
    label.__dict__.clear()  # what tp_clear does to a wrapper in a freed cycle
    assert label.sizeHint(hint, QtCore.QSizeF()) == QtCore.QSizeF(0, 0)
    label.resizeEvent(None)  # pyqtgraph's own would raise AttributeError on self.item
    emptied = pg.LabelItem("y")
    emptied.opts.clear()  # its options dict, freed in the same cycle, cleared first
    assert emptied.sizeHint(hint, QtCore.QSizeF()) == QtCore.QSizeF(0, 0)
    emptied.resizeEvent(None)  # pyqtgraph's own would raise KeyError: 'justify'
    guarded = pg.LabelItem.resizeEvent
    assert getattr(guarded, "_pe_guarded", False)
    pg_compat.guard_dying_labels()  # idempotent: not wrapped twice
    assert pg.LabelItem.resizeEvent is guarded


def test_an_axis_title_is_set_again_only_when_it_changes(qtbot, monkeypatch):
    """pyqtgraph re-set an axis title's HTML (parsed and laid out anew) on every pen or
    label change, seven times while building an axis with no title; it is set when it
    changes only, and shows what pyqtgraph shows."""
    from PySide6 import QtWidgets

    set_html: list[str] = []
    original = QtWidgets.QGraphicsTextItem.setHtml

    def counting(self, html: str) -> None:
        set_html.append(html)
        original(self, html)

    monkeypatch.setattr(QtWidgets.QGraphicsTextItem, "setHtml", counting)
    axis = pg.AxisItem("left")
    assert len(set_html) == 2  # no title, then its colour (the text pen's)
    axis.setPen(axis.pen())
    axis.setTextPen(axis.textPen())
    axis.setTickPen(axis.tickPen())
    axis.enableAutoSIPrefix(False)
    axis.showLabel(True)
    assert len(set_html) == 2
    axis.setLabel("time", units="s")
    assert len(set_html) == 3 and axis.label.toPlainText().strip() == "time (s)"
    axis.setLabel("time", units="s")
    assert len(set_html) == 3
    axis.setTextPen("r")  # the colour is in the HTML
    assert len(set_html) == 4 and set_html[-1] == axis.labelString()
    axis.setLabel("x")
    assert len(set_html) == 5 and axis.label.toPlainText().strip() == "x"


def test_plots_and_labels_answer_qts_bounding_rect_without_python(qtbot, monkeypatch):
    """Plots and labels (titles, legend entries) give Qt's QGraphicsWidget.boundingRect:
    the rect pyqtgraph's GraphicsWidget method computes, and Qt asking for it calls no
    Python for them (view boxes, which pad theirs, still do)."""
    from PySide6 import QtWidgets

    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(500, 300)
    plot = win.addPlot(title="a title")
    plot.addLegend()
    plot.plot([0.0, 1.0, 2.0], [1.0, 3.0, 2.0], name="first")
    plot.plot([0.0, 1.0, 2.0], [2.0, 0.0, 1.0], name="second")
    win.addLabel("a label", row=1, col=0)
    win.show()
    qtbot.waitExposed(win)
    widgets = [item for item in win.scene().items() if isinstance(item, pg.PlotItem | pg.LabelItem)]
    assert len(widgets) >= 5  # the plot, its title, two legend labels, the label
    pyqtgraphs = pg.GraphicsWidget.boundingRect
    for item in widgets:
        assert type(item).boundingRect is QtWidgets.QGraphicsWidget.boundingRect
        assert item.boundingRect() == pyqtgraphs(item)
        assert item.boundingRect() == item.rect()
    asked: list[str] = []

    def counted(self):
        asked.append(type(self).__name__)
        return pyqtgraphs(self)

    monkeypatch.setattr(pg.GraphicsWidget, "boundingRect", counted)
    win.viewport().repaint()
    win.scene().itemsBoundingRect()  # every item's bounding rect, asked by Qt
    assert "ViewBox" in asked and set(asked) == {"ViewBox"}
