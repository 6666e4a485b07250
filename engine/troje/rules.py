"""The Troje (Troy) scenario's rules catalogue: rule id -> English statement,
with the Dutch term of the rules text in brackets (Troje, Klaus Teuber / Kosmos
2001, "vrij vertaald door A.J. van Kesteren", Vlaams Spellenarchief).

Every sentence of the Dutch text that states a rule has an id here (the
story, the author's note and the component lists, lost in the transcription,
state none). A few ids state what the text leaves out but the game needs;
``SOURCES`` says where each of those comes from (the components, or an
inference that the options make configurable). A RuleViolation names one of
these ids; every id has a test marked with it (tests/engine/test_troje_rules.py
for the scenario's own mechanics, test_troje_game.py for the rules the
Catan engine's turn flow applies).
"""

from __future__ import annotations

from ..text import N_

P = "troje."

RULES: dict[str, str] = {
    # -- players, allegiances, board (Kort overzicht, De voorbereiding) ------------------
    P + "players": N_("Troje is played by 4 or 6 players (the box holds 3 Troy and 3 Mycenae decision cards)."),
    P + "allegiance": N_("At the start each player gets a secret decision card (beslissingskaart) that decides whether "
    "the player fights for Troy (Troje) or for the Greek city Mycenae (Mykene); it stays secret until the end."),
    P + "allegiance_teams": N_("The decision cards are dealt so that the sides are equal: 2 Troy and 2 Mycenae with 4 "
    "players, 3 and 3 with 6."),
    P + "board_cut": N_("With six players the whole board is used; with four players the right third of the board "
    "is left out."),
    P + "numberless_land": N_("Land hexes without a number (landvelden zonder getallen) yield no resources."),
    P + "board_placeholder": N_("The printed board is not published: the shipped Troje board and ship-tile "
    "distribution are placeholders, marked so wherever they are shown, until a table enters its own."),
    # -- the game in general (Spelverloop) -------------------------------------------------
    P + "base_rules": N_("The rules of the base game apply; with six players also those of the 5–6 player extension "
    "(its bank, and its turn: the Special Building Phase, or the paired players' turn or one player at a time, "
    "the option “How turns run”); the rules below add to or replace them."),
    P + "production": N_("Production phase (opbrengstfase): the player whose turn it is rolls the dice; resources "
    "(grondstoffen) are handed out as in the base game."),
    P + "no_development_cards": N_("In the trade and build phase (handels- en bouwfase) roads, settlements and cities "
    "are built as usual; development cards (ontwikkelingskaarten) cannot be bought."),
    P + "turn_options": N_("Besides building, the player whose turn it is may donate resources to Troy or Mycenae, "
    "bring about a battle when the support stack is full, and build one or more ships."),
    # -- 2a donating (grondstoffen afdragen) -------------------------------------------------
    P + "donate": N_("To support his city a player may, once during his trade and build phase, donate (afdragen) 1, "
    "2 or 3 resource cards."),
    P + "donate_face_down": N_("Donated cards are laid face down on the support stack (ondersteuningsstapel); the "
    "other players may not see which cards are given."),
    P + "donate_any": N_("Any resource may be donated; only the resources on one's decision card help one's side."),
    P + "trade_point": N_("For donating 1, 2 or 3 cards (free choice) the player gets one trade point (handelspunt) "
    "from the supply: one per donation, not per card."),
    P + "initial_stack": N_("The game starts with a support stack of 4 face-down cards, 2 favouring Troy and 2 "
    "favouring Mycenae (the option “Support stack at the start”)."),
    # -- 2b the battle (strijd om Troje) ------------------------------------------------------
    P + "battle_trigger": N_("A battle episode is fought when a player has ended his turn and the support stack holds "
    "10 or more cards with 4 players, 13 or more with 6 (with the Special Building Phase before or after it, with "
    "paired turns after either part or after the whole turn: the option “When the battle comes”)."),
    P + "battle_reveal": N_("The player who just ended his turn takes all cards of the support stack, shuffles them "
    "and turns up 7 cards with 4 players, 10 with 6."),
    P + "battle_remainder": N_("The cards not turned up stay face down as the first cards of the next support stack."),
    P + "battle_score": N_("Of the turned-up cards every ore (erts) and wool (wol) is a point for Troy, every lumber "
    "(hout) and grain (graan) a point for Mycenae; brick (steen) is neutral and scores nothing."),
    P + "battle_cards": N_("The turned-up cards go back to the bank (the option “Cards turned up in a battle”)."),
    P + "saga_move": N_("The battles are kept on the saga track (sage-lijst): if Troy has more points, Troy's "
    "victory point card moves one field toward the brown arrow; if Mycenae has more, Mycenae's moves one field "
    "toward the green arrow."),
    P + "saga_tie": N_("On a tie neither victory point card moves."),
    P + "saga_vp": N_("A city's victory point card shows how many victory points every player with that city's "
    "decision card has (fields worth 1, 2, 3, 4 and 6 outward from the start; the option “Saga track”)."),
    # -- 2c ships (schepen bouwen) ------------------------------------------------------------
    P + "ship_cost": N_("A ship costs one wool, one lumber and two trade points."),
    P + "ship_tile": N_("Having paid, the player turns over the topmost ship tile (scheepsfiche) of his colour and "
    "lays it on the board; its advantage, shown on the back, is then known to all."),
    P + "ship_symbol": N_("Ship tiles go in the middle of sea tiles (zeetegels) that show a ship symbol."),
    P + "ship_one_per_tile": N_("Each sea tile holds at most one ship tile."),
    P + "ship_connect": N_("A ship may only go on a sea tile with one of the player's own settlements on a corner of "
    "the tile, or next to a sea tile that already holds one of the player's ships."),
    P + "ship_moves_sea_people": N_("After building a ship the player must move the sea people figure "
    "(zeevaardersfiguur)."),
    P + "ship_on_sea_people": N_("A player may build a ship on the sea tile the sea people stand on, since they are "
    "moved right after."),
    P + "ship_advantage": N_("Building a ship gives a permanent advantage (voordeel), shown on the back of the tile."),
    P + "adv_harbor": N_("Advantage 3:1: from now on the player may trade three equal resources for any other (a 3:1 "
    "harbour of the base game)."),
    P + "adv_vp": N_("Advantage VP: the ship is worth one extra victory point."),
    P + "adv_swap": N_("Advantage swap: in his trade and build phase the ship's owner may take one card of the support "
    "stack, blind, and in return put one of his hand cards back on the stack (it may be the card just taken)."),
    P + "adv_chip": N_("Advantage trade chip: the player takes one of the 2:1 trade chips (handelsfiches); from now on "
    "he trades the chip's resource 2:1 for any resource (a 2:1 harbour of the base game). The text says he may "
    "(mag) take one: the option “Trade chip of a ship” says whether he must or may also leave them."),
    P + "adv_draw": N_("Advantage draw: in his trade and build phase the ship's owner may draw one card from the "
    "support stack without putting one back."),
    P + "ship_tiles": N_("Each colour has its own face-down stack of ship tiles, shuffled, whose advantages the "
    "table knows as a whole but not in order (7 per colour; the distribution is the option “Ship tiles”)."),
    P + "trade_chips": N_("There are 10 trade chips, two per resource; an advantage asks for a chip that is still "
    "in the supply."),
    P + "advantage_use": N_("An advantage that is used in the trade and build phase (swap, draw) is used at most once "
    "per turn for each ship that has it (the option “Swap and draw advantages”)."),
    # -- the seven and the sea people (zeevolk) ----------------------------------------------
    P + "seven": N_("On a 7 the rules of the base game apply (discarding), but the sea people figure is moved "
    "instead of the robber; there is no robber on land."),
    P + "sea_people_when": N_("The sea people are moved when a 7 is rolled and when a ship is built."),
    P + "sea_people_tile": N_("The figure goes to the middle of a free sea tile or one with a ship tile, another tile "
    "than the one it stands on."),
    P + "sea_people_steal": N_("The mover may draw one resource card from a player who has a settlement on a corner "
    "of that sea tile or a ship on it."),
    P + "sea_people_choose": N_("If the mover could draw from more than one other player, he must choose one and draw "
    "from him."),
    P + "sea_people_block": N_("As long as the figure stands on a ship tile, that ship's advantages cannot be used."),
    P + "sea_people_start": N_("The sea people start off the board (or on the tile the option “Where the sea people start” "
    "names) and enter it on their first move."),
    # -- other rules (Overig) ----------------------------------------------------------------
    P + "trade_points_not_resources": N_("Trade points are not resources: they cannot be traded or exchanged (nor "
    "stolen or discarded)."),
    P + "longest_road_roads_only": N_("The Longest Trade Route (langste handelsroute) is built of roads only; ships "
    "do not extend it."),
    # -- the end (Einde van het spel) ------------------------------------------------------------
    P + "win_15": N_("A player who has 15 or more victory points in his own turn wins the game."),
    P + "war_end": N_("When a city's victory point card is put on the saga track's field with a six, the Trojan war is "
    "over and that city has won it; the player with the most victory points at that moment wins the game."),
    P + "war_tiebreak": N_("If several players have the most victory points when the war ends, the one with the most "
    "trade points wins (still equal: they share the win)."),
    # -- recording ---------------------------------------------------------------------------
    P + "hidden_cards": N_("Donated cards, blind draws from the support stack and the remainder after a battle are "
    "known per viewer as known plus unseen cards; a move is accepted if some assignment of the unseen cards "
    "allows it, and nothing narrows but what the rules show (a battle's turned-up cards, the end)."),
    P + "allegiance_knowledge": N_("A recorder enters each allegiance privately (only the seat itself and the referee "
    "see it) or leaves them unknown until the reveal at the end; a player's saga victory points are not shown to "
    "anyone who does not know his allegiance, and a claimed 15-point win is checked at the reveal."),
}

#: Rules the text does not state, and where they come from ("notes": the
#: project's research notes on the scenario, their section numbers).
SOURCES: dict[str, str] = {
    P + "players": "components (BGG review, French list: team game for 4 or 6)",
    P + "allegiance_teams": "components: 3 Troy + 3 Mycenae decision cards, 2 + 2 with 4 players (French list)",
    P + "board_placeholder": "the printed layout was not found in any source (notes §0.3)",
    P + "initial_stack": "Czech report (notes §2.4); the text's component list is lost",
    P + "battle_cards": "inferred (notes §2.7.3): the text does not say where turned-up cards go",
    P + "saga_vp": "field values inferred (notes §2.5): the worked example fixes the third field at 3",
    P + "ship_tiles": "components: 7 ship tiles per colour; their advantage distribution is unknown (notes §2.6)",
    P + "trade_chips": "components: 10 trade chips 2:1, two per resource",
    P + "advantage_use": "inferred (notes §2.7.7)",
    P + "sea_people_start": "inferred: the text does not say where the figure starts",
    P + "war_tiebreak": "the shared win on equal trade points is inferred; the text stops at trade points",
    P + "hidden_cards": "recording rule (issue 13)",
    P + "allegiance_knowledge": "recording rule (issue 13)",
}

#: Dutch table terms -> the English names the engine uses (the API accepts both).
TERMS: dict[str, str] = {
    "troje": "troy", "mykene": "mycenae", "beslissingskaart": "decision_card", "beslissingskaarten": "decision_card",
    "ondersteuningsstapel": "support_stack", "steunstapel": "support_stack", "afdragen": "donate",
    "grondstof": "resource", "grondstoffen": "resources", "grondstofkaart": "resource_card",
    "handelspunt": "trade_point", "handelspunten": "trade_points", "handelsfiche": "trade_chip",
    "handelsfiches": "trade_chips", "handelskaartje": "trade_chip", "scheepsfiche": "ship_tile",
    "scheepsfiches": "ship_tiles", "schip": "ship", "schepen": "ships", "zeetegel": "sea_tile",
    "scheepssymbool": "ship_symbol", "zeevolk": "sea_people", "zeevaardersfiguur": "sea_people",
    "sagaspoor": "saga_track", "sage-lijst": "saga_track", "saga-lijst": "saga_track",
    "strijd": "battle", "gevecht": "battle", "overwinningspunt-kaart": "vp_marker",
    "overwinningspunt": "victory_point", "overwinningspunten": "victory_points",
    "zes-veld": "six_field", "hout": "lumber", "leem": "brick", "steen": "brick", "baksteen": "brick",
    "wol": "wool", "graan": "grain", "erts": "ore", "nederzetting": "settlement", "dorp": "settlement",
    "stad": "city", "straat": "road", "langste handelsroute": "longest_road",
}
