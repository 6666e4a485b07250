"""The rules catalogue: rule id -> English statement with the Dutch source term.

A RuleViolation names one of these ids; every id has a test marked with it.
"""

from ..text import N_

RULES: dict[str, str] = {
    # -- the round ------------------------------------------------------------
    "braverats.one_card_per_round": N_(
        "One card per seat per round (ronde): both players choose one card in secret, lay it face down "
        "and turn both over together; a seat cannot play a second card in the same round."
    ),
    "braverats.card_in_hand": N_(
        "A player can only play a card that is still in his hand (uit hun hand); played cards stay on the table."
    ),
    "braverats.values": N_(
        "Values (waarde): in principle the card with the higher value wins the round, unless a special "
        "ability (speciale eigenschap) says otherwise."
    ),
    "braverats.on_hold": N_(
        "On hold (onbeslist): equal values, or a Musician, leave the round undecided; whoever wins the next "
        "decided round also wins all rounds on hold before it."
    ),
    "braverats.no_declining": N_(
        "No declining: a special ability always takes effect, even against its own player "
        "(Het is niet toegestaan om van een speciale eigenschap af te zien)."
    ),
    "braverats.win": N_("Win (einde van het spel): the first player to win 4 rounds wins the game."),
    "braverats.princess_catches_prince": N_(
        "The game ends at once when a Princess catches the Prince (met de Prinses de Prins gevangen): "
        "her player wins, whatever the score (ongeacht de actuele stand)."
    ),
    "braverats.draw": N_(
        "Draw (onbeslist): when the players have no cards left and neither has won 4 rounds, the game ends "
        "in a draw; rounds still on hold are lost."
    ),
    "braverats.spy_order": N_(
        "Spy play order: in the round after a Spy whose ability was not cancelled, the Spy's opponent "
        "plays first, face up, and only then does the Spy's player choose his card."
    ),
    "braverats.setup_order": N_(
        "Set-up order: before the first round come, in this order, the deal or draft (variants D, E), the "
        "Princess's attack (F), the traitor's exchange (A) and the first draw of 3 (B); no round before that."
    ),
    # -- the cards ----------------------------------------------------------------
    "braverats.musician": N_(
        "Musician (Muzikant, 0): the round is on hold. The Musician cancels all other special abilities "
        "except the Wizard's (against a Wizard only the values count)."
    ),
    "braverats.princess": N_(
        "Princess (Prinses, 1): if the other player plays the Prince, you win the whole game (not just the round)."
    ),
    "braverats.spy": N_(
        "Spy (Spion, 2): in the next round the other player reveals his card before you choose yours. "
        "Two Spies in the same round cancel each other."
    ),
    "braverats.assassin": N_(
        "Assassin (Sluipmoordenaar, 3): the lowest value wins the round, unless the other player plays "
        "the Prince (values include a General's +2)."
    ),
    "braverats.ambassador": N_(
        "Ambassador (Raadsheer, 4): a round won with this card counts as 2 won rounds; after rounds on "
        "hold it counts as those rounds plus 2 (one held round: 3)."
    ),
    "braverats.wizard": N_(
        "Wizard (Tovenaar, 5): ignore the special ability of the card the other player plays; only the "
        "values count this round."
    ),
    "braverats.general": N_(
        "General (Generaal, 6): the card you play in the next round is worth 2 more; a Wizard played "
        "against that next card does not stop the +2."
    ),
    "braverats.prince": N_(
        "Prince (Prins, 7): wins the round, also against the Assassin, unless the other player plays the "
        "Princess (she wins the game), the Prince (values count: on hold unless a General's +2) or the "
        "Musician (on hold); against a Wizard his ability is ignored and the values count."
    ),
    # -- variants ---------------------------------------------------------------------
    "braverats.variant_a": N_(
        "Variant A, the traitor (De verrader): before the game the players exchange one random card; the "
        "exchange names the card each gives."
    ),
    "braverats.variant_b": N_(
        "Variant B, the draw pile (De trekstapel): each player shuffles his 8 cards into a personal draw "
        "pile and draws 3, plays from his hand, and after every round draws 1 until his pile is empty."
    ),
    "braverats.variant_c": N_("Variant C, quick rat (Snelle rat): 3 won rounds win the game instead of 4."),
    "braverats.variant_d": N_(
        "Variant D, draft: all 16 cards are shuffled face down; one player draws 4 and keeps 1, passes 3 to "
        "the other who keeps 1, the 2 left go back to the first who keeps 1, the last goes to the other; "
        "then the other draws 4 and does the same, alternately, until both hold 8 cards."
    ),
    "braverats.variant_e": N_(
        "Variant E, random (Willekeur): the 16 cards are shuffled and each player is dealt 8."
    ),
    "braverats.variant_f": N_(
        "Variant F, the Princess's attack (De aanval van de Prinses): at the start one player swaps his "
        "Prince for the other's Princess."
    ),
    "braverats.variant_g": N_(
        "Variant G, the true ruler (De ware heerser): play a series of games; the first to win 2 games is "
        "the true ruler, and the loser of a game chooses the variants of the next game."
    ),
    "braverats.variant_combinations": N_(
        "Variants combine (Sommige varianten zijn ook met elkaar te combineren) except D with E, F with D, "
        "F with E, and G cannot be chosen for a game inside a series."
    ),
    # -- house rules (options) -----------------------------------------------------------
    "braverats.house.musician_cancels_lasting_powers": N_(
        "House rule “The Musician cancels lasting powers” (default on): a General or Spy played against the "
        "Musician has no effect on the next round (De Muzikant annuleert alle speciale eigenschappen); "
        "off: the Musician only puts the round on hold."
    ),
    "braverats.house.wizard_cancels_general_bonus": N_(
        "House rule “The Wizard cancels the General's bonus” (default on): a General played against a Wizard gives no "
        "+2 in the next round; off: the Wizard only cancels abilities for the current round."
    ),
    "braverats.house.wizard_cancels_spy": N_(
        "House rule “The Wizard cancels the Spy” (default on): a Spy played against a Wizard does not make the other "
        "player play first next round; off: the Wizard only cancels abilities for the current round."
    ),
    "braverats.house.series_draw": N_(
        "House rule “A drawn game in a series” (variant G): “replay” (default) — a drawn game is not one of the "
        "series' games and is replayed with the same variants; “counts” — it is one of the 3 games, won by nobody. "
        "After a draw nobody chooses: the drawn game's variants stay."
    ),
}
