"""The rules catalogue: rule id -> English statement with the Dutch table term.
A RuleViolation names one of these ids; every id has a test marked with it."""

from ..text import N_

P = "catan."

RULES: dict[str, str] = {
    P + "board": N_("A match is played on one validated board (bord), recorded in the setup with its SHA-256; a board "
    "that does not hash to the recorded hash is refused."),
    P + "frame": N_("The standard boards use the printed frames (zeerand): the base game's 9 harbours (havens: 4 "
    "generic 3:1, one 2:1 per resource) where the beginner set-up's frame has them, and the 5–6 extension's 11 (5 "
    "generic, 6 special with a second wool) where the base frame with the extension's four pieces has them; each "
    "harbour serves the two coastal intersections at the ends of its edge, and no intersection is served twice. "
    "A random board lays the shuffled harbour pieces on those places."),
    P + "setup_order": N_("Set-up (opbouw): each player places one settlement and one road in turn order from the start "
    "player, then one settlement and one road in reverse order (the last player places twice in a row)."),
    P + "setup_settlement": N_("A set-up settlement (dorp) may go on any free intersection that keeps the distance rule; "
    "it needs no road."),
    P + "setup_road": N_("A set-up road (straat) must touch the settlement just placed."),
    P + "setup_yield": N_("Only the second set-up settlement yields: one resource card (grondstofkaart) per adjacent hex "
    "with a number; the first yields nothing."),
    P + "roll": N_("A turn starts with the roll of two dice (dobbelen); nothing but a development card may come before it."),
    P + "production": N_("Every hex whose number is rolled and that does not hold the robber pays each adjacent "
    "settlement 1 card and each city (stad) 2 cards of its resource, to every owner."),
    P + "bank_shortage": N_("If the bank (bank) cannot pay everyone their cards of one resource, nobody gets that "
    "resource on this roll, unless only one player is owed it: that player gets what is left. Each resource is "
    "judged on its own."),
    P + "seven_discard": N_("On a 7 nobody produces; every player with more than 7 resource cards discards (afleggen) "
    "half of them, rounded down, to the bank."),
    P + "robber_move": N_("On a 7 (or a knight) the robber (struikrover) must be moved to another land hex; the desert "
    "is allowed. The robber's hex produces nothing."),
    P + "steal": N_("The robber's mover steals (stelen) one random resource card from one opponent with a settlement "
    "or city on the robber's hex (the mover chooses among several); a player without cards yields nothing."),
    P + "chance_due": N_("A chance outcome is entered only when it is due, and only the one due: the dice after the "
    "roll (dobbelen), the stolen card after the robber's move names whom to steal from, the development card after "
    "a purchase."),
    P + "distance": N_("Distance rule (afstandsregel): a settlement needs a free intersection whose three neighbouring "
    "intersections are all free."),
    P + "settlement_connect": N_("After set-up a settlement must touch one of its owner's roads."),
    P + "road_connect": N_("A road must touch its owner's road, settlement or city, and cannot continue through an "
    "intersection holding another player's settlement or city; one road per path."),
    P + "city_upgrade": N_("A city replaces one of its owner's settlements; the settlement piece goes back to the "
    "supply."),
    P + "pieces": N_("Each player has 5 settlements, 4 cities and 15 roads; no more can be on the board."),
    P + "costs": N_("Costs (bouwkosten): road lumber+brick; settlement lumber+brick+wool+grain; city 3 ore+2 grain; "
    "development card ore+wool+grain."),
    P + "dev_buy": N_("A development card (ontwikkelingskaart) is bought face down from the deck; not when the deck "
    "is empty."),
    P + "dev_not_same_turn": N_("A development card cannot be played in the turn it was bought (a card bought in "
    "the Special Building Phase can be played from its owner's next turn)."),
    P + "dev_one_per_turn": N_("At most one knight or progress card per turn, at any time in the turn, also before "
    "the roll; victory point cards are exempt."),
    P + "dev_vp": N_("A victory point card (overwinningspunt) counts 1 VP; it stays hidden until revealed, which its "
    "owner may do at any time in their own turn, also the turn it was bought."),
    P + "knight": N_("Knight (ridder): move the robber and steal as on a 7, without discards."),
    P + "largest_army": N_("Largest Army (grootste riddermacht): the first player with 3 played knights takes the card "
    "(2 VP); another takes it only with strictly more knights."),
    P + "road_building": N_("Road Building (stratenbouw): place 2 roads free of cost (fewer if fewer roads or places "
    "are left)."),
    P + "year_of_plenty": N_("Year of Plenty (uitvinding): take any 2 resource cards from the bank (the bank must hold "
    "them)."),
    P + "monopoly": N_("Monopoly (monopolie): name a resource; every other player hands over all their cards of it."),
    P + "longest_road_length": N_("A road's length is its longest trail of road pieces, no piece counted twice, "
    "branches not added; another player's settlement or city on an intersection cuts the trail there."),
    P + "longest_road_award": N_("Longest Road (langste handelsroute): the first player with a trail of at least 5 takes "
    "the card (2 VP); another takes it only with a strictly longer trail."),
    P + "longest_road_break": N_("When a trail is cut: if the holder still ties for longest, the holder keeps the card; "
    "otherwise a unique longest trail of at least 5 takes it; if several tie for longest, or nobody has 5, the card "
    "is set aside until exactly one player has the longest trail of at least 5."),
    P + "trade_domestic": N_("Domestic trade (handel): only the player whose turn it is trades, with another player; both "
    "sides give at least one card and no resource is on both sides; only after the roll."),
    P + "trade_maritime": N_("Maritime trade (zeehandel): 4 identical cards for 1 from the bank; 3 for 1 with a "
    "3:1 harbour (haven); 2 for 1 of the harbour's resource with a 2:1 harbour; a harbour counts when the player "
    "has a settlement or city on one of its two intersections."),
    P + "bank_limit": N_("The bank gives only what it holds (maritime trades, Year of Plenty)."),
    P + "victory": N_("A player who has 10 VP (overwinningspunten) in their own turn wins; reaching 10 in another's "
    "turn wins at the start of one's own turn."),
    P + "sbp": N_("5–6 players: after each turn every other player in turn order may build and buy development cards "
    "(extra bouwfase, Special Building Phase) but not trade, play development cards or win."),
    P + "paired_order": N_("Paired players' turn (the option “How turns run” set to “paired”, 5–6 players; the newer official "
    "alternative to the Special Building Phase): two players share each turn. Settler 1 rolls for everyone's "
    "production and plays their turn as usual; when Settler 1 ends it, Settler 2 — the third player to Settler 1's "
    "left — takes a part of the same turn; when Settler 2 ends it, the player to Settler 1's left is the next "
    "Settler 1."),
    P + "paired_trade": N_("Paired players' turn: Settler 2 may build and buy as much as they like and trade with the "
    "bank (maritime trade), but may not trade with other players (domestic trade)."),
    P + "paired_cards": N_("Paired players' turn: Settler 1 and Settler 2 may each play a development card in their "
    "part of the turn (one knight or progress card each); only Settler 1 may play a knight before the roll. A "
    "card cannot be played in the part it was bought in."),
    P + "paired_victory": N_("Paired players' turn: Settler 2's part is their own turn, so Settler 2 wins there on "
    "reaching the VP goal, also at its start (the rule calls it Settler 2's turn; SBP, by contrast, is nobody's "
    "turn)."),
    P + "bank_size": N_("The bank holds 19 cards of each resource (24 with 5–6 players) and 25 development cards "
    "(34 with 5–6 players)."),
    P + "phase": N_("A move fits its moment: building, trading and buying come after the roll, discards before the "
    "robber moves, the robber before anything else."),
    P + "hand": N_("A move that spends cards (a build's costs, a discard, either side of a trade) needs them in the "
    "hand. Where cards went unseen (entered as unknown), it is accepted if some assignment of the unseen cards "
    "holds them, and the unseen cards are then narrowed; a move no assignment allows is refused, naming the "
    "events whose unseen cards were involved."),
}
