"""The engine's behaviour, pinned: a hash over seeded random playouts of every game.

``bench/fingerprint.py`` plays every registered game, preset and house rule set at random and
hashes every state, event, view and error on the way. A refactoring (rule code moved or shared
between games) must leave the hash as it is; a deliberate change of the rules updates ``PINNED``
in the same commit, and its message says which rule changed.
"""

from __future__ import annotations

from bench.fingerprint import fingerprint

# fingerprint(matches=1): one match per configuration.
PINNED = {
    "uno_all_wild": "833c88f73d0103a3f1c77a7bd92f9e31dcb770b64ab9d5ece0e13ab7474d84a7",
    "gin_rummy": "7ac02a4b35e941de4a6a9bb0894f4343de531495e2ac969d75e71f94fcdee830",
    "uno_no_mercy": "385ae524cf3658ee46464296a709e748269cbcd71de03771474a634183f0b70e",
    "uno_splash": "4327c6f1c99798153183d5cc1f839a50976b0e831e8fc32db4b260613c1c6a75",
}


def test_every_game_plays_as_pinned() -> None:
    found = fingerprint(matches=1)
    del found["all"]
    assert found == PINNED
