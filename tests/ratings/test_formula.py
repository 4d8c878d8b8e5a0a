"""The rating model and the number shown (ratings/formula.py, docs/ratings.md)."""

from __future__ import annotations

import pytest

from ratings import formula

pytestmark = pytest.mark.pure


def test_a_new_player_shows_1500_and_is_provisional() -> None:
    assert formula.shown(formula.MU, formula.SIGMA) == 1500
    assert formula.provisional(formula.SIGMA)
    assert not formula.provisional(5.9)


def test_the_winner_gains_and_the_loser_loses_in_a_two_player_game() -> None:
    new = (formula.MU, formula.SIGMA)
    (winner_mu, winner_sigma), (loser_mu, loser_sigma) = formula.rate([new, new], [1, 2])
    assert winner_mu > formula.MU > loser_mu
    assert formula.shown(winner_mu, winner_sigma) > 1500 > formula.shown(loser_mu, loser_sigma)


def test_players_who_tie_for_a_place_move_alike() -> None:
    new = (formula.MU, formula.SIGMA)
    after = formula.rate([new, new, new], [1, 2, 2])
    assert after[1] == pytest.approx(after[2])
    assert after[0][0] > after[1][0]


def test_ten_players_are_rated_by_their_places() -> None:
    new = (formula.MU, formula.SIGMA)
    after = formula.rate([new] * 10, list(range(1, 11)))
    mus = [mu for mu, _ in after]
    assert mus == sorted(mus, reverse=True)
