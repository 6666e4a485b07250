"""Troje in Kroniek's notation (``engine.notation``): the default syntax of
its event types (a lone required field is written bare: ``dorp 37``,
``worp 3,3``, ``Ann: beslissingskaart troje``; card counts as quoted JSON,
``strijd "{\\"wol\\":2, …}"``).

- The embedded board and ship-tile list are left out: the options name them
  by hash (``board=…``, ``ship_tiles=…``) and the server embeds them again,
  as for a Catan board.
- What a seat or the public may not see (another seat's decision card,
  donated cards, a blind draw, a card laid back, a steal) is exported as not
  seen by the recorder (``-``), which the game accepts: a seat's export
  imports as that seat's recording.
"""

from ..notation import Syntax

SYNTAX = Syntax(
    omit_options=("board_doc", "ship_tiles_doc"),
    unknown_for_hidden=frozenset({"decision_card", "donate", "stack_card", "return_card", "steal"}),
)
