"""The engine's behaviour, pinned: a hash over seeded random playouts of every game.

``bench/fingerprint.py`` plays every registered game, preset and house rule set at random and
hashes every state, event, view and error on the way. A refactoring (rule code moved or shared
between games) must leave the hash as it is; a deliberate change of the rules updates ``PINNED``
in the same commit, and its message says which rule changed.
"""

from __future__ import annotations

from bench.fingerprint import fingerprint

# fingerprint(matches=1): one match per configuration. All Wild re-pinned when house rules that
# are not an object became an invalid_setup (they raised TypeError or named their letters).
# Issue 29's Splash rule (a Wild Draw Four answered at its deadline closes no catch window) left
# every hash as it was: no seeded playout times out an answer owed to a one-card player who has
# not said UNO (checked with matches=3 too). Its scenario pins it. No Mercy re-pinned when a
# Roulette's player became catchable while the victim names the colour (issue 29). Its rule that
# every draw (a catch penalty too) reshuffles the set-aside hands left the hashes as they were:
# no playout draws a catch penalty from an empty pile with hands set aside
# (test_reshuffle_properties does). All Wild and Splash re-pinned when a round's result (state
# and event) began to tell each losing hand's points, `hand_points` (issue 35): no rule changed,
# the winner's `points` are their sum as before; No Mercy's hash stayed (no seeded playout of it
# ends a round with matches=1).
PINNED = {
    "uno_all_wild": "022a816ee032a46a8db331d1a7a4702aecc292f463c90a5b6ab98c2804e6dacd",
    "gin_rummy": "e51f9448e2cd627b35332a81a16942ed48a473bbad2f8da34062ea8a5d56a8c2",
    "uno_no_mercy": "930c52857d2b06b7180e3475aeeae2278ed044be752b4f6bea9ca76cb8d79511",
    "uno_splash": "1a19738d3195613b268fb9a8f08ce49002ebdad75548f7495dcced2c51f0471f",
}


def test_every_game_plays_as_pinned() -> None:
    found = fingerprint(matches=1)
    del found["all"]
    assert found == PINNED
