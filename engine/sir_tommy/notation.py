"""Sir Tommy voor twee in Kroniek's notation (``engine.notation``).

    2. draw 7H QS 2C                   the cards turned from the stock (Dutch: trekken)
    3. Ann: build 7H from=drawn foundation=1     (Dutch: opbouwen)
    4. Ann: place QS 2                 a drawn card onto row 2 (Dutch: leggen)
    5. Ann: end_turn                   (Dutch: klaar, passen)
"""

from ..notation import Syntax

SYNTAX = Syntax(positional={"draw": ("*cards",), "place": ("card", "row")})
