"""The engine a page imports: the ``engine`` package the server runs, zipped
as it is installed, with the one package outside the standard library that it
imports (fastjsonschema). Nothing is copied or rewritten: the page's Python
reads the same files (docs/ui.md, "The engine in the page")."""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

#: what the page never needs: the C solver core and its build script (the pure-Python search stands in)
LEFT_OUT = frozenset({"__pycache__", "_native"})


@dataclass(frozen=True)
class EngineZip:
    data: bytes
    #: of the files' names and contents: the zip's address changes when, and only when, the engine does
    digest: str
    files: int


def _files(package: Path, prefix: str) -> list[tuple[str, Path]]:
    out = []
    for path in sorted(package.rglob("*")):
        rel = path.relative_to(package)
        if path.is_file() and path.suffix in (".py", ".json") and not LEFT_OUT & set(rel.parts):
            out.append((f"{prefix}/{rel.as_posix()}", path))
    return out


@lru_cache(maxsize=1)
def engine_zip() -> EngineZip:
    import fastjsonschema

    import engine

    files = _files(Path(engine.__file__).resolve().parent, "engine")
    files += _files(Path(fastjsonschema.__file__).resolve().parent, "fastjsonschema")
    digest = hashlib.sha256()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, path in files:
            body = path.read_bytes()
            digest.update(name.encode() + b"\0" + hashlib.sha256(body).digest())
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # the same bytes in every process
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, body)
    return EngineZip(out.getvalue(), digest.hexdigest()[:16], len(files))
