"""Uno All Wild on the Uno family core: its deck and point tables (``cards``, ``presets.json``),
whom a card may target (``targets``), its card effects (``effects``), a turn (``turn``), its
house rules (``house_rules/``), listing legal actions (``legal``), the match and the opening card
(``rules``), what a seat sees (``view``, ``hidden``), and the ``interface.Game`` object (``game``).
"""
