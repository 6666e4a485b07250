"""Troubadour in Kroniek's notation (``engine.notation``).

    2. deal 7H 10S AD 3C KD                the five face-up cards (castles and villages)
    3. Ann: choose JS QD KH                a secret trio (the reveal number is the server's)
    5. reveal JS,QD,KH/JC,QC,KC            the trios, seat by seat
    8. Ann: build 8H 3                     a card onto village 3 (or: build 7H castle)
    9. Ann: attack JS 1 village=2          a spades power on seat 1
"""

from ..notation import Syntax

SYNTAX = Syntax(
    positional={
        "deal": ("*face_up",),
        "choose": ("*nobles",),
        "reveal": ("nobles",),
        "die": ("*rolls",),
        "counter_pick": ("noble",),
        "counter_reveal": ("*nobles",),
        "turn_up": ("village", "card"),
        "build": ("card", "to"),
        "attack": ("power", "target"),
    },
    derived={"choose": ("reveal",), "counter_pick": ("reveal",)},
)
