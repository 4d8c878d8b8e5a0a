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
    "uno_all_wild": "ca36096693703d113427dd2bcb4cd3f1a052417a990ccc4a2fdb32b28628593d",
    "gin_rummy": "779c612e541dc891489823d744865f912ca56015228b67cb16f8195b00f7f345",
    "uno_no_mercy": "36b8d711b37e610db3c533b1e15517bcb16721be51fbbe0156e3c04009700d20",
    "uno_splash": "ff82510caf1b3da2a46176ded3e0e38692abdc3c2782b8cbe125cc76a4baac4c",
}


def test_every_game_plays_as_pinned() -> None:
    found = fingerprint(matches=1)
    del found["all"]
    assert found == PINNED
