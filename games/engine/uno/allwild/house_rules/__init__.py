"""All Wild's house rules, each off by default and chosen when a game is created: one module each
(``stacking``, ``double_down``, ``blind_play``; ``mercy`` is the family's, ``uno.mercy``); Force
Swap protection is part of the target rules (``allwild.targets``) and speed mode is the service's
turn clock."""

HOUSE_RULES = (
    "stacking",
    "speed_mode",
    "blind_play",
    "double_down",
    "force_swap_protection",
    "mercy",
)
