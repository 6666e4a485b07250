"""The registry imports the project's games as they are asked for (the page's
engine starts with the one game its match plays), and knows every one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry
from engine.core import UnknownGame

ENGINE = Path(registry.__file__).resolve().parent


def test_every_game_package_is_listed_with_the_id_it_registers():
    registered = {g.id: type(g).__module__.split(".")[1] for g in registry.all_games() if type(g).__module__.startswith("engine.")}
    assert {gid: pkg.split(".")[1] for gid, pkg in registry.BUILT_IN.items()} == registered
    # and no folder that registers a game is left out
    packages = {p.parent.name for p in ENGINE.glob("*/__init__.py") if "register(" in p.read_text() or "register(" in
                "".join(q.read_text() for q in p.parent.glob("*.py"))}
    assert packages <= set(registered.values()) | {"jogledor", "primitives"}


def test_importing_engine_imports_no_game_and_get_imports_just_the_one_asked_for():
    code = ("import sys, engine; from engine import registry; assert not [m for m in sys.modules if m == 'engine.catan'];"
            "registry.get('twaalven'); loaded = {m.split('.')[1] for m in sys.modules if m.startswith('engine.') and m.count('.') == 1};"
            "print(sorted(loaded & set(p.split('.')[1] for p in registry.BUILT_IN.values())))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['twaalven']"


def test_an_unknown_game_names_every_known_one():
    with pytest.raises(UnknownGame) as err:
        registry.get("chess")
    assert all(gid in err.value.message for gid in registry.BUILT_IN)
