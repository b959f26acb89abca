"""Functional tests of :class:`gui.window.engine.UpdateEngine` (no timing assertions).

Coalescing (latest parameters win), dropping of superseded results, one-line failure
messages, and the memory budget on large requests.
"""

from __future__ import annotations

import threading
import time
import tracemalloc
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

import gui.window.engine
from core.memory import MemoryBudgetError
from core.params import ParamError
from core.viewdata import ComputeContext, ViewData
from core.views import VIEW_IDS, get_view
from gui.window.engine import UpdateEngine, error_text

TIMEOUT_S = 20.0


def _wait(predicate: Any, qtbot: Any, timeout_s: float = TIMEOUT_S) -> None:
    """Process Qt events until ``predicate()`` is true (fails the test otherwise)."""
    qtbot.waitUntil(lambda: bool(predicate()), timeout=int(timeout_s * 1000))


def _params(view_id: str, **changes: Any) -> dict[str, Any]:
    model = get_view(view_id).model
    return model.validate({**model.defaults(), **changes})


@pytest.fixture
def engine(qtbot):
    """A bare engine whose ready/failed signals are recorded."""
    eng = UpdateEngine(lambda: ComputeContext(max_cells=64, max_points=256))
    eng.received = []  # type: ignore[attr-defined]
    eng.failures = []  # type: ignore[attr-defined]
    eng.ready.connect(lambda v, g, d: eng.received.append((v, g, d)))
    eng.failed.connect(lambda v, g, m: eng.failures.append((v, g, m)))
    yield eng
    eng.stop()


def test_coalescing_delivers_latest_params(engine, qtbot, monkeypatch):
    real = gui.window.engine.compute_view

    def slow(view_id: str, params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
        time.sleep(0.02)
        return real(view_id, params, ctx)

    monkeypatch.setattr(gui.window.engine, "compute_view", slow)
    gens = [engine.request("sinusoidal", _params("sinusoidal", seq_len=10 + i)) for i in range(100)]
    _wait(lambda: any(g == gens[-1] for _v, g, _d in engine.received), qtbot)
    qtbot.wait(50)  # nothing else may arrive afterwards
    assert engine.received[-1][1] == gens[-1]
    assert engine.received[-1][2].params["seq_len"] == 109
    assert engine.computed_count < 100
    # Every delivered result was current when emitted: generations strictly increase.
    delivered = [g for _v, g, _d in engine.received]
    assert delivered == sorted(set(delivered))


def test_window_draws_latest_of_rapid_changes(window, monkeypatch):
    real = gui.window.engine.compute_view

    def slow(view_id: str, params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
        time.sleep(0.01)
        return real(view_id, params, ctx)

    monkeypatch.setattr(gui.window.engine, "compute_view", slow)
    before = window.engine.computed_count
    state = window.states[window.current_view]
    for i in range(100):
        assert state.set_param("seq_len", 20 + i)
    assert window.wait_idle(TIMEOUT_S)
    drawn = window.views[window.current_view].data
    assert drawn.params == state.values
    assert drawn.params["seq_len"] == 119
    assert window.engine.computed_count - before < 100


def test_superseded_result_never_reaches_view(window, qtbot, monkeypatch):
    vid = window.current_view
    widget = window.views[vid]
    real = gui.window.engine.compute_view
    started, release = threading.Event(), threading.Event()
    drawn: list[dict[str, Any]] = []
    widget.rendered.connect(lambda: drawn.append(widget.data.params))

    def gated(view_id: str, params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
        if params["seq_len"] == 77:  # generation 1: blocks until generation 2 is queued
            started.set()
            assert release.wait(TIMEOUT_S)
        return real(view_id, params, ctx)

    monkeypatch.setattr(gui.window.engine, "compute_view", gated)
    state = window.states[vid]
    state.set_param("seq_len", 77)
    assert started.wait(TIMEOUT_S)
    state.set_param("seq_len", 88)  # queued while generation 1 is computing
    release.set()
    assert window.wait_idle(TIMEOUT_S)
    qtbot.wait(50)
    assert widget.data.params["seq_len"] == 88
    assert all(p["seq_len"] != 77 for p in drawn), "superseded result was drawn"


def test_superseded_result_is_dropped_by_engine(engine, qtbot, monkeypatch):
    started, release = threading.Event(), threading.Event()
    real = gui.window.engine.compute_view

    def gated(view_id: str, params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
        if params["seq_len"] == 5:
            started.set()
            assert release.wait(TIMEOUT_S)
        return real(view_id, params, ctx)

    monkeypatch.setattr(gui.window.engine, "compute_view", gated)
    g1 = engine.request("alibi", _params("alibi", seq_len=5))
    assert started.wait(TIMEOUT_S)
    g2 = engine.request("alibi", _params("alibi", seq_len=6))
    release.set()
    _wait(lambda: any(g == g2 for _v, g, _d in engine.received), qtbot)
    qtbot.wait(50)
    assert [g for _v, g, _d in engine.received] == [g2]
    assert g1 < g2
    assert engine.computed_count == 2  # computed, but the stale result was discarded


def test_requests_for_different_views_are_independent(engine, qtbot):
    ga = engine.request("alibi", _params("alibi", seq_len=9))
    gs = engine.request("sinusoidal", _params("sinusoidal", seq_len=9))
    _wait(lambda: {g for _v, g, _d in engine.received} == {ga, gs}, qtbot)
    assert {v for v, _g, _d in engine.received} == {"alibi", "sinusoidal"}


@pytest.mark.parametrize(
    "exc",
    [
        ParamError("seq_len", "must be ≥ 1"),
        MemoryBudgetError("ALiBi bias (8×9×9) would need 2 GiB, over the budget\nsecond line"),
        RuntimeError("boom\nTraceback line"),
    ],
)
def test_failures_are_one_line_messages(engine, qtbot, monkeypatch, capsys, exc):
    def broken(view_id: str, params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
        raise exc

    monkeypatch.setattr(gui.window.engine, "compute_view", broken)
    gen = engine.request("alibi", _params("alibi"))
    _wait(lambda: engine.failures, qtbot)
    view_id, g, message = engine.failures[0]
    assert (view_id, g) == ("alibi", gen)
    assert message and "\n" not in message
    assert message == error_text(exc)
    assert not engine.received
    if isinstance(exc, RuntimeError):
        assert message.startswith("internal error (RuntimeError")


def test_stale_failure_is_not_reported(engine, qtbot, monkeypatch):
    started, release = threading.Event(), threading.Event()
    real = gui.window.engine.compute_view

    def fails_first(view_id: str, params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
        if params["seq_len"] == 5:
            started.set()
            assert release.wait(TIMEOUT_S)
            raise ValueError("stale failure")
        return real(view_id, params, ctx)

    monkeypatch.setattr(gui.window.engine, "compute_view", fails_first)
    engine.request("alibi", _params("alibi", seq_len=5))
    assert started.wait(TIMEOUT_S)
    g2 = engine.request("alibi", _params("alibi", seq_len=6))
    release.set()
    _wait(lambda: engine.received, qtbot)
    qtbot.wait(50)
    assert not engine.failures
    assert engine.received[-1][1] == g2


def test_window_shows_failure_in_banner(window, monkeypatch):
    def broken(view_id: str, params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
        raise MemoryBudgetError("too big for the budget\nextra")

    monkeypatch.setattr(gui.window.engine, "compute_view", broken)
    vid = window.current_view
    previous = window.views[vid].data
    window.states[vid].set_param("seq_len", 33)
    assert window.wait_idle(TIMEOUT_S)
    widget = window.views[vid]
    assert widget.banner.isVisible()
    assert widget.banner.text() == "⚠ too big for the budget"
    assert widget.data is previous  # the last good plots stay


LARGE = {"seq_len": 16384, "d_model": 4096, "heads": 32, "head_dim": 128, "max_positions": 8192}


@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_large_view_data_is_bounded_by_context(view_id):
    spec = get_view(view_id)
    params = spec.model.defaults()
    for name, value in LARGE.items():
        if name in params:
            maximum = spec.model[name].maximum
            params[name] = int(min(value, maximum)) if maximum is not None else value
    if "max_positions" in params:
        params["seq_len"] = min(params["seq_len"], params["max_positions"])
    ctx = ComputeContext(max_cells=256, max_points=1024)
    params = spec.model.validate(params)
    data = spec.compute(params, ctx)
    for panel in data.panels:
        if panel.image is not None:
            assert max(panel.image.shape) <= ctx.max_cells, (panel.key, panel.image.shape)
        # Curves over positions/offsets are sampled (offset curves: up to 2·max_points − 1);
        # the sinusoidal wavelength scatter has one point per sin/cos pair (d_model / 2).
        limit = 2 * ctx.max_points
        if panel.key == "wavelength":
            limit = max(limit, params["d_model"] // 2)
        for s in panel.series:
            assert len(s.y) <= limit, (panel.key, s.name, len(s.y))


def test_alibi_export_over_budget_raises_before_allocating():
    spec = get_view("alibi")
    params = _params("alibi", seq_len=16384, heads=32)
    tracemalloc.start()
    try:
        with pytest.raises(MemoryBudgetError) as info:
            spec.export(params)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20, f"allocated {peak} bytes before refusing"
    assert "\n" not in str(info.value)
    assert "budget" in str(info.value)


def test_engine_reports_budget_error_for_large_export(engine, qtbot, monkeypatch):
    def export_instead(view_id: str, params: Mapping[str, Any], ctx: ComputeContext) -> Any:
        return get_view(view_id).export(params)

    monkeypatch.setattr(gui.window.engine, "compute_view", export_instead)
    tracemalloc.start()
    try:
        engine.request("alibi", _params("alibi", seq_len=16384, heads=32))
        _wait(lambda: engine.failures, qtbot)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20
    assert "memory budget" in engine.failures[0][2]
    assert not engine.received
    assert np.isfinite(peak)


def test_python_cycles_are_freed_on_the_gui_thread(qtbot):
    """Cyclic garbage (e.g. Qt items of a rebuilt plot) is never freed on the worker."""
    import gc
    import threading

    from core.views import VIEWS
    from gui.window.engine import UpdateEngine

    engine = UpdateEngine()
    try:
        assert not gc.isenabled()
        freed_on = []

        class Node:
            def __del__(self) -> None:
                freed_on.append(threading.get_ident())

        node = Node()
        node.me = node  # a cycle: only the cycle collector frees it
        del node
        for seed in range(20):  # the worker allocates plenty meanwhile
            engine.request("learned", {**VIEWS["learned"].model.defaults(), "seed": seed})
        junk = [[] for _ in range(5000)]  # generation 0 over its threshold (kept alive:
        qtbot.waitUntil(lambda: bool(freed_on), timeout=5000)  # freeing lowers the count)
        assert freed_on == [threading.main_thread().ident]
        assert len(junk) == 5000
    finally:
        engine.stop()


# ----------------------------------------------------------------------- context, idle
def test_resize_recomputes_with_the_new_context(window, qtbot):
    """Each request carries the plot size; resizing the window resamples the view shown."""
    state = window.states["sinusoidal"]
    assert state.set_param("seq_len", 2000)  # longer than any plot is wide: sampled
    assert window.wait_idle(TIMEOUT_S)
    widget = window.views["sinusoidal"]

    def samples(ctx: ComputeContext | None = None) -> tuple[int, ...]:
        data = widget.data if ctx is None else get_view("sinusoidal").compute(state.values, ctx)
        return data.panel("similarity").image.shape

    before = window.shown_context("sinusoidal")
    assert before is not None and before == window.compute_context()
    assert samples() == samples(before)
    window.resize(1000, 800)
    qtbot.waitUntil(
        lambda: window.shown_context("sinusoidal").max_cells < before.max_cells,
        timeout=int(TIMEOUT_S * 1000),
    )
    after = window.shown_context("sinusoidal")
    assert after == window.compute_context()  # sized for the plot area now shown
    assert samples() == samples(after) and samples()[0] < samples(before)[0] < 2000
    assert widget.data.params == state.values  # same parameters, new sampling


def test_hidden_view_is_resampled_when_shown(window, qtbot):
    """A view hidden during a resize is recomputed for the new size when it is shown."""
    window.view_widget("learned")
    assert window.wait_idle(TIMEOUT_S)
    old = window.shown_context("learned")
    window.resize(900, 800)
    qtbot.waitUntil(lambda: window.compute_context() != old, timeout=int(TIMEOUT_S * 1000))
    assert window.wait_idle(TIMEOUT_S)
    assert window.shown_context("learned") == old  # hidden: nothing computed for it yet
    window.set_view("learned")
    assert window.wait_idle(TIMEOUT_S)
    assert window.shown_context("learned") == window.compute_context()


def test_wait_idle_returns_with_an_error_on_a_hidden_view(window):
    """A failed hidden view counts as settled: wait_idle returns True (its banner is not
    visible on a page that is not shown), and its error stays out of the status bar."""
    assert window.current_view == "sinusoidal"
    window.view_widget("relative")
    assert window.wait_idle(TIMEOUT_S)
    window.statusBar().clearMessage()
    assert window.states["relative"].set_param("max_distance", 2)  # valid alone, not drawable
    assert window.wait_idle(TIMEOUT_S)
    assert window.idle() and window.engine.idle()
    assert "max_distance" in window.view_error("relative")
    assert not window.views["relative"].banner.isVisible()  # hidden page
    assert "max_distance" in window.views["relative"].error
    assert "max_distance" not in window.statusBar().currentMessage()
    window.set_view("relative")
    assert window.views["relative"].banner.isVisible()


def test_a_view_drawn_again_keeps_the_newest_problem_on_its_banner(window):
    """The last good plots drawn again (a rebuild in other columns, a theme applied
    while the view was hidden) keep the newest request's problem on the banner; it went
    when the Relative view, failed while hidden, was shown and re-flowed its grid. New
    data clears it."""
    widget = window.views[window.current_view]
    good = widget.data
    assert good is not None
    widget.show_error("max_distance must be at least num_buckets // 2")
    widget.show_data(good)  # the same data again
    assert not widget.banner.isHidden() and "max_distance" in widget.banner.text()
    window.states[window.current_view].set_param("seq_len", 64)
    assert window.wait_idle(TIMEOUT_S)
    assert widget.data is not good and widget.banner.isHidden()


def test_spare_cores_leaves_one_for_the_gui(monkeypatch):
    for cores, spare in ((1, 1), (2, 1), (8, 7)):
        monkeypatch.setattr(
            gui.window.engine.os, "sched_getaffinity", lambda _p, n=cores: set(range(n))
        )
        assert gui.window.engine.spare_cores() == spare


def test_worker_caps_blas_threads_at_the_spare_cores(qtbot):
    """numpy's BLAS runs on all cores but the GUI thread's once an engine computes."""
    from threadpoolctl import threadpool_info, threadpool_limits

    blas = [i for i in threadpool_info() if i["user_api"] == "blas"]
    if not blas:
        pytest.skip("numpy without a BLAS library threadpoolctl controls")
    threadpool_limits(limits=gui.window.engine.spare_cores() + 1, user_api="blas")
    eng = UpdateEngine(lambda: ComputeContext(max_cells=64, max_points=256))
    try:
        done: list[Any] = []
        eng.ready.connect(lambda v, g, d: done.append(d))
        eng.request("sinusoidal", _params("sinusoidal"))
        _wait(lambda: done, qtbot)
    finally:
        eng.stop()
    threads = {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}
    assert threads == {gui.window.engine.spare_cores()}
