"""Gin Rummy: two players, melds and knocking (the rulings: ``shared/rules/gin_rummy.md``)."""
