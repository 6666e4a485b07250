"""The Troje (Troy) scenario on Catan: its own parts, pure and I/O-free, for
the Catan engine's turn flow to call (not wired yet, so not registered: a
half-wired game is not offered).

- ``rules``: the rules catalogue (every rule sentence of the Dutch text, ids
  ``troje.*``), the Dutch terms, and which rules wait for the wiring;
- ``options``: the options (the ten open points of the notes §2.7 and the
  scenario's numbers) with defaults, checked into a ``Config``;
- ``board``: Troje boards (Catan board format) and ship-tile lists, and the
  sea tiles' topology; ``boards/`` the shipped placeholders;
- ``support``: the support stack per viewer (donations, blind draws, battles);
- ``saga``: the saga track, allegiances and the two ends of the game;
- ``ships``: ship building, advantages, trade chips and the sea people.

docs/games/catan-troje.md describes the scenario and what is not built yet.
"""
