"""Sir Tommy voor twee: the rules catalogue.

Rule id -> English statement with the Dutch source term. A RuleViolation
names one of these ids; every id has a test marked with it.
"""

from __future__ import annotations

from ..text import N_

RULES: dict[str, str] = {
    "sir_tommy.deck": N_(
        "One standard deck of 52 cards, no jokers (1 standaard kaartspel van 52 kaarten): a drawn card that "
        "was already drawn, or a draw that repeats a card, is refused."
    ),
    "sir_tommy.stock": N_(
        "The shuffled deck lies face down as the stock (met de achterkant omhoog als raapstapel); its cards are "
        "unknown until drawn, and no view shows them."
    ),
    "sir_tommy.rows": N_(
        "The tableau has four rows (vier rijen), all empty at the start, filled and emptied during the game; "
        "cards lie face up in a row, overlapping, and only the top card of a row can be taken."
    ),
    "sir_tommy.foundations": N_(
        "Each player has four foundations (vier fundamenten) of his own, empty at the start."
    ),
    "sir_tommy.up_down": N_(
        "One player builds up from the Aces: an Ace starts a foundation, then 2, 3, … (één waarde hoger); the other "
        "builds down from the Kings: a King starts a foundation, then Queen, Jack, 10, … (één waarde lager)."
    ),
    "sir_tommy.max_thirteen": N_(
        "A foundation holds at most 13 cards: Ace to King for the one player, King to Ace for the other."
    ),
    "sir_tommy.suits": N_(
        "Suits and colours do not matter, only the values (Enkel de waarde van de kaarten telt)."
    ),
    "sir_tommy.first": N_(
        "The players agree who builds up from the Aces; that player starts (deze speler mag beginnen)."
    ),
    "sir_tommy.turns": N_("The players take turns (er wordt om de beurt gespeeld)."),
    "sir_tommy.draw_three": N_(
        "A turn starts with drawing three cards from the stock, face up in front of the player; the last time "
        "only one card is left (behalve de laatste keer, dan is er nog maar één kaart over)."
    ),
    "sir_tommy.build_sources": N_(
        "The player to move builds his own foundations from the three drawn cards and the top cards of the rows, "
        "in any interleaving (afwisselen); a newly uncovered top card may be taken too. Only the player to move "
        "builds, and only on his own foundations."
    ),
    "sir_tommy.optional": N_(
        "Building is never compulsory (Het is niet verplicht): fitting cards may stay on the tableau, and a "
        "fitting drawn card may be put on the tableau instead."
    ),
    "sir_tommy.place_leftovers": N_(
        "The drawn cards the player did not (could not or would not) build must be put on the tableau, each on "
        "any of the four rows, on any card whatever its value, or on an empty row; after that the other player "
        "is to move (Hierna is de andere speler aan de beurt)."
    ),
    "sir_tommy.place_last": N_(
        "Reading chosen: the leftovers are put on the rows at the end of the turn; once the player has put a "
        "drawn card on a row he builds no more this turn (the option “Building and placing may alternate” lifts "
        "this)."
    ),
    "sir_tommy.after_stock": N_(
        "When the stock is empty the players go on in turns, building fitting top cards of the rows on their "
        "foundations; a player may skip a turn (een beurt overslaan), because he cannot or will not play."
    ),
    "sir_tommy.no_moving": N_(
        "Cards on a foundation never go back to the tableau nor to another foundation; cards on the tableau are "
        "never moved to another row."
    ),
    "sir_tommy.win": N_(
        "When the stock is empty and every card of the tableau is taken, so all 52 cards lie on the foundations, "
        "both players have won."
    ),
    "sir_tommy.super_winner": N_(
        "A player who collected 30 cards or more in a won game (the other then has 22 or fewer) is the "
        "super-winner (super-winnaar)."
    ),
    "sir_tommy.loss": N_(
        "With the stock empty and cards left on the tableau, the game ends lost for both when neither player can "
        "or will build any more. Precisely: at once when no top card fits any foundation of either player, or "
        "when two turns in a row end without a build (both players passed in succession)."
    ),
}

TERMS: dict[str, str] = {
    "trekken": "draw",
    "raapstapel": "stock",
    "opbouwen": "build",
    "leggen": "place",
    "klaar": "end_turn",
    "passen": "end_turn",
    "pas": "end_turn",
    "rij": "row",
    "rijen": "rows",
    "fundament": "foundation",
    "fundamenten": "foundations",
    "super-winnaar": "super_winner",
}

#: cards collected that make a winner the super-winner
SUPER = 30
