"""Uno Splash's house rules built here (``double_down``); stacking is ``splash.stacking``, beside
the turn and the challenge that use it; Mercy is the family's (``uno.mercy``) and speed mode the
service's turn clock."""
