"""Every data file a package reads at run time ships with it: an install that
is not editable (a wheel) would otherwise start and then fail on the first
board, card set or page it loads."""

from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "leagues", "replays", "service", "workers")
#: sources of compiled extensions, built at install time (tool.setuptools.ext-modules)
BUILT_FROM = {"engine/jogledor/_native/jogledor_core.c"}


def _tracked_data_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True, text=True, check=True)
    return [p for p in out.stdout.split()
            if not p.endswith(".py") and p not in BUILT_FROM and not Path(p).name.startswith(".")]


def _shipped(path: str, package_data: dict[str, list[str]]) -> bool:
    for package, globs in package_data.items():
        prefix = package.replace(".", "/") + "/"
        if path.startswith(prefix) and any(fnmatch.fnmatch(path[len(prefix):], g) for g in globs):
            return True
    return False


def test_every_tracked_data_file_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    package_data = config["tool"]["setuptools"]["package-data"]
    files = _tracked_data_files()
    assert any(f.startswith("engine/catan/boards/") for f in files)  # the check sees the data it guards
    missing = [f for f in files if not _shipped(f, package_data)]
    assert not missing, f"add these to [tool.setuptools.package-data] in pyproject.toml: {missing}"
