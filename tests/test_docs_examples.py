"""Docs are code: every shell example in README.md and docs/ runs here.

Each page's fenced ``sh``/``bash``/``shell``/``console`` blocks run in order,
as one bash script (``set -euo pipefail``), against a real ``kroniek run`` (its
own embedded Redis, worker and API on a free port); every file in
docs/examples/ runs once as a script. A docs example that no longer works
fails the suite. The conventions a docs writer follows (the README's "Docs
that run" sums them up):

- The server is at ``localhost:8000`` or ``127.0.0.1:8000``, as ``make run``
  has it; the harness points those at its own server.
- ``TOKEN`` and ``ADMIN_TOKEN`` hold the first admin's token. A line that only
  tells the reader to set one of them (``TOKEN=kr_…  # the token make run
  printed``) is left out; any other ``…`` in a command is a placeholder that
  cannot run and fails the test.
- ``# → <JSON>`` right after a command (one line, or lines joined with ``\\``)
  shows its answer; the command's output must match: every key shown is there
  with that value, ``"…"`` is any value, ``"abc…"`` any string starting with
  abc, a bare ``…`` in an object or array allows more keys or elements. A
  leading HTTP status (``# → 422 {…}``) is for the reader. An answer may go on
  over the following comment lines until its brackets close.
- A block that cannot run inline (``make run``, ``kroniek run``/``serve``/
  ``worker``, ``make test``, ``make bench``) is preceded by the marker
  ``<!-- docs-test: covered by tests/<file>.py::<test> -->`` naming the test(s)
  that run it (comma-separated); the test must exist. Such a command in a
  block without the marker fails here, so nothing is skipped silently.
- Shell commands live in tagged blocks: an untagged block that starts with
  ``curl``, ``make``, ``kroniek`` or ``.venv/bin/`` fails until it is tagged.
- curl gives up after 20 s (a ``.curlrc`` in the example's ``$HOME``); a page
  gets 60 s, a docs/examples script 150 s. Examples run in a scratch directory
  with ``.venv`` and ``docs`` linked in, so files they write go nowhere.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

from tests.test_run import wait_until_answering

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SCRIPTS = sorted(p for p in (ROOT / "docs" / "examples").iterdir() if p.is_file() and p.suffix == ".sh")
SHELL_LANGS = {"sh", "bash", "shell", "console"}
PROVIDED = ("TOKEN", "ADMIN_TOKEN")
PAGE_TIMEOUT = 60
SCRIPT_TIMEOUT = 150
ELLIPSIS = "…"

MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$")
COVERED = re.compile(r"^covered by\s+(.+)$")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
LONG_RUNNING = re.compile(
    r"(^|[\s;&|(])(make\s+(run|test|test-redis|bench)\b|(\S*/)?kroniek\s+(run|serve|worker)\b)"
)
SHELLISH = re.compile(r"^\s*(\$\s+)?(curl|make|kroniek|\.venv/bin/)\b")
PLACEHOLDER_SET = re.compile(r"^\s*(?:export\s+)?([A-Za-z_]\w*)=\S*" + ELLIPSIS)
ANSWER = re.compile(r"^\s*#\s*→\s*(.*)$")


# -- reading the docs ---------------------------------------------------------------

def _page_id(page: Path) -> str:
    return str(page.relative_to(ROOT)) if page.is_relative_to(ROOT) else page.name


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    lines: list[str]
    marker: str | None

    @property
    def where(self) -> str:
        return f"{_page_id(self.page)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text().splitlines()
    out: list[Block] = []
    i = 0
    while i < len(text):
        m = FENCE.match(text[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(2), m.group(3).lower(), i
        body = []
        i += 1
        while i < len(text) and not text[i].strip().startswith(fence[:3]):
            body.append(text[i])
            i += 1
        i += 1
        k = start - 1
        while k >= 0 and not text[k].strip():
            k -= 1
        mk = MARKER.match(text[k]) if k >= 0 else None
        out.append(Block(page, start + 1, lang, body, mk.group(1) if mk else None))
    return out


def all_blocks() -> list[Block]:
    return [b for page in PAGES for b in blocks(page)]


def commands_of(block: Block) -> list[str]:
    """The block's lines as bash sees them (a console block: its ``$`` lines)."""
    if block.lang != "console":
        return list(block.lines)
    out, cont = [], False
    for line in block.lines:
        if line.startswith("$ ") or cont:
            out.append(line[2:] if line.startswith("$ ") else line)
            cont = line.rstrip().endswith("\\")
    return out


def strip_comment(line: str) -> str:
    """The line without a trailing ``# comment`` (outside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def covered_tests(marker: str) -> list[str]:
    m = COVERED.match(marker)
    if not m:
        raise AssertionError(f"unknown docs-test marker {marker!r}: write 'covered by tests/<file>.py::<test>'")
    return [t.strip() for t in m.group(1).split(",") if t.strip()]


def names_a_test(ref: str) -> bool:
    path, _, name = ref.partition("::")
    file = ROOT / path
    if not (path.startswith("tests/") and file.is_file() and name):
        return False
    *owner, func = name.split("::")
    source = file.read_text()
    if owner and not re.search(rf"^class {re.escape(owner[0])}\b", source, re.M):
        return False
    return re.search(rf"^\s*def {re.escape(func)}\(", source, re.M) is not None


# -- answers shown in the docs --------------------------------------------------------

MORE = "\u0000more"


class Glob(str):
    """An expected string with ``…`` in it: any text there."""


def parse_answer(text: str):
    """The JSON-like answer a doc shows, with ``…`` as described above."""
    out, stack, i, quote = [], [], 0, False
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                out.append(text[i : i + 2])
                i += 2
                continue
            if ch == '"':
                quote = False
            out.append(ch)
        elif ch == '"':
            quote = True
            out.append(ch)
        elif ch in "[{":
            stack.append(ch)
            out.append(ch)
        elif ch in "]}":
            stack.pop()
            out.append(ch)
        elif ch == ELLIPSIS:
            if not stack:
                raise ValueError("a bare … outside an object or array")
            out.append('"\\u0000more": null' if stack[-1] == "{" else '"\\u0000more"')
        else:
            out.append(ch)
        i += 1
    value, end = json.JSONDecoder().raw_decode("".join(out).strip())
    if "".join(out).strip()[end:].strip():
        raise ValueError(f"text after the answer: {''.join(out).strip()[end:]!r}")
    return _globs(value)


def _globs(v):
    if isinstance(v, str) and ELLIPSIS in v:
        return Glob(v)
    if isinstance(v, list):
        return [_globs(x) for x in v]
    if isinstance(v, dict):
        return {k: _globs(x) for k, x in v.items()}
    return v


def mismatch(expected, actual, path: str = "") -> str | None:
    """Why ``actual`` does not show ``expected`` (None: it does)."""
    if isinstance(expected, Glob):
        parts = expected.split(ELLIPSIS)
        if not isinstance(actual, str):
            return f"{path or 'answer'}: expected a string like {expected!r}, got {actual!r}"
        pos = 0
        for n, part in enumerate(parts):
            found = actual.find(part, pos) if n else (0 if actual.startswith(part) else -1)
            if found < 0 or (n == len(parts) - 1 and part and not actual.endswith(part)):
                return f"{path or 'answer'}: {actual!r} does not match {expected!r}"
            pos = found + len(part)
        return None
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path or 'answer'}: expected an object, got {actual!r}"
        for k, v in expected.items():
            if k == MORE:
                continue
            if k not in actual:
                return f"{path or 'answer'}: no {k!r} in {sorted(actual)}"
            why = mismatch(v, actual[k], f"{path}.{k}")
            if why:
                return why
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{path or 'answer'}: expected an array, got {actual!r}"
        more = MORE in expected
        items = [x for x in expected if x != MORE]
        if len(actual) < len(items) or (not more and len(actual) != len(items)):
            return f"{path or 'answer'}: expected {len(items)} element(s), got {len(actual)}: {actual!r}"
        for n, v in enumerate(items):
            why = mismatch(v, actual[n], f"{path}[{n}]")
            if why:
                return why
        return None
    if expected != actual or type(expected) is not type(actual):
        return f"{path or 'answer'}: expected {expected!r}, got {actual!r}"
    return None


# -- turning a page into a script --------------------------------------------------------

@dataclass
class Script:
    text: str = ""
    lines: list[tuple[str, int]] = field(default_factory=list)  # script line -> (page, doc line)
    answers: list[tuple[str, object]] = field(default_factory=list)  # (where, expected)

    def add(self, line: str, where: tuple[str, int]) -> None:
        self.text += line + "\n"
        self.lines.append(where)


PRELUDE = """set -euo pipefail
trap 'echo "docs-test: failed at script line $LINENO" >&2' ERR
exec 9>>"$DOCS_TRACE"; BASH_XTRACEFD=9; PS4='+${LINENO}: '; set -x
"""


def page_script(page: Path, port: int, answers_dir: Path) -> Script:
    script = Script()
    for line in PRELUDE.splitlines():
        script.add(line, ("prelude", 0))
    rel = _page_id(page)
    for block in blocks(page):
        if block.lang not in SHELL_LANGS or block.marker is not None:
            continue
        lines = commands_of(block)
        for n, raw in enumerate(lines):
            doc_line = block.line + 1 + n
            line = re.sub(r"\b(localhost|127\.0\.0\.1):8000\b", f"127.0.0.1:{port}", raw)
            answer = ANSWER.match(line)
            if answer:
                text = answer.group(1)
                k = n + 1
                while _open_brackets(text) and k < len(lines) and lines[k].lstrip().startswith("#"):
                    text += " " + lines[k].lstrip()[1:].strip()
                    k += 1
                _wrap_answer(script, rel, doc_line, text, answers_dir)
                continue
            setting = PLACEHOLDER_SET.match(line)
            if setting:
                if setting.group(1) not in PROVIDED:
                    raise AssertionError(
                        f"{rel}:{doc_line}: {setting.group(1)} is set to a placeholder; the docs test provides only "
                        f"{', '.join(PROVIDED)}"
                    )
                script.add(f": provided by the docs test: {setting.group(1)}", (rel, doc_line))
                continue
            if ELLIPSIS in strip_comment(line):
                raise AssertionError(f"{rel}:{doc_line}: a placeholder (…) in a command cannot run: {raw.strip()}")
            script.add(line, (rel, doc_line))
    return script


def _open_brackets(text: str) -> bool:
    depth, quote = 0, False
    for i, ch in enumerate(text):
        if quote:
            if ch == '"' and text[i - 1] != "\\":
                quote = False
        elif ch == '"':
            quote = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth > 0


def _wrap_answer(script: Script, rel: str, doc_line: int, text: str, answers_dir: Path) -> None:
    """Run the command just before the answer line again inside ``$( )`` so
    its output is kept: turn the last command of the script into a capture."""
    status = re.match(r"^\s*(\d{3})\s+(.*)$", text)
    expected_text = status.group(2) if status else text
    try:
        expected = parse_answer(expected_text)
    except (ValueError, json.JSONDecodeError) as exc:
        raise AssertionError(f"{rel}:{doc_line}: cannot read the answer {text!r}: {exc}") from None
    # the command: the last non-comment line and the lines it continues
    body = script.text.splitlines()
    end = len(body)
    while end > 0 and (not body[end - 1].strip() or body[end - 1].lstrip().startswith("#")):
        end -= 1
    if end == 0:
        raise AssertionError(f"{rel}:{doc_line}: an answer line with no command before it")
    start = end - 1
    while start > 0 and body[start - 1].rstrip().endswith("\\"):
        start -= 1
    command = body[start:end]
    if re.match(r"^\s*[A-Za-z_]\w*=", command[0]):
        raise AssertionError(f"{rel}:{doc_line}: the answer follows an assignment, which prints nothing")
    index = len(script.answers)
    out_file = answers_dir / f"answer-{index}"
    new = [*body[:start], "__docs_out=$(", *command, ")", 'printf "%s\\n" "$__docs_out"',
           f'printf "%s" "$__docs_out" > "{out_file}"', *body[end:]]
    where = script.lines[start]
    script.lines = [*script.lines[:start], *([where] * (len(command) + 4)), *script.lines[end:]]
    script.text = "\n".join(new) + "\n"
    script.answers.append((f"{rel}:{doc_line}", expected))


# -- the server ---------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real ``kroniek run`` for the pages' examples."""
    yield from kroniek_run(tmp_path_factory.mktemp("docs-var"))


@pytest.fixture
def fresh_server(tmp_path_factory):
    """A script gets a ``kroniek run`` of its own, as on a fresh ``make run``."""
    yield from kroniek_run(tmp_path_factory.mktemp("docs-script-var"))


def kroniek_run(var: Path):
    """A real ``kroniek run`` (embedded Redis, one worker, the API)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "KRONIEK_QUEUE", "KRONIEK_PREFIX", "KRONIEK_AUTH")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "run", "--port", str(port), "--var", str(var)],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )
    token, head = None, ""
    deadline = time.monotonic() + 60
    try:
        for line in proc.stdout:  # up to the line that says it is ready
            head += line
            if line.startswith("Admin token"):
                token = line.rsplit(" ", 1)[1].strip()
            if line.startswith("Press Ctrl-C") or time.monotonic() > deadline:
                break
        # Keep draining its output: a full pipe (64 KB of worker logs) would
        # block every process of the server that writes a line.
        lines: list[str] = []
        threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
        if not wait_until_answering(f"http://127.0.0.1:{port}/api", proc, max(0.0, deadline - time.monotonic())):
            pytest.fail(f"kroniek run did not come up:\n{head}{''.join(lines)}")
        assert token, f"kroniek run printed no admin token:\n{head}"
        yield {"port": port, "token": token, "base": f"http://127.0.0.1:{port}"}
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def scratch(tmp_path: Path) -> dict[str, str]:
    """A working directory and environment for an example."""
    (tmp_path / ".venv").symlink_to(ROOT / ".venv" if (ROOT / ".venv").exists() else Path(sys.prefix))
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    (tmp_path / ".curlrc").write_text("max-time = 20\nconnect-timeout = 5\n")
    bin_dir = str(Path(sys.executable).parent)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path),
            "CURL_HOME": str(tmp_path), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}


def run_bash(args: list[str], cwd: Path, env: dict[str, str], timeout: int, where=lambda: "") -> subprocess.CompletedProcess:
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"{' '.join(args)} ran over {timeout} s{where()}\n--- stdout\n{out[-3000:]}\n"
                    f"--- stderr\n{err[-3000:]}")
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


# -- the tests ----------------------------------------------------------------------------

RUNNABLE_PAGES = [p for p in PAGES if any(b.lang in SHELL_LANGS and b.marker is None for b in blocks(p))]


@pytest.mark.slow
@pytest.mark.parametrize("page", RUNNABLE_PAGES, ids=_page_id)
def test_the_shell_examples_of_a_page_run(page, server, tmp_path):
    answers = tmp_path / "answers"
    answers.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    script = page_script(page, server["port"], answers)
    (tmp_path / "page.sh").write_text(script.text)
    trace = tmp_path / "trace"
    env = {**scratch(work), "TOKEN": server["token"], "ADMIN_TOKEN": server["token"], "DOCS_TRACE": str(trace)}

    def last_line() -> str:
        """Where the script was: the last line bash traced, in the docs."""
        seen = re.findall(r"^\+{1,}(\d+): ", trace.read_text() if trace.exists() else "", re.M)
        n = int(seen[-1]) if seen else 0
        return f" near {script.lines[n - 1][0]}:{script.lines[n - 1][1]}" if 0 < n <= len(script.lines) else ""

    run = run_bash(["bash", str(tmp_path / "page.sh")], work, env, PAGE_TIMEOUT, last_line)
    if run.returncode != 0:
        m = re.search(r"failed at script line (\d+)", run.stderr)
        where = last_line()
        if m and int(m.group(1)) - 1 < len(script.lines):
            doc, line = script.lines[int(m.group(1)) - 1]
            where = f" near {doc}:{line}"
        pytest.fail(f"the examples of {_page_id(page)} failed{where} (exit {run.returncode})\n"
                    f"--- stdout\n{run.stdout[-4000:]}\n--- stderr\n{run.stderr[-4000:]}")
    for n, (where, expected) in enumerate(script.answers):
        raw = (answers / f"answer-{n}").read_text()
        try:
            actual = json.loads(raw)
        except json.JSONDecodeError:
            pytest.fail(f"{where}: the docs show a JSON answer, the command printed {raw[:500]!r}")
        why = mismatch(expected, actual)
        assert why is None, f"{where}: the answer is not what the docs show: {why}"


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_docs_example_script_runs(script, fresh_server, tmp_path):
    """A docs/examples script gets the API base as its argument and the admin
    token as ADMIN_TOKEN, and writes its files to OUT."""
    env = {**scratch(tmp_path), "ADMIN_TOKEN": fresh_server["token"], "OUT": str(tmp_path),
           "KRONIEK": str(Path(sys.executable).with_name("kroniek"))}
    run = run_bash(["bash", str(script), f"{fresh_server['base']}/api"], tmp_path, env, SCRIPT_TIMEOUT)
    assert run.returncode == 0, f"--- stdout\n{run.stdout[-4000:]}\n--- stderr\n{run.stderr[-4000:]}"


def test_every_block_that_cannot_run_inline_names_a_test_that_exists():
    problems = []
    for block in all_blocks():
        if block.marker is not None:
            if block.lang not in SHELL_LANGS:
                problems.append(f"{block.where}: a docs-test marker before a {block.lang or 'untagged'} block")
                continue
            try:
                refs = covered_tests(block.marker)
            except AssertionError as exc:
                problems.append(f"{block.where}: {exc}")
                continue
            missing = [r for r in refs if not names_a_test(r)]
            if not refs or missing:
                problems.append(f"{block.where}: the marker names no test that exists: {', '.join(missing) or '-'}")
        elif block.lang in SHELL_LANGS:
            for n, line in enumerate(commands_of(block)):
                if not line.lstrip().startswith("#") and LONG_RUNNING.search(strip_comment(line)):
                    problems.append(f"{block.where}: line {n + 1} ({line.strip()}) cannot run inline; put "
                                    "<!-- docs-test: covered by tests/<file>.py::<test> --> before the block")
    assert not problems, "\n".join(problems)


def test_shell_examples_are_in_tagged_blocks():
    untagged = [b.where for b in all_blocks() if not b.lang and any(SHELLISH.match(line) for line in b.lines)]
    assert not untagged, f"tag these blocks ```sh so they run: {', '.join(untagged)}"


def test_every_page_with_shell_examples_runs_some():
    """Guards the harness: the README and the pages known to have examples
    really yield runnable blocks (a parser slip would otherwise pass all)."""
    names = {_page_id(p) for p in RUNNABLE_PAGES}
    assert {"README.md", "docs/leagues.md", "docs/games/troubadour.md", "docs/games/twaalven-en-veertienen.md",
            "docs/games/stapelen.md", "docs/games/sir-tommy.md", "docs/games/catan-troje.md"} <= names
    assert SCRIPTS and all(s.suffix == ".sh" for s in SCRIPTS)


def test_no_doc_points_outside_the_repository():
    """Users of the repository have no shared/ folder and nothing above it."""
    problems = []
    for page in PAGES:
        text = page.read_text()
        for n, line in enumerate(text.splitlines(), 1):
            if re.search(r"(?<![\w.-])shared/", line):
                problems.append(f"{_page_id(page)}:{n}: names shared/: {line.strip()}")
            for target in re.findall(r"\]\(([^)\s#]+)", line):
                if re.match(r"^[a-z]+://|^mailto:", target):
                    continue
                resolved = (page.parent / target).resolve()
                if not resolved.is_relative_to(ROOT) or not resolved.exists():
                    problems.append(f"{_page_id(page)}:{n}: links to {target}, not a file of the repository")
            for path in re.findall(r"`([^`\s]*\.\./[^`\s]*)`", line):
                if not (page.parent / path).resolve().is_relative_to(ROOT):
                    problems.append(f"{_page_id(page)}:{n}: names {path}, outside the repository")
    assert not problems, "\n".join(problems)


# -- the harness's own parts -----------------------------------------------------------------

def test_answers_match_by_the_documented_rules():
    shown = parse_answer('{"id": "…", "seq": 1, "state": {"score": [0, 1], …}, "h": "ab…"}')
    assert mismatch(shown, {"id": "x1", "seq": 1, "state": {"score": [0, 1], "held": 0}, "h": "abc", "z": 2}) is None
    assert "seq" in mismatch(shown, {"id": "x1", "seq": 2, "state": {"score": [0, 1]}, "h": "ab"})
    assert "no 'id'" in mismatch(shown, {"seq": 1, "state": {"score": [0, 1]}, "h": "ab"})
    assert "does not match" in mismatch(shown, {"id": "", "seq": 1, "state": {"score": [0, 1]}, "h": "xab"})
    assert "element" in mismatch(parse_answer("[1, 2]"), [1, 2, 3])
    assert mismatch(parse_answer("[1, 2, …]"), [1, 2, 3]) is None
    assert mismatch(parse_answer("[true]"), [1]) is not None  # true is not 1
    with pytest.raises(ValueError):
        parse_answer('{"a": 1} trailing')


def test_a_page_becomes_a_script_that_keeps_answers(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "Intro.\n\n```sh\nTOKEN=kr_…   # the token make run printed\n"
        "curl -s localhost:8000/api/matches/x \\\n     -H 'A: b'\n# → {\"id\": \"…\",\n#    \"seq\": 1}\n"
        "echo done   # a comment with … is fine\n```\n\n<!-- docs-test: covered by tests/test_run.py::nope -->\n"
        "```sh\nmake run\n```\n"
    )
    script = page_script(page, 9999, tmp_path)
    assert "127.0.0.1:9999/api/matches/x" in script.text and "make run" not in script.text
    assert ": provided by the docs test: TOKEN" in script.text
    assert "__docs_out=$(\ncurl -s 127.0.0.1:9999/api/matches/x \\\n     -H 'A: b'\n)" in script.text
    assert [w for w, _ in script.answers] == ["page.md:7"]
    assert script.answers[0][1] == {"id": "…", "seq": 1}
    assert not names_a_test("tests/test_run.py::nope") and names_a_test(
        "tests/test_docs_examples.py::test_a_page_becomes_a_script_that_keeps_answers")
    page.write_text("```sh\ncurl -s localhost:8000/api/matches/3f9c…/state\n```\n")
    with pytest.raises(AssertionError, match="placeholder"):
        page_script(page, 9999, tmp_path)


# -- what the covered blocks name ---------------------------------------------------------------

def _covered_lines() -> list[tuple[str, str]]:
    out = []
    for block in all_blocks():
        if block.lang in SHELL_LANGS and block.marker is not None:
            for line in commands_of(block):
                code = strip_comment(line).strip()
                if code:
                    out.append((block.where, code))
    return out


def test_the_make_targets_the_docs_name_exist():
    """`make run`, `make test`, `make bench`…: each target the docs name is one
    the Makefile has (a dry run names its commands without running them)."""
    targets = {m for block in all_blocks() if block.lang in SHELL_LANGS
               for line in commands_of(block) for m in re.findall(r"\bmake\s+([\w-]+)", strip_comment(line))}
    assert {"run", "test"} <= targets
    for target in sorted(targets):
        dry = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert dry.returncode == 0 and dry.stdout.strip(), f"make {target}: {dry.stderr}"
    assert ".venv/bin/kroniek run" in subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True,
                                                      text=True, timeout=30).stdout
    assert "pytest" in subprocess.run(["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True,
                                      timeout=30).stdout


def test_the_commands_the_docs_name_exist():
    """A `kroniek …` line in a block that cannot run inline still parses: the
    command and every option it gives exist (parsed by the CLI, not run)."""
    import shlex

    import click

    from service.cli import main

    seen = 0
    for where, code in _covered_lines():
        words = shlex.split(code)
        for n, word in enumerate(words):
            # the command, not a word that happens to be its name (``useradd … kroniek``, ``sudo -u kroniek``)
            at_start = n == 0 or words[n - 1] in ("sudo", "exec", "&&", "||", ";", "|") or "=" in words[n - 1]
            if (word == "kroniek" and at_start) or word.endswith("bin/kroniek"):
                args = words[n + 1:]
                try:
                    cmd = main.get_command(click.Context(main), args[0]) if args else None
                    if cmd is None:
                        raise click.UsageError(f"no command {args[:1]}")
                    cmd.make_context(args[0], list(args[1:]))
                except click.ClickException as exc:
                    pytest.fail(f"{where}: {code}: {exc.format_message()}")
                seen += 1
                break
    assert seen >= 3  # run, serve and worker in the README at least
