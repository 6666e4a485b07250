"""Twaalven en veertienen in Kroniek's notation (``engine.notation``).

    2. deal columns=JS,6D,AS,KD/KS,JD,AH,7D/…      13 columns, bottom to top
    3. roles 0 1                                   twelves seat, first seat (Dutch: rollen)
    4. Ann: take 5,9 AD,JH                         two columns and their top cards (Dutch: pakken)
"""

from ..notation import Syntax

SYNTAX = Syntax(positional={"roles": ("twelves", "first"), "take": ("columns", "cards")})
