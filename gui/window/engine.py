"""Update engine: coalesced, off-GUI-thread recomputation of view data.

Slider drags produce many parameter changes per frame. :class:`UpdateEngine` keeps only
the latest request per view (latest value wins), computes on one worker thread, and
drops results of superseded requests, so the GUI thread only ever draws fresh data.
Each request carries the :class:`ComputeContext` it is computed with (the window passes
the plot size of the moment), so a resize is just another request.
"""

from __future__ import annotations

import os
import threading
import traceback
from collections.abc import Callable, Mapping
from typing import Any

from PySide6 import QtCore

from core.errors import user_message as error_text
from core.memory import MemoryBudgetError
from core.viewdata import ComputeContext
from core.views import compute_view
from gui import gui_gc


def spare_cores() -> int:
    """The CPU cores this process may use, less one for the GUI thread (at least 1)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # (macOS, Windows)
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def leave_a_core_to_the_gui() -> int:
    """Cap the BLAS thread pools (numpy's OpenBLAS) at :func:`spare_cores`; the cap.

    A matrix product on the worker (``PE @ PE.T``, a similarity grid) ran on as many
    BLAS threads as cores, and OpenBLAS' threads spin a while after each product: on a
    2-core machine they took the core the GUI thread draws and paints on, during every
    frame of a drag (``bench/frame_latency.py --only presentation``: the sinusoidal
    stage went from 9.4-9.8 to 8.3-8.7 ms a frame with one BLAS thread). Process-wide:
    the window's worker is the only user of numpy's BLAS while it runs.
    """
    from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]  # (5 ms, on the worker)

    cap = spare_cores()
    threadpool_limits(limits=cap, user_api="blas")
    return cap


class UpdateEngine(QtCore.QObject):
    """Coalescing background computation of :class:`ViewData`.

    Signals
    -------
    ready(str, int, object)
        ``(view_id, generation, ViewData)`` for the newest request of a view only.
    failed(str, int, str)
        ``(view_id, generation, message)``: the computation raised.
    """

    ready = QtCore.Signal(str, int, object)
    failed = QtCore.Signal(str, int, str)

    def __init__(
        self,
        context: Callable[[], ComputeContext] | None = None,
        parent: QtCore.QObject | None = None,
    ) -> None:
        super().__init__(parent)
        gui_gc.install()  # Qt objects in Python cycles must never be freed on the worker
        self._context = context or ComputeContext
        self._cond = threading.Condition()
        self._pending: dict[str, tuple[int, dict[str, Any], ComputeContext | None]] = {}
        self._latest: dict[str, int] = {}
        self._generation = 0
        self._stopped = False
        self.computed_count = 0
        self._thread = threading.Thread(target=self._run, name="pe-studio-compute", daemon=True)
        self._thread.start()

    def request(
        self,
        view_id: str,
        params: Mapping[str, Any],
        context: ComputeContext | None = None,
    ) -> int:
        """Queue a computation; replaces any not-yet-started request for the view.

        Parameters
        ----------
        view_id, params
            What to compute.
        context
            The display budget and backend to compute with; ``None``: ask the engine's
            ``context`` callable when the computation starts.

        Returns
        -------
        int
            The request's generation (results of older generations are dropped).
        """
        with self._cond:
            self._generation += 1
            gen = self._generation
            self._latest[view_id] = gen
            self._pending[view_id] = (gen, dict(params), context)
            self._cond.notify()
        return gen

    def latest_generation(self, view_id: str) -> int:
        """Generation number of the newest request for ``view_id`` (0 if none)."""
        with self._cond:
            return self._latest.get(view_id, 0)

    def is_current(self, view_id: str, generation: int) -> bool:
        """Whether a result for ``generation`` is still the newest for its view."""
        return self.latest_generation(view_id) == generation

    def idle(self) -> bool:
        """No request is waiting (one may still be computing)."""
        with self._cond:
            return not self._pending

    def stop(self) -> None:
        """Stop the worker thread (called on application exit)."""
        with self._cond:
            self._stopped = True
            self._cond.notify()
        self._thread.join(timeout=2.0)

    def _run(self) -> None:
        leave_a_core_to_the_gui()
        while True:
            with self._cond:
                while not self._pending and not self._stopped:
                    self._cond.wait()
                if self._stopped:
                    return
                view_id = next(iter(self._pending))
                gen, params, context = self._pending.pop(view_id)
            try:
                data = compute_view(view_id, params, context or self._context())
            except Exception as exc:  # reported to the GUI as one line
                if not isinstance(exc, (ValueError, MemoryBudgetError)):  # ParamError too
                    traceback.print_exc()
                if self.is_current(view_id, gen):
                    self.failed.emit(view_id, gen, error_text(exc))
                continue
            self.computed_count += 1
            if self.is_current(view_id, gen):  # superseded results are dropped here
                self.ready.emit(view_id, gen, data)
