"""Ridder-toernooi in Kroniek's notation (``engine.notation``).

    [CardSet "1ac5…"]                      the card set, by the hash a match names it with
    2. deal K01,K02/K03,K04 L01,L02/L03,L04   each seat's knights, then ladies
    3. start_roll 4 6                      one die per seat
    4. Ann: train K01 dice=1               (Dutch: trainen)
    9. roll 3 5 6 knight=K01               a knight's dice (Dutch: worp, dobbelen)
    10. Bob: challenge K03 K01             (Dutch: uitdagen)

The card set itself (``options.cards``) is never written: the server embeds
it again from the hash in ``CardSet``.
"""

from ..notation import Syntax

SYNTAX = Syntax(
    positional={
        "deal": ("knights", "ladies"),
        "start_roll": ("*faces",),
        "participate": ("*knights",),
        "kerchief": ("lady", "knight"),
        "challenge": ("knight", "target"),
        "roll": ("*faces",),
    },
    option_tags={"card_set": "CardSet"},
    omit_options=("cards",),
)
