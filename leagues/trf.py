"""FIDE's Tournament Report File (TRF-16, with the extensions bbpPairings and
JaVaFo read) for two-player Swiss leagues: written so an arbiter can check a
round with an independent pairing program, read so a tournament begun in
another program can go on here.

A player line (``001``) has fixed columns: pairing number (5–8), name
(15–47), rating (49–52), points (81–84), rank (86–89), then one block of ten
characters per round from column 92: the opponent's pairing number (``0000``
for none), the colour (``w``, ``b``, ``-``) and the result (``1``, ``=``,
``0`` played; ``+``/``-`` won or lost by forfeit; ``U`` the pairing-allocated
bye; ``Z`` not paired). ``XXR`` gives the planned rounds, ``XXC white1`` the
first seed's colour in round 1, and bbpPairings's ``BBW``/``BBD``/``BBL``/
``BBZ``/``BBF``/``BBU`` the points of a win, draw, loss, zero-point bye,
forfeit loss and pairing-allocated bye where they are not 1, ½, 0, 0, 0, 1.

Kroniek's players are its pairing numbers in registration order, without
ratings (the columns stay blank). What TRF cannot say is refused with the
reason, never written wrong: a points system a tenth cannot express, a
forfeit win worth other than a win, rank points, tables of more than two.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.core import MalformedEvent, RuleViolation

from .standings import Rules

#: bbpPairings's point codes and the ``Rules`` field each one is (BBZ: a round not paired scores nothing here)
POINT_CODES = (("BBW", "win"), ("BBD", "draw"), ("BBL", "loss"), ("BBF", "forfeit_loss"), ("BBU", "bye"))
STANDARD = {"BBW": Fraction(1), "BBD": Fraction(1, 2), "BBL": Fraction(0), "BBZ": Fraction(0),
            "BBF": Fraction(0), "BBU": Fraction(1)}
NAME_WIDTH = 33
ROUND_COLUMN = 91  # 0-based start of round 1's block
#: the most lines and rounds a file read here may have (a league's own limits bound the players)
MAX_LINES = 10_000
MAX_ROUNDS = 99


class TrfError(MalformedEvent):
    """A TRF file that cannot be read, or a league TRF cannot express: says where and why."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}", field="trf")
        self.line = line


class TrfCannotSay(RuleViolation):
    """A league TRF cannot express (written wrong, a pairing program would pair another tournament)."""

    def __init__(self, message: str) -> None:
        super().__init__("league.trf", message)


def _tenths(value: Fraction, what: str) -> str:
    if (value * 10).denominator != 1 or not 0 <= value <= 99:
        raise TrfCannotSay(f"TRF writes points in tenths from 0 to 99; {what} is {value}")
    return f"{float(value):.1f}"


# -- writing ---------------------------------------------------------------------------------------

def write(state: Any, standings: list[Any] | None = None) -> str:
    """The league's TRF after its last complete round (a round still being played is left out, as the
    pairing program must not see half of it); a withdrawn player carries a ``Z`` for the next round, so a
    pairing program leaves him out as Kroniek does."""
    if state.format not in ("swiss", "round_robin", "double_round_robin"):
        raise TrfCannotSay(f"TRF holds two-player games; a {state.format} league's tables cannot be written")
    rules: Rules = state.rules
    if rules.rank_points is not None:
        raise TrfCannotSay("TRF scores a game as a win, draw or loss; this league's rank points cannot be written")
    if rules.forfeit_win != rules.win:
        raise TrfCannotSay(f"TRF scores a forfeit win as a win ({rules.win}); this league gives {rules.forfeit_win}")
    points = {"BBW": rules.win, "BBD": rules.draw, "BBL": rules.loss, "BBZ": Fraction(0),
              "BBF": rules.forfeit_loss, "BBU": rules.bye}
    said = {code: _tenths(value, code) for code, value in points.items()}
    rounds = [r for r in state.rounds if r.complete]
    numbers = {p: i + 1 for i, p in enumerate(state.players)}
    blocks: dict[str, list[str]] = {p: [] for p in state.players}
    score = {p: Fraction(0) for p in state.players}
    for rnd in rounds:
        seen = set()
        for board in rnd.boards:
            if len(board.players) != 2:
                raise TrfCannotSay(f"round {rnd.number} has a board of {len(board.players)}; TRF holds two-player games")
            w, b = board.players
            out = board.outcome
            if out.forfeit is not None:
                codes = ["-" if p in out.forfeited else "+" for p in (w, b)]
            else:
                codes = ["1" if out.ranks[i] < out.ranks[1 - i] else "0" if out.ranks[i] > out.ranks[1 - i] else "="
                         for i in (0, 1)]
            for i, (me, other) in enumerate(((w, b), (b, w))):
                blocks[me].append(f"{numbers[other]:4d} {'wb'[i]} {codes[i]}")
                score[me] += {"1": rules.win, "=": rules.draw, "0": rules.loss, "+": rules.win,
                              "-": rules.forfeit_loss}[codes[i]]
            seen.update((w, b))
        if rnd.bye is not None:
            blocks[rnd.bye].append("0000 - U")
            score[rnd.bye] += rules.bye
            seen.add(rnd.bye)
        for p in state.players:
            if p not in seen:
                blocks[p].append("0000 - Z")
    if len(rounds) < state.total_rounds:
        for p in state.withdrawn:
            blocks[p].append("0000 - Z")
    rank = {}
    for s in standings or ():
        rank[s.player] = s.rank
    lines = [f"012 {state.name}", f"062 {len(state.players)}", "092 Swiss system, FIDE Dutch (C.04.3)"
             if state.format == "swiss" else "092 Round robin (Berger tables)", f"XXR {state.total_rounds}",
             "XXC white1"]
    lines += [f"{code} {said[code]:>4}" for code in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU")
              if points[code] != STANDARD[code]]
    written: dict[str, str] = {}
    for p in state.players:
        name = name_field(p)
        if not name.strip():
            raise TrfCannotSay(f"TRF keeps {NAME_WIDTH} bytes of a name, without trailing spaces: {p!r} would "
                               "read as no name")
        if name.rstrip() in written:
            raise TrfCannotSay(f"TRF keeps {NAME_WIDTH} bytes of a name, without trailing spaces: {p!r} and "
                               f"{written[name.rstrip()]!r} would both read {name.rstrip()!r}")
        written[name.rstrip()] = p
        head = (f"001 {numbers[p]:4d}      {name} {'':4} {'':3} {'':11} {'':10} "
                f"{_tenths(score[p], p + chr(39) + 's points'):>4} {rank.get(p, numbers[p]):4d}")
        lines.append((head + "".join("  " + blk for blk in blocks[p])).rstrip())
    return "\n".join(lines) + "\n"


def name_field(name: str) -> str:
    """A name in TRF's 33 columns, counted in bytes of UTF-8 (a pairing program reads the columns as bytes):
    cut at a character's edge where it is longer, padded with spaces."""
    data = name.encode()
    while len(data) > NAME_WIDTH:
        name = name[:-1]
        data = name.encode()
    return name + " " * (NAME_WIDTH - len(data))


# -- reading ---------------------------------------------------------------------------------------

@dataclass
class Game:
    white: int
    black: int
    #: the results as the file gives them, white's then black's: "1", "=", "0", "+", "-"
    results: tuple[str, str]


@dataclass
class TrfRound:
    number: int
    games: list[Game] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)  # U: the pairing-allocated bye
    absent: list[int] = field(default_factory=list)  # Z, or no block


@dataclass
class Tournament:
    name: str
    planned_rounds: int | None
    points: dict[str, Fraction]
    players: dict[int, str]  # pairing number -> name
    stated: dict[int, Fraction]  # the points each 001 line gives
    rounds: list[TrfRound]
    sha256: str

    def rules(self) -> dict[str, Any]:
        """The league rules these points make (as ``Rules.from_dict`` reads them), as strings of fractions."""
        p = self.points
        return {"win": str(p["BBW"]), "draw": str(p["BBD"]), "loss": str(p["BBL"]), "bye": str(p["BBU"]),
                "forfeit_win": str(p["BBW"]), "forfeit_loss": str(p["BBF"])}


PLAYED = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}
CANONICAL = {"W": "1", "L": "0", "D": "="}


def read(text: str) -> Tournament:
    """A TRF file's tournament; every player line's rounds checked against its opponents' and its points
    against the results (as bbpPairings checks them)."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise TrfError(f"a TRF file here has at most {MAX_LINES:,} lines; this one has {len(lines):,}")
    name, planned, points = "", None, dict(STANDARD)
    players: dict[int, str] = {}
    stated: dict[int, Fraction] = {}
    blocks: dict[int, list[tuple[int, str, str, int]]] = {}
    for n, text_line in enumerate(lines, start=1):
        line = _Columns(text_line, n)
        code = text_line[:3]
        if code == "012":
            name = text_line[4:].strip()
        elif code == "XXR":
            planned = _int(line[4:], n, "XXR (the planned rounds)", 1, MAX_ROUNDS)
        elif code in STANDARD:
            points[code] = _points(line[4:], n, code)
        elif code == "001":
            number = _int(line[4:8], n, "the pairing number", 1, 9999)
            if number in players:
                raise TrfError(f"pairing number {number} is given twice", n)
            player = line[14:47].rstrip()  # the padding; a leading space is the name's own
            if not player:
                raise TrfError(f"player {number} has no name", n)
            if player in players.values():
                raise TrfError(f"the name {player!r} is given twice; a league's players have distinct names", n)
            players[number] = player
            stated[number] = _points(line[80:84], n, "the points") if line[80:84].strip() else Fraction(0)
            blocks[number] = []
            rest = line[ROUND_COLUMN:]
            for r in range(0, len(rest), 10):
                block = rest[r:r + 8]
                if not block.strip():
                    blocks[number].append((0, "-", "Z", n))
                    continue
                if len(block) < 8 or block[4] != " " or block[6] != " ":
                    raise TrfError(f"player {number}'s round {r // 10 + 1} block {block!r} is not "
                                   "'nnnn c r' (opponent, colour, result)", n)
                opponent = _int(block[:4], n, f"player {number}'s round {r // 10 + 1} opponent", 0, 9999)
                colour, result = block[5].lower(), block[7].upper() if block[7].isalpha() else block[7]
                if colour not in "wb-":
                    raise TrfError(f"player {number}'s round {r // 10 + 1} colour {block[5]!r} is not w, b or -", n)
                blocks[number].append((opponent, colour, result, n))
        elif code.strip() and not code.isdigit() and not code.startswith(("XX", "BB")):
            raise TrfError(f"unknown record {code!r}", n)
    if not players:
        raise TrfError("no player lines (001)")
    width = max(len(b) for b in blocks.values())
    if width > MAX_ROUNDS:
        raise TrfError(f"a TRF file here has at most {MAX_ROUNDS} rounds; this one has {width}")
    rounds = []
    for r in range(width):
        rnd = TrfRound(r + 1)
        for number in sorted(players):
            opponent, colour, result, n = blocks[number][r] if r < len(blocks[number]) else (0, "-", "Z", 0)
            where = f"player {number}, round {r + 1}"
            if opponent == 0:
                if result == "U":
                    rnd.byes.append(number)
                elif result in ("Z", "-", " "):
                    rnd.absent.append(number)
                elif result in ("H", "F"):
                    raise TrfError(f"{where}: a {'half' if result == 'H' else 'full'}-point bye is not a "
                                   "Kroniek league's (only the pairing-allocated bye, U, and not playing, Z)", n)
                else:
                    raise TrfError(f"{where}: result {result!r} without an opponent", n)
                continue
            if opponent not in players:
                raise TrfError(f"{where}: opponent {opponent} has no player line", n)
            if result not in PLAYED:
                raise TrfError(f"{where}: result {result!r} is not one of 1 = 0 W D L + -", n)
            theirs = blocks[opponent][r] if r < len(blocks[opponent]) else None
            mirrors = theirs is not None and theirs[0] == number and (
                theirs[2] == PLAYED[result] or result == theirs[2] == "-") and (  # "-" both: both forfeited
                {colour, theirs[1]} == {"w", "b"} or colour == theirs[1] == "-")
            if not mirrors:
                said = "nothing" if theirs is None else f"{theirs[0]:04d} {theirs[1]} {theirs[2]}"
                raise TrfError(f"{where}: {number} meets {opponent} as {colour} with {result}, but {opponent}'s line "
                               f"says {said} for that round", n)
            if number > opponent:
                continue  # the lower number's line made the game
            white_first = colour != "b"
            w, b = (number, opponent) if white_first else (opponent, number)
            mine, other = CANONICAL.get(result, result), CANONICAL.get(theirs[2], theirs[2])
            rnd.games.append(Game(w, b, (mine, other) if white_first else (other, mine)))
        rounds.append(rnd)
    while rounds and not rounds[-1].games and not rounds[-1].byes:
        rounds.pop()  # a last column of Z only: the next round's absentees, not a round played
    tally = {p: Fraction(0) for p in players}
    value = {"1": points["BBW"], "=": points["BBD"], "0": points["BBL"], "+": points["BBW"], "-": points["BBF"]}
    for rnd in rounds:
        for g in rnd.games:
            tally[g.white] += value[g.results[0]]
            tally[g.black] += value[g.results[1]]
        for p in rnd.byes:
            tally[p] += points["BBU"]
        for p in rnd.absent:
            tally[p] += points["BBZ"]
    wrong = [p for p in sorted(players) if tally[p] != stated[p]]
    if wrong:
        p = wrong[0]
        raise TrfError(f"player {p} ({players[p]}) has {stated[p]} points on his line, but his results give "
                       f"{tally[p]} ({len(wrong)} player(s) disagree); check the point codes BBW … BBU")
    if planned is not None and planned < len(rounds):
        raise TrfError(f"XXR says {planned} rounds, but {len(rounds)} were played")
    digest = hashlib.sha256(text.encode()).hexdigest()
    return Tournament(name or "Imported tournament", planned, points, players, stated, rounds, digest)


class _Columns:
    """A line read by its byte columns, as pairing programs read TRF (a name in UTF-8 may take more bytes
    than characters)."""

    def __init__(self, text: str, n: int) -> None:
        self.data, self.n = text.encode(), n

    def __getitem__(self, cut: slice) -> str:
        try:
            return self.data[cut].decode()
        except UnicodeDecodeError:
            raise TrfError(f"columns {cut.start + 1}–{cut.stop} cut a character in two: TRF's columns are "
                           "counted in bytes", self.n) from None

    def __len__(self) -> int:
        return len(self.data)


def _int(text: str, line: int, what: str, low: int, high: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise TrfError(f"{what} {text.strip()!r} is not a whole number", line) from None
    if not low <= value <= high:
        raise TrfError(f"{what} {value} is not {low}–{high}", line)
    return value


def _points(text: str, line: int, what: str) -> Fraction:
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise TrfError(f"{what} {text.strip()!r} is not a number", line) from None
    if not 0 <= value <= 9999:
        raise TrfError(f"{what} {value} is out of range", line)
    return value


def import_rounds(t: Tournament) -> list[dict[str, Any]]:
    """The league events (``import_round``'s data) of the tournament's rounds, by name."""
    name = t.players
    out = []
    for rnd in t.rounds:
        if len(rnd.byes) > 1:
            raise TrfError(f"round {rnd.number} gives {len(rnd.byes)} pairing-allocated byes; a league has one")
        boards = []
        for g in rnd.games:
            players = [name[g.white], name[g.black]]
            if "+" in g.results or "-" in g.results:
                forfeited = [p for p, r in zip(players, g.results) if r == "-"]
                boards.append({"players": players, "forfeited": forfeited})
            else:
                rank = {"1": 1, "=": 1, "0": 2}
                boards.append({"players": players, "ranks": [rank[g.results[0]], rank[g.results[1]]]})
        out.append({"round": rnd.number, "boards": boards, "bye": name[rnd.byes[0]] if rnd.byes else None,
                    "source": f"TRF sha256:{t.sha256}"})
    return out
