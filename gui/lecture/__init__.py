"""Lecture features: scenes and decks, presentation mode, sweeps, help and settings."""
