"""Uno Splash: classic UNO (108 cards, four colours, the Wild Draw Four challenge) on the family
core; the rulings are ``shared/rules/uno_splash.md``."""
