"""Stapelen in Kroniek's notation (``engine.notation``).

    2. deal columns=…                  13 columns, bottom to top (Dutch: delen)
    3. Ann: take 4 7H foundation=2     the top card of column 4 onto a foundation (Dutch: pakken)
"""

from ..notation import Syntax

SYNTAX = Syntax(positional={"take": ("column", "card")})
