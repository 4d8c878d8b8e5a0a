"""Uno Show 'Em No Mercy on the family core: the rulings are ``shared/rules/uno_no_mercy.md``."""
