"""Training lab: a tiny causal transformer learns toy tasks with each positional method.

Pure computation like the rest of ``core``: no Qt, and torch is imported only when a
run starts (importing this package never imports torch). Entry points:
:func:`core.training.lab.train`, :class:`core.training.lab.TrainConfig`,
:class:`core.training.lab.TrainControl`; the command line is :mod:`core.training.cli`.
"""
