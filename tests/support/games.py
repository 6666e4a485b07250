"""The project's own games: every game in the registry but those a test
registers for itself (tests/support/toy.py's toys)."""

from __future__ import annotations

from engine import registry
from engine.core import Game


def project_games() -> list[Game]:
    return [g for g in registry.all_games() if type(g).__module__.startswith("engine.")]
