"""The rating model and the number players see (``docs/ratings.md``).

The model is Weng–Lin's Bayesian approximation with the Plackett–Luce likelihood, from the
``openskill`` package: it rates 2 to 10 players by finishing place, ties included. A rating is a
belief (μ, σ) about a player's skill; the number shown is a conservative estimate of it, μ − 3σ
(the skill the player is very likely above), scaled so that a new player shows 1500:

    shown = round(1500 + 40 × (μ − 3σ))

A rating is provisional while σ ≥ 6.0 (a new player starts at σ = 25/3 ≈ 8.33; two-player games
bring σ under 6 in about 12 games, larger tables sooner).
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

# openskill's defaults, written here so that the model's numbers are in one place.
MU = 25.0
SIGMA = MU / 3
BASE = 1500
SCALE = 40
PROVISIONAL_SIGMA = 6.0

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def shown(mu: float, sigma: float) -> int:
    return round(BASE + SCALE * (mu - 3 * sigma))


def provisional(sigma: float) -> bool:
    return sigma >= PROVISIONAL_SIGMA


def rate(
    ratings: Sequence[tuple[float, float]], places: Sequence[int]
) -> list[tuple[float, float]]:
    """Each player's new (μ, σ) after one match, from their (μ, σ) before and their places
    (1 first; equal places are ties). Every player is a team of one."""
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]
