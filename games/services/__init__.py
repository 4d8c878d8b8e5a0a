"""Every change to a game, one module per job: ``lobby`` (create, join, leave, start, invites,
rematches), ``play`` (actions and the one place game state is saved), ``bots`` (bot moves, bot
seats, takeovers), ``clocks`` (turns that run out, vacations); ``base`` and ``turns`` hold what
they share. Modules import downwards only: base, turns, play, lobby, bots, clocks.

Each public function is one transaction. Those that touch a running game lock its row
(``SELECT … FOR UPDATE``), check the expected version, ask the game's rules, then save the new
state, the move and the round results before committing. Nothing else writes game state.
"""

from games.services.base import (
    DEFAULT_SPEED_SECONDS,
    DEFAULT_TURN_SECONDS,
    MAX_BOTS,
    MAX_SPEED_SECONDS,
    MAX_TURN_SECONDS,
    MIN_SPEED_SECONDS,
    MIN_TURN_SECONDS,
    Played,
    rules_of,
)
from games.services.bots import (
    add_bot,
    bot_move,
    hand_seat_to_bot,
    play_vs_computer,
    reclaim_seat,
    remove_bot,
)
from games.services.clocks import (
    end_vacation,
    start_vacation,
    sweep_expired_turns,
    timeout_turn,
    vacation_left,
)
from games.services.lobby import (
    create_game,
    decline_invitation,
    default_seats,
    expire_lobbies,
    join_game,
    leave_game,
    regenerate_invite,
    rematch,
    start_game,
    start_game_with,
)
from games.services.play import act, load_position, system_action
from games.services.spectating import set_spectating
from games.services.turns import turn_limit_seconds

__all__ = [
    "DEFAULT_SPEED_SECONDS",
    "DEFAULT_TURN_SECONDS",
    "MAX_BOTS",
    "MAX_SPEED_SECONDS",
    "MAX_TURN_SECONDS",
    "MIN_SPEED_SECONDS",
    "MIN_TURN_SECONDS",
    "Played",
    "act",
    "set_spectating",
    "default_seats",
    "add_bot",
    "bot_move",
    "create_game",
    "end_vacation",
    "expire_lobbies",
    "hand_seat_to_bot",
    "join_game",
    "leave_game",
    "load_position",
    "play_vs_computer",
    "reclaim_seat",
    "regenerate_invite",
    "remove_bot",
    "decline_invitation",
    "rematch",
    "rules_of",
    "start_game",
    "start_game_with",
    "start_vacation",
    "sweep_expired_turns",
    "system_action",
    "timeout_turn",
    "turn_limit_seconds",
    "vacation_left",
]
