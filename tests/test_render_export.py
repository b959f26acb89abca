"""Tests for gui.render.snapshot: PNG/SVG rendering of pyqtgraph widgets."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtSvg, QtWidgets

from gui.render import snapshot as rx

SVG = "{http://www.w3.org/2000/svg}"
CURVE_COLORS = ["#ff0000", "#00c8ff", "#ffa000"]
X = np.linspace(0.0, 4.0 * np.pi, 200)
HEAT = np.outer(np.sin(np.arange(16) / 2.0), np.cos(np.arange(48) / 4.0))


def _rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))


def _pixels(image: QtGui.QImage) -> np.ndarray:
    """Return an (h, w, 4) RGBA uint8 copy of ``image``."""
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGBA8888)
    raw = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return raw[:, : image.width() * 4].reshape(image.height(), image.width(), 4).copy()


def _load(path: Path) -> np.ndarray:
    image = QtGui.QImage(str(path), "PNG")
    assert not image.isNull(), f"{path} does not decode as PNG"
    return _pixels(image)


def _count_color(px: np.ndarray, color: str, tol: int = 10) -> int:
    """Pixels whose red, green and blue are each within ``tol`` of ``color``'s."""
    # each channel compared in uint8 against its clipped range: the same count as the
    # absolute difference in int16, without converting the image (3200 x 2000: 6 M pixels)
    inside = None
    for channel, value in enumerate(_rgb(color)):
        lo, hi = max(value - tol, 0), min(value + tol, 255)
        plane = px[..., channel]
        near = (plane >= lo) & (plane <= hi)
        inside = near if inside is None else inside & near
    return int(np.count_nonzero(inside))


def _distinct_colors(px: np.ndarray) -> int:
    # one uint32 per RGBA pixel: the same count as unique rows, without a row sort
    return len(np.unique(np.ascontiguousarray(px).view(np.uint32)))


@pytest.fixture
def plots(qtbot) -> pg.GraphicsLayoutWidget:
    """Never-shown layout: 3 known curves above, a labelled heatmap below."""
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    curves = win.addPlot(title="Curves")
    for k, color in enumerate(CURVE_COLORS):
        curves.plot(X, np.sin((k + 1) * X), pen=pg.mkPen(color, width=2))
    curves.setLabel("left", "value")
    curves.setLabel("bottom", "position")
    win.nextRow()
    heat = win.addPlot()
    image = pg.ImageItem(HEAT)
    image.setColorMap(pg.colormap.get("viridis"))
    heat.addItem(image)
    heat.setLabel("left", "dimension")
    heat.setLabel("bottom", "token")
    win.resize(800, 500)
    return win


@pytest.mark.parametrize(
    ("kwargs", "size"),
    [
        ({"width": 1600, "height": 1000}, (1600, 1000)),
        ({"width": 400, "height": 300}, (400, 300)),
        ({"scale": 2}, (1600, 1000)),
        ({"width": 1200}, (1200, 750)),
        pytest.param({"width": 3200, "height": 2000}, (3200, 2000), marks=pytest.mark.slow),
    ],
)
def test_png_size_and_content(plots, tmp_path, kwargs, size):
    path = tmp_path / "plot.png"
    rx.render_png(plots, path, **kwargs)
    px = _load(path)
    assert (px.shape[1], px.shape[0]) == size
    assert _distinct_colors(px) > 100
    for color in CURVE_COLORS:
        assert _count_color(px, color) > 50, color
    assert (px[..., 3] == 255).all()  # opaque by default
    # Laid out at the export size: content reaches the right and bottom edges.
    w, h = size
    background = px[0, 0]
    assert (px[:, int(w * 0.9) :] != background).any(axis=-1).sum() > 20
    assert (px[int(h * 0.9) :, :] != background).any(axis=-1).sum() > 20
    assert plots.size() == QtCore.QSize(800, 500)  # on-screen size restored


def test_large_png_scales_text_and_cosmetic_pens(qtbot, tmp_path):
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    plot = win.addPlot()
    plot.plot([0.0, 1.0], [0.5, 0.5], pen=pg.mkPen("#ff0000", width=2))  # horizontal line
    plot.setLabel("bottom", "position")
    win.resize(400, 300)
    thickness = {}
    for scale in (1, 4):
        rx.render_png(win, tmp_path / f"s{scale}.png", scale=scale)
        column = _load(tmp_path / f"s{scale}.png")[:, 200 * scale]
        red = (column[:, 0] > 200) & (column[:, 1] < 60) & (column[:, 2] < 60)
        thickness[scale] = int(red.sum())
    assert thickness[1] >= 1
    assert 3 * thickness[1] <= thickness[4] <= 5 * thickness[1]


def test_transparent_png(plots, tmp_path):
    path = tmp_path / "transparent.png"
    rx.render_png(plots, path, width=800, height=500, transparent=True)
    px = _load(path)
    alpha = px[..., 3]
    assert alpha[0, 0] == 0 and alpha[-1, -1] == 0
    assert (alpha == 0).mean() > 0.3
    assert _count_color(px[alpha == 255][None], CURVE_COLORS[0]) > 50


def test_invalid_size_raises(plots, tmp_path):
    with pytest.raises(ValueError):
        rx.render_png(plots, tmp_path / "x.png", width=0, height=100)
    with pytest.raises(ValueError):
        rx.render_png(plots, tmp_path / "x.png", scale=-1)
    assert not list(tmp_path.iterdir())


def _svg_root(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def _curve_paths(root: ET.Element) -> dict[str, list[np.ndarray]]:
    """Map stroke colour -> list of (n, 2) point arrays of the paths drawn with it."""
    found: dict[str, list[np.ndarray]] = {}
    for group in root.iter(f"{SVG}g"):
        for child in group:
            if child.tag == f"{SVG}path":
                numbers = re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", child.get("d", ""))
            elif child.tag == f"{SVG}polyline":
                numbers = re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", child.get("points", ""))
            else:
                continue
            pts = np.array(numbers, float).reshape(-1, 2) if len(numbers) % 2 == 0 else None
            if pts is not None:
                found.setdefault(group.get("stroke", "").lower(), []).append(pts)
    return found


def _crisp_cells(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("shape-rendering") == "crispEdges"]


def test_svg_is_real_vector_output(plots, tmp_path):
    path = tmp_path / "plot.svg"
    rx.render_svg(plots, path, title="Encodings")
    root = _svg_root(path)
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height")) == ("800", "500")
    assert root.get("viewBox").split() == ["0", "0", "800", "500"]
    assert root.findtext(f"{SVG}title") == "Encodings"
    paths = _curve_paths(root)
    for color in CURVE_COLORS:  # each curve is one long vector path, not a bitmap
        longest = max(paths.get(color, [np.zeros((0, 2))]), key=len)
        assert len(longest) >= 150, color
        assert np.ptp(longest[:, 1]) > 0 and np.ptp(longest[:, 0]) > 0
    images = list(root.iter(f"{SVG}image"))
    cells = _crisp_cells(root)  # a small heatmap's cells as sharp rects (librsvg)
    assert len(images) + len(cells) == 1  # only the heatmap is a bitmap
    for image in images:
        assert image.get("{http://www.w3.org/1999/xlink}href").startswith("data:image/png;")
    texts = {"".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")}
    assert {"Curves", "value", "position", "dimension", "token"} <= texts
    assert {"0", "10", "-1", "1"} <= texts  # tick labels
    assert list(root.iter(f"{SVG}clipPath"))  # plot areas clip their content
    fonts = {t.get("font-family") for t in root.iter(f"{SVG}text")}
    assert all(f.endswith("sans-serif") for f in fonts)  # viewers without Qt's font alias
    assert plots.size() == QtCore.QSize(800, 500)


def test_svg_of_device_cached_items_is_still_vector(plots, tmp_path):
    """The app caches axes and text on screen; exports must not embed those pixmaps."""
    cache = QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
    cached = [
        i
        for i in plots.scene().items()
        if isinstance(i, (pg.AxisItem, QtWidgets.QGraphicsTextItem))
    ]
    for item in cached:
        item.setCacheMode(cache)
    plots.grab()  # fill the caches
    path = tmp_path / "cached.svg"
    rx.render_svg(plots, path)
    root = _svg_root(path)
    assert len(list(root.iter(f"{SVG}image"))) + len(_crisp_cells(root)) == 1  # the heatmap
    texts = {"".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")}
    assert {"Curves", "value", "0", "10", "-1", "1"} <= texts
    assert all(item.cacheMode() == cache for item in cached)  # restored for the screen


def test_svg_renders_back(plots, tmp_path):
    path = tmp_path / "plot.svg"
    rx.render_svg(plots, path, width=1000, height=400)
    root = _svg_root(path)
    assert (root.get("width"), root.get("height")) == ("1000", "400")
    renderer = QtSvg.QSvgRenderer(str(path))
    assert renderer.isValid()
    assert renderer.defaultSize() == QtCore.QSize(1000, 400)
    image = QtGui.QImage(1000, 400, QtGui.QImage.Format.Format_ARGB32)
    image.fill(QtCore.Qt.GlobalColor.white)
    painter = QtGui.QPainter(image)
    renderer.render(painter)
    painter.end()
    px = _pixels(image)
    assert _distinct_colors(px) > 50
    assert _count_color(px, CURVE_COLORS[0]) > 50
    assert (px[..., :3] == 0).all(axis=-1).mean() > 0.3  # black plot background
    assert plots.size() == QtCore.QSize(800, 500)


def test_composite_widget_never_shown(qtbot, tmp_path):
    top = QtWidgets.QWidget()
    qtbot.addWidget(top)
    layout = QtWidgets.QVBoxLayout(top)
    layout.addWidget(QtWidgets.QLabel("Composite header"))
    row = QtWidgets.QHBoxLayout()
    layout.addLayout(row)
    for color in CURVE_COLORS[:2]:
        view = pg.GraphicsLayoutWidget()
        view.addPlot().plot(X, np.cos(X), pen=pg.mkPen(color, width=2))
        row.addWidget(view)
    top.resize(900, 400)
    rx.render_png(top, tmp_path / "c.png", 1800, 800)
    px = _load(tmp_path / "c.png")
    assert px.shape[:2] == (800, 1800)
    assert _count_color(px[:, :900], CURVE_COLORS[0]) > 100
    assert _count_color(px[:, 900:], CURVE_COLORS[1]) > 100
    rx.render_svg(top, tmp_path / "c.svg")
    root = _svg_root(tmp_path / "c.svg")
    paths = _curve_paths(root)
    assert all(max(map(len, paths[c])) >= 150 for c in CURVE_COLORS[:2])
    assert "Composite header" in {"".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")}
    assert top.size() == QtCore.QSize(900, 400)


def test_bytes_and_clipboard(plots):
    data = rx.image_bytes_png(plots, 640, 400)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert QtGui.QImage.fromData(data, "PNG").size() == QtCore.QSize(640, 400)
    rx.copy_to_clipboard(plots)
    assert QtGui.QGuiApplication.clipboard().image().size() == QtCore.QSize(800, 500)


@pytest.mark.parametrize("render", [rx.render_png, rx.render_svg])
def test_unwritable_path_raises_oserror(plots, tmp_path, render):
    target = tmp_path / "missing-folder" / "plot.out"
    with pytest.raises(OSError, match="missing-folder") as raised:
        render(plots, target)
    # one path, then the reason: "[Errno 2] ...: '<the temporary file>'" followed it
    kind = "PNG image" if render is rx.render_png else "SVG image"
    assert str(raised.value) == f"cannot write {kind} to '{target}': No such file or directory"
    assert not list(tmp_path.rglob("*.part"))
    assert not target.exists()


@pytest.mark.parametrize("render", [rx.render_png, rx.render_svg])
def test_existing_file_replaced_atomically(plots, tmp_path, monkeypatch, render):
    target = tmp_path / "plot.out"
    target.write_bytes(b"old content")

    def failing_write(self, data):  # writes half of the file, then the disk is "full"
        with open(self, "wb") as handle:
            handle.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(Path, "write_bytes", failing_write)
        with pytest.raises(OSError, match="plot.out"):
            render(plots, target)
    assert target.read_bytes() == b"old content"

    with monkeypatch.context() as patch:
        patch.setattr(
            rx, "_paint_tree", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom"))
        )
        with pytest.raises(RuntimeError):
            render(plots, target)
    assert target.read_bytes() == b"old content"
    assert plots.size() == QtCore.QSize(800, 500)  # restored even after a failure

    render(plots, target)
    assert target.read_bytes()[:5] in (b"\x89PNG\r", b"<?xml")
    assert not list(tmp_path.rglob("*.part"))


def test_pyqtgraph_svgexporter_trap_is_avoided(qtbot, tmp_path):
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.plot(X, np.sin(X), pen=pg.mkPen(CURVE_COLORS[0], width=1))
    widget.resize(600, 400)
    import pyqtgraph.exporters  # noqa: F401

    exporter = pg.exporters.SVGExporter(widget.getPlotItem())
    try:
        exporter.export(str(tmp_path / "pyqtgraph.svg"))
    except ValueError:
        trap = True  # pyqtgraph 0.14 + Qt >= 6.10: closed paths ("Z") break correctCoordinates
    else:
        trap = False
    finally:
        exporter.setExportMode(False)
    rx.render_svg(widget, tmp_path / "ours.svg")
    paths = _curve_paths(_svg_root(tmp_path / "ours.svg"))
    assert max(map(len, paths[CURVE_COLORS[0]])) >= 150
    if not trap:
        pytest.skip("pyqtgraph's SVGExporter no longer fails; our export still works")


@pytest.mark.parametrize("kwargs", [{"width": 1600, "height": 1000}, {"scale": 2}])
def test_export_gives_axes_room_for_their_labels_and_title(qtbot, monkeypatch, kwargs):
    """``main.py export rope``: a never-shown view has its axes measure their labels
    before painting; ``0.0001`` went missing and the title ran into the labels."""
    from core.viewdata import ComputeContext
    from core.views import compute_view, get_view
    from gui.render.fast_axis import FastAxisItem
    from gui.widgets.view_widget import ViewWidget

    spec = get_view("rope")
    widget = ViewWidget(spec)
    qtbot.addWidget(widget)
    widget.resize(1600, 1000)
    widget.show_data(compute_view("rope", spec.model.defaults(), ComputeContext()))
    axis = widget.plots["frequencies"].plot.getAxis("left")
    painted: list[tuple] = []
    generate = FastAxisItem.generateDrawSpecs

    def recorded(self, p):
        specs = generate(self, p)
        if self is axis and specs is not None:
            margin = self.label.document().documentMargin()
            title = self.label.mapRectToParent(
                self.label.boundingRect().adjusted(margin, margin, -margin, -margin)
            )
            painted.append((specs[2], title))
        return specs

    monkeypatch.setattr(FastAxisItem, "generateDrawSpecs", recorded)
    rx.render_image(widget, **kwargs)
    texts, title = painted[-1]  # what the export painted last
    rects = {text: rect for rect, _flags, text in texts}
    assert {"1", "0.1", "0.01", "0.001", "0.0001"} <= set(rects)
    assert title.right() + axis.style["tickTextOffset"][0] <= min(r.left() for r in rects.values())
