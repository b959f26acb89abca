"""Train the tiny transformer on a toy task and measure how it extrapolates (torch, lazily).

:func:`train` runs one positional method: AdamW on fresh batches, a progress callback
after every step, a :class:`TrainControl` checked before every step (cancel, pause),
then accuracy at several evaluation lengths. A learned table has no row past its last
position: those lengths report ``accuracy=None`` with the reason, not a number.

On the CPU a run is bit-identical for a seed: the weights come from a private generator,
the data from a numpy generator, ``torch.use_deterministic_algorithms(True)`` is on and
the thread count is fixed for the run (the previous settings are restored afterwards).
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from core.training.model import PE_METHODS, ModelConfig, build_model
from core.training.tasks import IGNORE, Task

DEVICE_CHOICES: tuple[str, ...] = ("auto", "cpu", "cuda")
TORCH_HINT = (
    "the training lab needs torch: pip install torch (or pip install 'pe-studio[torch]'); "
    "everything else works without it"
)


def require_torch() -> Any:
    """Import torch, or raise ``ValueError`` with one line saying how to get it."""
    try:
        import torch
    except ImportError:
        raise ValueError(TORCH_HINT) from None
    return torch


def default_eval_lengths(train_len: int) -> tuple[int, ...]:
    """0.5×, 1×, 1.5×, 2×, 3× and 4× the training length (distinct, at least 1)."""
    factors = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0)
    return tuple(sorted({max(1, int(round(f * train_len))) for f in factors}))


@dataclass(frozen=True)
class TrainConfig:
    """Everything that defines a training run (JSON-serialisable via :meth:`as_dict`).

    Attributes
    ----------
    pe, task, k, vocab
        Positional method (:data:`~core.training.model.PE_METHODS`) and toy task.
    train_len
        Content length of the training sequences.
    eval_lens
        Content lengths to evaluate after training (empty: :func:`default_eval_lengths`).
    steps, batch_size, lr
        AdamW steps (linear warm-up, cosine decay to 10 %), batch size, peak learning rate.
    d_model, n_layers, n_heads
        Model size.
    max_positions
        Rows of the learned table; 0 means the training sequence length.
    seed
        Seeds weights and data; every method sees the same batches for a seed.
    device
        ``auto`` (CUDA when present), ``cpu`` or ``cuda``.
    threads
        CPU threads for the run (``torch.set_num_threads``; fixed for determinism).
        One by default: at these sizes a second thread gains little, and on a busy
        2-core machine it mostly waits (measured: 22 vs 3.4 steps/s under load).
    eval_batch
        Sequences per evaluation length.
    learned_init_std
        Scale of the learned table's N(0, 1) start (see
        :class:`~core.training.model.ModelConfig`).
    """

    pe: str = "rope"
    task: str = "shift"
    k: int = 3
    vocab: int = 16
    train_len: int = 32
    eval_lens: tuple[int, ...] = ()
    steps: int = 1500
    batch_size: int = 64
    lr: float = 3e-3
    d_model: int = 64
    n_layers: int = 2
    n_heads: int = 4
    max_positions: int = 0
    seed: int = 0
    device: str = "auto"
    threads: int = 1
    eval_batch: int = 256
    learned_init_std: float = 1.0

    def __post_init__(self) -> None:
        task = self.make_task()  # validates task, k, vocab
        self.model_config()  # validates pe and the model size
        if not task.min_length() <= self.train_len <= 1024:
            raise ValueError(
                f"train_len must be in {task.min_length()}..1024 for task {self.task!r}, "
                f"got {self.train_len}"
            )
        for n in self.eval_lens:
            if not task.min_length() <= n <= 8192:
                raise ValueError(
                    f"evaluation length {n} must be in {task.min_length()}..8192 "
                    f"for task {self.task!r}"
                )
        if not 1 <= self.steps <= 1_000_000:
            raise ValueError(f"steps must be in 1..1000000, got {self.steps}")
        if not 1 <= self.batch_size <= 4096 or not 1 <= self.eval_batch <= 4096:
            raise ValueError("batch sizes must be in 1..4096")
        if not 0 < self.lr < 1:
            raise ValueError(f"lr must be in (0, 1), got {self.lr}")
        if self.device not in DEVICE_CHOICES:
            raise ValueError(f"device {self.device!r} is not one of {', '.join(DEVICE_CHOICES)}")
        if not 1 <= self.threads <= 256:
            raise ValueError(f"threads must be in 1..256, got {self.threads}")

    def make_task(self) -> Task:
        """The :class:`~core.training.tasks.Task` of this run."""
        return Task(self.task, self.vocab, self.k)

    def model_config(self) -> ModelConfig:
        """The :class:`~core.training.model.ModelConfig` of this run."""
        task = Task(self.task, self.vocab, self.k)
        rows = self.max_positions or task.seq_len(self.train_len)
        return ModelConfig(
            self.pe,
            task.n_tokens,
            self.d_model,
            self.n_layers,
            self.n_heads,
            rows,
            self.seed,
            self.learned_init_std,
        )

    def lengths(self) -> tuple[int, ...]:
        """The evaluation lengths (given, or the default 0.5×–4× set)."""
        return self.eval_lens or default_eval_lengths(self.train_len)

    def as_dict(self) -> dict[str, Any]:
        """Plain parameters for JSON (eval_lens resolved, max_positions resolved)."""
        out = asdict(self)
        out["eval_lens"] = list(self.lengths())
        out["max_positions"] = self.model_config().max_positions
        return out


@dataclass(frozen=True)
class Progress:
    """One training step, as reported to the progress callback."""

    pe: str
    step: int
    steps: int
    loss: float
    accuracy: float
    elapsed_s: float


@dataclass
class EvalPoint:
    """Accuracy at one evaluation length.

    ``accuracy`` and ``loss`` are ``None`` when the model cannot read that length (a
    learned table without rows for it); ``reason`` says why.
    """

    length: int
    seq_len: int
    accuracy: float | None
    loss: float | None
    reason: str = ""


@dataclass
class TrainResult:
    """What a run produced. ``model`` (the torch module) is not part of :meth:`as_dict`."""

    config: TrainConfig
    device: str
    steps_done: int
    cancelled: bool
    loss_history: list[float]
    accuracy_history: list[float]
    evaluation: list[EvalPoint]
    wall_time_s: float
    train_time_s: float
    model: Any = field(default=None, repr=False)

    @property
    def steps_per_s(self) -> float:
        """Training steps per second of training time."""
        return self.steps_done / self.train_time_s if self.train_time_s > 0 else 0.0

    def accuracy_at(self, length: int) -> float | None:
        """Evaluation accuracy at ``length`` (``None``: not evaluated or no row)."""
        for point in self.evaluation:
            if point.length == length:
                return point.accuracy
        return None

    def learned_table(self) -> np.ndarray | None:
        """The learned position table ``(max_positions, d)`` (``None`` for other methods)."""
        if self.model is None or getattr(self.model, "wpe", None) is None:
            return None
        return np.asarray(self.model.wpe.detach().cpu().double().numpy())

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready summary: method, per-length accuracy, histories, device, timing."""
        return {
            "pe": self.config.pe,
            "device": self.device,
            "steps_done": self.steps_done,
            "cancelled": self.cancelled,
            "wall_time_s": round(self.wall_time_s, 4),
            "train_time_s": round(self.train_time_s, 4),
            "steps_per_s": round(self.steps_per_s, 3),
            "final_loss": self.loss_history[-1] if self.loss_history else None,
            "accuracy_by_length": {str(p.length): p.accuracy for p in self.evaluation},
            "evaluation": [asdict(p) for p in self.evaluation],
            "loss_history": self.loss_history,
            "accuracy_history": self.accuracy_history,
            "parameters": self.config.as_dict(),
        }


class TrainControl:
    """Cancel and pause a run from another thread or process; checked before every step.

    ``cancel()`` ends the run before its next step (then the evaluation is skipped).
    ``pause()`` blocks the training thread before the next step until ``resume()`` or
    ``cancel()``.

    Parameters
    ----------
    cancel_event, running_event
        The two flags (anything with ``set``/``clear``/``is_set``/``wait``): default
        ``threading.Event``; pass ``multiprocessing`` events to control a run in another
        process (:mod:`core.training.runner`) — both sides build a control on the same two.
    """

    def __init__(self, cancel_event: Any = None, running_event: Any = None) -> None:
        self._cancel = cancel_event if cancel_event is not None else threading.Event()
        self._running = running_event if running_event is not None else threading.Event()
        if running_event is None:
            self._running.set()

    @property
    def events(self) -> tuple[Any, Any]:
        """The ``(cancel, running)`` flags, to build the same control in another process."""
        return self._cancel, self._running

    def cancel(self) -> None:
        """Stop before the next step."""
        self._cancel.set()
        self._running.set()

    def pause(self) -> None:
        """Hold the run before its next step."""
        self._running.clear()

    def resume(self) -> None:
        """Continue a paused run."""
        self._running.set()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancel.is_set()

    @property
    def paused(self) -> bool:
        """True while paused (and not cancelled)."""
        return not self._running.is_set()

    def proceed(self) -> bool:
        """Wait while paused; return False when the run must stop."""
        while not self._running.wait(0.1):
            pass
        return not self._cancel.is_set()


def resolve_device(choice: str = "auto") -> tuple[Any, str]:
    """``(torch.device, label)`` for a device choice; ``auto`` takes CUDA when it works.

    Raises
    ------
    ValueError
        ``cuda`` asked for but not available.
    """
    torch = require_torch()
    if choice not in DEVICE_CHOICES:
        raise ValueError(f"device {choice!r} is not one of {', '.join(DEVICE_CHOICES)}")
    if choice in ("auto", "cuda"):
        try:
            if torch.cuda.is_available():
                name = torch.cuda.get_device_name(0)
                return torch.device("cuda"), f"cuda ({name})"
        except Exception:  # a broken driver is "no GPU", not a crash
            pass
        if choice == "cuda":
            raise ValueError("device cuda: torch finds no usable CUDA GPU")
    return torch.device("cpu"), "cpu"


@contextlib.contextmanager
def _run_settings(torch: Any, on_cpu: bool, threads: int) -> Iterator[None]:
    """On the CPU: deterministic algorithms and a fixed thread count, restored after.

    On CUDA nothing is changed (deterministic kernels there need environment settings
    made before CUDA starts); runs on a GPU are repeatable only up to rounding.
    """
    if not on_cpu:
        yield
        return
    det = torch.are_deterministic_algorithms_enabled()
    warn = torch.is_deterministic_algorithms_warn_only_enabled()
    old_threads = torch.get_num_threads()
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(det, warn_only=warn)
        torch.set_num_threads(old_threads)


def _lr_factor(step: int, steps: int) -> float:
    """Linear warm-up over the first 10 % (at most 100 steps), then cosine to 10 %."""
    warm = max(1, min(100, steps // 10))
    if step < warm:
        return (step + 1) / warm
    t = (step - warm) / max(1, steps - warm)
    return 0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * t))


def _scores(torch: Any, logits: Any, targets: Any) -> tuple[Any, Any]:
    """Mean cross-entropy and accuracy over scored positions."""
    flat = logits.reshape(-1, logits.shape[-1])
    tgt = targets.reshape(-1)
    loss = torch.nn.functional.cross_entropy(flat, tgt, ignore_index=IGNORE)
    scored = tgt != IGNORE
    acc = (flat.argmax(-1)[scored] == tgt[scored]).float().mean()
    return loss, acc


def train(
    cfg: TrainConfig,
    progress: Callable[[Progress], None] | None = None,
    control: TrainControl | None = None,
) -> TrainResult:
    """Train one positional method and evaluate it at ``cfg.lengths()``.

    Parameters
    ----------
    cfg
        The run.
    progress
        Called after every step with a :class:`Progress` (on the training thread).
    control
        Checked before every step and every evaluation length.

    Raises
    ------
    ValueError
        torch is missing (the message says how to get it), or ``cuda`` is unavailable.
    """
    torch = require_torch()
    t_start = time.perf_counter()
    device, label = resolve_device(cfg.device)
    control = control or TrainControl()
    task = cfg.make_task()
    mcfg = cfg.model_config()
    losses: list[float] = []
    accs: list[float] = []
    with _run_settings(torch, device.type == "cpu", cfg.threads):
        torch.manual_seed(cfg.seed)
        model = build_model(mcfg).to(device)
        opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, betas=(0.9, 0.98), weight_decay=0)
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: _lr_factor(s, cfg.steps))
        rng = np.random.default_rng([cfg.seed, 1])
        model.train()
        t_train = time.perf_counter()
        step = 0
        while step < cfg.steps and control.proceed():
            x, y = task.batch(rng, cfg.train_len, cfg.batch_size)
            xs, ys = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)
            loss, acc = _scores(torch, model(xs), ys)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            losses.append(float(loss.detach()))
            accs.append(float(acc))
            if progress is not None:
                progress(
                    Progress(
                        cfg.pe, step, cfg.steps, losses[-1], accs[-1], time.perf_counter() - t_start
                    )
                )
        train_time = time.perf_counter() - t_train
        cancelled = control.cancelled
        evaluation = [] if cancelled else evaluate(model, cfg, device=device, control=control)
    return TrainResult(
        cfg,
        label,
        step,
        cancelled or control.cancelled,
        losses,
        accs,
        evaluation,
        time.perf_counter() - t_start,
        train_time,
        model,
    )


def evaluate(
    model: Any,
    cfg: TrainConfig,
    lengths: Sequence[int] | None = None,
    *,
    device: Any = None,
    control: TrainControl | None = None,
) -> list[EvalPoint]:
    """Accuracy and loss of ``model`` at each content length (fixed data per seed).

    A learned table shorter than a length's sequence gives ``accuracy=None`` and the
    reason ("no row ..."). A cancelled ``control`` ends the list early.
    """
    torch = require_torch()
    task = cfg.make_task()
    device = device if device is not None else next(model.parameters()).device
    rows = model.wpe.shape[0] if getattr(model, "wpe", None) is not None else None
    points: list[EvalPoint] = []
    model.eval()
    for n in lengths if lengths is not None else cfg.lengths():
        if control is not None and control.cancelled:
            break
        seq = task.seq_len(n)
        if rows is not None and seq > rows:
            reason = (
                f"no row: the learned table has {rows} rows (positions 0..{rows - 1}); "
                f"length {n} needs positions up to {seq - 1}"
            )
            points.append(EvalPoint(int(n), seq, None, None, reason))
            continue
        rng = np.random.default_rng([cfg.seed, 2, int(n)])
        x, y = task.batch(rng, n, cfg.eval_batch)
        with torch.no_grad():
            xs, ys = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)
            loss, acc = _scores(torch, model(xs), ys)
        points.append(EvalPoint(int(n), seq, float(acc), float(loss)))
    model.train()
    return points


def attention_maps(model: Any, tokens: np.ndarray) -> np.ndarray:
    """Attention weights of one sequence: ``(layers, heads, L, L)`` float64."""
    torch = require_torch()
    keep: list[Any] = []
    device = next(model.parameters()).device
    was_training = model.training
    model.eval()
    with torch.no_grad():
        model(torch.as_tensor(np.asarray(tokens, dtype=np.int64)[None]).to(device), keep)
    model.train(was_training)
    return np.stack([a[0].cpu().double().numpy() for a in keep])


def check_methods(methods: Sequence[str]) -> tuple[str, ...]:
    """Validate a list of positional methods (unique, known); return it as a tuple."""
    out: list[str] = []
    for m in methods:
        m = m.strip().lower()
        if m == "nope":
            m = "none"
        if m not in PE_METHODS:
            raise ValueError(
                f"positional method {m!r} is not one of {', '.join(PE_METHODS)} (or nope)"
            )
        if m in out:
            raise ValueError(f"positional method {m!r} is listed twice")
        out.append(m)
    if not out:
        raise ValueError("no positional method given")
    return tuple(out)
