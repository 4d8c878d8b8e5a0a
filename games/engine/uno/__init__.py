"""The Uno family's shared core: what every Uno game plays by.

Turn order and direction, lost turns (``turns``), hands and their UNO/catch windows (``hands``,
``calls``), the draw pile and its reshuffles (``piles``), the deal (``deal``), points left in hand
and the match to a target (``scoring``), leaving (``seats``) and chance logged for replay
(``chance``). A game of the family (``allwild/``) is its deck and point tables, its card effects
and its house rules on top of these.
"""
