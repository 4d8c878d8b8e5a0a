"""Uno Splash's house rules built here (``double_down``); Mercy is the family's (``uno.mercy``)
and speed mode the service's turn clock."""
