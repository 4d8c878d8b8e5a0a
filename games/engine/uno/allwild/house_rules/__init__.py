"""All Wild's house rules, each off by default and chosen when a game is created: one module each
(``stacking``, ``double_down``, ``blind_play``; ``mercy`` is the family's, ``uno.mercy``); Force
Swap protection is part of the target rules (``allwild.targets``) and speed mode is the service's
turn clock."""

# What each house rule does, written for players; clients show these as they are.
HOUSE_RULE_TEXTS = {
    "stacking": "Stacking: hit by a Draw 2 or Draw 4, you may pass it on by playing a draw card "
    "of equal or higher value (Draw 2 or Draw 4 on a Draw 2, only a Draw 4 on a Draw 4). The "
    "cards add up; the first player who does not stack draws them all and loses the turn. "
    "Targeted Draw 2 never stacks.",
    "speed_mode": "Speed mode: every turn has a short time limit (`speed_seconds`, 5 s unless "
    "chosen). When it runs out you draw a card and the turn passes. Running out of time here "
    "never hands your seat to a bot.",
    "blind_play": "Blind play: nobody sees their own hand, only how many cards it holds. On your "
    "turn you play the top card of your face-down hand (or draw); if it needs a target, you "
    "choose one once it is revealed.",
    "double_down": "Double down: you may play two identical cards at once. Both take effect: two "
    "Draw 2s make the next player draw 4, two Skips skip two players, and each Targeted Draw 2 "
    "or Force Swap takes its own target.",
    "force_swap_protection": "Force Swap protection: a player holding one card cannot be chosen "
    "for a Force Swap. If everyone else holds one card, a Force Swap does nothing.",
    "mercy": "Mercy: holding 15 cards or more, you may once discard 5 cards of your choice, at "
    "any moment and without using your turn. You get the right back once your hand has dropped "
    "below 15.",
}
HOUSE_RULES = tuple(HOUSE_RULE_TEXTS)
