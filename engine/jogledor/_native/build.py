"""Build the compiled solver core in place, for development:

    python -m engine.jogledor._native.build

The normal install builds it through setuptools (see the ext-modules entry in
pyproject.toml); without it the pure-Python searches run and give the same
answers, only slower.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "jogledor_core.c"
TARGET = HERE.parent / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))


def main() -> int:
    cc = sysconfig.get_config_var("CC") or "cc"
    cmd = [*cc.split()[:1], "-O2", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}", str(SOURCE), "-o", str(TARGET)]
    print(" ".join(cmd))
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
