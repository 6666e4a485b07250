"""Stapelen: the rules catalogue.

Rule id -> English statement with the Dutch source term. A RuleViolation
names one of these ids; every id has a test marked with it.
"""

from __future__ import annotations

from ..text import N_

RULES: dict[str, str] = {
    "stapelen.deck": N_(
        "One standard deck of 52 cards, no jokers (1 standaard kaartspel van 52 kaarten): a deal that misses "
        "or repeats a card is refused."
    ),
    "stapelen.tableau": N_(
        "The shuffled deck is laid face up in 4 overlapping rows of 13, giving a tableau of 13 columns "
        "(dertien rijtjes van vier); the card dealt last to a column is its top card."
    ),
    "stapelen.foundations": N_(
        "Each player has three foundations of his own in front of him (drie fundamenten), imaginary places "
        "where cards are stacked in the prescribed order; they start empty."
    ),
    "stapelen.first": N_(
        "The players agree who starts (wie er mag beginnen); it has no influence on the game, which is purely "
        "cooperative."
    ),
    "stapelen.turns": N_(
        "The players take turns (om de beurt); in his turn a player must take exactly one card from the "
        "tableau; a turn cannot be skipped (mag niet een beurt overslaan)."
    ),
    "stapelen.own_foundation": N_(
        "The card taken must fit one of the three foundations of the player to move (van de speler die aan de "
        "beurt is), never the partner's."
    ),
    "stapelen.empty_foundation": N_(
        "Any card may be put on an empty foundation (iedere willekeurige kaart)."
    ),
    "stapelen.build_up": N_(
        "On a foundation that holds cards, only a card one higher in value than its top card may be put "
        "(1 in waarde hoger): a 6 on a 5, and so on."
    ),
    "stapelen.wrap": N_("An Ace goes on a King, and a 2 on an Ace (Op een Heer kan een Aas gelegd worden)."),
    "stapelen.suits": N_(
        "Suits and colours do not matter, only the values (Enkel de waarde van de kaarten telt)."
    ),
    "stapelen.unlimited": N_(
        "A foundation may hold any number of cards, more than thirteen as well as fewer "
        "(dit mogen er dus meer dan dertien zijn, maar ook minder)."
    ),
    "stapelen.top_cards": N_("Only the top cards of the columns may be taken (alleen de bovenste kaarten)."),
    "stapelen.no_moving": N_(
        "Cards are never moved between columns nor shifted, not even into an empty column; a card on a "
        "foundation never goes back to the tableau, nor to another foundation."
    ),
    "stapelen.win": N_("When all cards of the tableau are taken, both players have won (beide spelers gewonnen)."),
    "stapelen.loss_strict": N_(
        "When the player to move cannot take a card that fits one of his own three foundations, the game ends "
        "and both players have lost. The rule is strict (heel strikt): it holds even with only two cards left "
        "that would fit the partner's foundations perfectly."
    ),
}

TERMS: dict[str, str] = {
    "delen": "deal",
    "pakken": "take",
    "rijtje": "column",
    "rijtjes": "columns",
    "fundament": "foundation",
    "fundamenten": "foundations",
    "stapelen": "build",
}


def succ(rank: int) -> int:
    """The rank that goes on ``rank``: one higher, with an Ace on a King."""
    return rank % 13 + 1


def pred(rank: int) -> int:
    """The rank a ``rank`` card goes on: one lower, with a King under an Ace."""
    return 13 if rank == 1 else rank - 1
