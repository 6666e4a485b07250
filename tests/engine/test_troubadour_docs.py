"""Troubadour: the worked example of docs/games/troubadour.md is a real match.
Its `ev '…'` lines are entered in order at a physical table; the one the doc
shows refused is refused with the rule it names, every other one is accepted,
and the review lines the doc quotes sit at the sequence numbers it gives."""

import json
import re
from pathlib import Path

from engine.core import RuleViolation

from .test_troubadour_support import GAME, Rec

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "troubadour.md"


def example() -> tuple[list[str], str]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Worked example")
    section = text[start: text.index("## Readings chosen")]
    return section.splitlines(), section


def test_the_worked_example_replays_as_the_doc_says():
    lines, section = example()
    rec = Rec(2)
    refused = 0
    for i, line in enumerate(lines):
        m = re.match(r"^ev '([^']*)'", line)
        if not m:
            continue
        event = json.loads(m.group(1))
        answer = lines[i + 1] if i + 1 < len(lines) else ""
        if answer.startswith("# → 422"):
            rule = re.search(r'"rule": "([^"]+)"', lines[i + 1] + lines[i + 2]).group(1)
            try:
                rec.add(event["type"], event.get("seat"), event["data"])
            except RuleViolation as err:
                assert err.rule == rule
                refused += 1
                continue
            raise AssertionError(f"the doc shows {event} refused, but it was accepted")
        rec.add(event["type"], event.get("seat"), event["data"])
    assert refused == 1
    review = section.split("Once the worker has annotated the log")[1]
    quoted = re.findall(r'"seq": (\d+), "type": "(\w+)",\s*#?\s*"summary": "([^"]+)"', review)
    assert len(quoted) == 2
    for seq, type_, summary in quoted:
        event = rec.log[int(seq) - 1]
        assert (event["seq"], event["type"]) == (int(seq), type_)
        before, _, seat, data, after = rec.steps[int(seq) - 2]
        assert str(GAME.describe(before, type_, seat, data, after)) == summary
