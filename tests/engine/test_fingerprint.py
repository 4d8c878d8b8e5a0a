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
    "uno_all_wild": "f2fb495e21ede8ed5115de7e99037784829cfae0f750cd75251d5cdcf543ce9c",
    "gin_rummy": "eb1c93e82a805e1b13fb37a4a72a5a56b4565226d99032309b3240ff66e15b61",
    "uno_no_mercy": "db8ac002eaf2dba3444fb569e35239a2ff09bb0c006622e0df02abffc3bc928f",
    "uno_splash": "0cb01b70af597ad47db31179efde6f73acc6cd4a0806e55a2b5efd6e4252c6f8",
}


def test_every_game_plays_as_pinned() -> None:
    found = fingerprint(matches=1)
    del found["all"]
    assert found == PINNED
