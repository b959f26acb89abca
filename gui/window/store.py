"""The settings store every feature shares: one per window, given by the composition root.

:class:`SettingsStore` is what features need (text values under ``group/key`` names).
:class:`MemoryStore` keeps them in a dict (tests, ``PE_STUDIO_NO_SETTINGS=1``);
:class:`ReadOnlyStore` reads through to another store and never writes (presentations
and self-test runs must not overwrite the user's settings). The ``QSettings``-backed
store lives with the settings code (:mod:`gui.lecture.settings`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class SettingsStore(Protocol):
    """Text values under ``group/key`` names."""

    def get(self, key: str) -> str | None:
        """The value of ``key``, ``None`` when absent (or not text)."""
        ...

    def put(self, key: str, value: str) -> None:
        """Set ``key`` to ``value``."""
        ...

    def remove_group(self, prefix: str) -> None:
        """Remove every key under ``prefix/``."""
        ...

    def sync(self) -> None:
        """Write pending changes to disk (if the store has a disk)."""
        ...


class MemoryStore:
    """A dict-backed store (tests; ``PE_STUDIO_NO_SETTINGS=1``)."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def put(self, key: str, value: str) -> None:
        self.data[key] = str(value)

    def remove_group(self, prefix: str) -> None:
        for key in [k for k in self.data if k.startswith(prefix + "/")]:
            del self.data[key]

    def sync(self) -> None:
        """Nothing to flush."""


class ReadOnlyStore:
    """Reads from ``source``; writes stay in memory for this run and never reach it.

    Parameters
    ----------
    source
        The store to read (usually the user's settings).
    """

    def __init__(self, source: SettingsStore) -> None:
        self.source = source
        self.written = MemoryStore()
        self._removed: set[str] = set()

    def get(self, key: str) -> str | None:
        value = self.written.get(key)
        if value is not None:
            return value
        if any(key.startswith(prefix + "/") for prefix in self._removed):
            return None
        return self.source.get(key)

    def put(self, key: str, value: str) -> None:
        self.written.put(key, value)

    def remove_group(self, prefix: str) -> None:
        self.written.remove_group(prefix)
        self._removed.add(prefix)

    def sync(self) -> None:
        """Nothing reaches ``source``."""
