"""Twaalven en veertienen: the rules catalogue and the pairs.

Rule id -> English statement with the Dutch source term. A RuleViolation
names one of these ids; every id has a test marked with it.
"""

from __future__ import annotations

from ..text import N_

RULES: dict[str, str] = {
    "twaalven.deck": N_(
        "One standard deck of 52 cards, no jokers (1 standaard kaartspel van 52 kaarten): a deal that misses "
        "or repeats a card is refused."
    ),
    "twaalven.tableau": N_(
        "The shuffled deck is laid face up (met de voorkant naar boven) in 4 overlapping rows of 13, giving "
        "a tableau of 13 columns (dertien rijtjes van vier); the card dealt last to a column is its top card."
    ),
    "twaalven.roles": N_(
        "The players agree who collects the pairs of twelve and who the pairs of fourteen "
        "(wie de paren van twaalf en wie de paren van veertien verzamelt)."
    ),
    "twaalven.first": N_(
        "The players agree who starts (wie er mag beginnen); the choice may depend on the tableau."
    ),
    "twaalven.values": N_(
        "Values: Ace counts 1, Jack 11 (Boer telt altijd als 11); for fourteen the Queen counts 12 and the King "
        "13; for twelve Queen and King together count as twelve (Koningin en Koning samen als twaalf)."
    ),
    "twaalven.pairs_twelve": N_(
        "The pairs of twelve (paren van twaalf) are exactly Q-K, A-J, 2-10, 3-9, 4-8, 5-7 and 6-6."
    ),
    "twaalven.pairs_fourteen": N_(
        "The pairs of fourteen (paren van veertien) are exactly A-K, 2-Q, 3-J, 4-10, 5-9, 6-8 and 7-7."
    ),
    "twaalven.suits": N_(
        "Suits and colours do not matter, only the values (Enkel de waarde van de kaarten telt)."
    ),
    "twaalven.turns": N_(
        "The players take turns (om de beurt); in his turn a player must take exactly one pair of his own sum, "
        "then it is the other's turn; a turn cannot be skipped (mag niet een beurt overslaan)."
    ),
    "twaalven.top_cards": N_("Only the top cards of the columns may be taken (alleen de bovenste kaarten)."),
    "twaalven.different_columns": N_("The two cards of a pair come from different columns (van verschillende rijtjes)."),
    "twaalven.no_moving": N_(
        "Cards are never moved between columns nor shifted, not even into an empty column "
        "(niet tussen de rijtjes verplaatst ... ook niet als er rijtjes \"op\" zijn)."
    ),
    "twaalven.win": N_("When all cards of the tableau are taken, both players have won (beide spelers gewonnen)."),
    "twaalven.loss": N_(
        "When the player to move cannot take a valid pair of his sum from the top cards, the game ends and "
        "both players have lost (beide spelers verloren)."
    ),
}

#: the Dutch table names a recorder may use, for the docs: alias -> canonical term
TERMS: dict[str, str] = {
    "delen": "deal",
    "rollen": "roles",
    "pakken": "take",
    "rijtje": "column",
    "rijtjes": "columns",
    "twaalf": "twelve",
    "veertien": "fourteen",
    "paar": "pair",
}

TWELVE, FOURTEEN = 12, 14

#: the path of pair types over the ranks: neighbours alternate 14, 12, 14, …
#: with the self-pairs 6-6 (twelve) and 7-7 (fourteen) at its ends
PATH = (6, 8, 4, 10, 2, 12, 13, 1, 11, 3, 9, 5, 7)


def _types() -> tuple[tuple[int, int, int], ...]:
    out = [(6, 6, TWELVE)]
    for i in range(12):
        out.append((PATH[i], PATH[i + 1], FOURTEEN if i % 2 == 0 else TWELVE))
    out.append((7, 7, FOURTEEN))
    return tuple(out)


#: pair type id -> (rank, rank, sum); 14 types, 7 of each sum
PAIR_TYPES = _types()
#: the number of times each pair type is taken in every won game
QUOTA = tuple(1 if a == b else 2 for a, b, _ in PAIR_TYPES)
_SHORT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _table(kind: int) -> tuple[tuple[int, ...], ...]:
    t = [[-1] * 14 for _ in range(14)]
    for i, (a, b, k) in enumerate(PAIR_TYPES):
        if k == kind:
            t[a][b] = t[b][a] = i
    return tuple(tuple(row) for row in t)


#: TYPE[kind][rank][rank] -> pair type id, or -1 if the two ranks are no pair of that sum
TYPE = {TWELVE: _table(TWELVE), FOURTEEN: _table(FOURTEEN)}


def pair_type(kind: int, r1: int, r2: int) -> int:
    return TYPE[kind][r1][r2]


def pair_name(t: int) -> str:
    a, b, _ = PAIR_TYPES[t]
    lo, hi = sorted((a, b))
    if lo == 1 and hi == 13:
        return "A-K"
    if lo == 1:
        return f"A-{_SHORT[hi]}"
    return f"{_SHORT[lo]}-{_SHORT[hi]}"


#: pair type id -> its name, e.g. "Q-K", "A-J", "6-6"
PAIR_NAMES = tuple(pair_name(t) for t in range(len(PAIR_TYPES)))
