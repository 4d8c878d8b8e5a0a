"""Games in the moderation admin: list and filter, a read-only replay that shows every hand and
the draw pile after any move, and the interventions (abort, remove a player, force a timeout).

Hands and the draw pile never leave the server except to moderators (HOUSE_STYLE, habit 2): the
stored state and the invite code are not shown on the game page at all; only the replay view
shows cards, to holders of ``moderation.view_replay``, and never to anyone seated in that game.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import display_for_value
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config import error_codes as codes
from config.errors import ServiceError
from games.engine import EngineError, registry
from games.models import Game, Seat
from moderation import audit, interventions, replay, selectors, words
from moderation.admin import ratings
from moderation.admin.base import (
    GAME_PAGE,
    ReadOnlyAdmin,
    ScreensMixin,
    action_screen,
    seats_html,
    service_error_message,
)
from moderation.forms import GameActionForm
from players.models import User


class PlayerFilter(admin.SimpleListFilter):
    """``?player=<user id>``: the games of one player (linked from the player's page; the search
    box finds games by username)."""

    title = _("player")
    parameter_name = "player"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        value = self.value()
        if value and value.isdigit():
            user = User.objects.filter(pk=int(value)).first()
            if user is not None:
                return [(value, user.username)]
        return []

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        value = self.value()
        if not value:
            return queryset
        if not value.isdigit():
            return queryset.none()
        return queryset.filter(seats__user_id=int(value))


class StatusFilter(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(words.GAME_STATUSES.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        value = self.value()
        return queryset.filter(status=value) if value else queryset


class PresetFilter(admin.AllValuesFieldListFilter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.title = _("preset")


class CreatedFilter(admin.DateFieldListFilter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.title = _("created at")


class GameForm(forms.ModelForm):
    """Only its labels are used: the games app's fields are named in English, and the admin
    takes a read-only field's label from the form's ``Meta.labels`` before the model's."""

    class Meta:
        model = Game
        fields: list[str] = []
        # The English is Django's own label for each field (unchanged); Danish comes from the
        # catalogue.
        labels = {
            "id": _("id"),
            "preset": _("preset"),
            "max_players": _("max players"),
            "target_score": _("target score"),
            "max_timeouts": _("max timeouts"),
            "version": _("version"),
            "host": _("host"),
            "current_user": _("current user"),
            "turn_deadline": _("turn deadline"),
            "created_at": _("created at"),
            "started_at": _("started at"),
            "finished_at": _("finished at"),
            "rematch_of": _("rematch of"),
        }


def _seated(game: Game, user: Any) -> bool:
    return Seat.objects.filter(game=game, user_id=user.pk).exists()


@admin.register(Game)
class GameAdmin(ScreensMixin, ReadOnlyAdmin):
    list_display = ["short_id", "status_shown", "preset_shown", "players", "created", "finished"]
    list_filter = [StatusFilter, ("preset", PresetFilter), ("created_at", CreatedFilter)]
    list_filter += [PlayerFilter]
    search_fields = ["seats__user__username", "seats__user__display_name"]
    date_hierarchy = "created_at"
    # Never `state` (hands, draw pile) or `invite_code` (the key to a private lobby).
    fields = [
        "id",
        "status_shown",
        "preset",
        "house_rules",
        "visibility_shown",
        "max_players",
        "target_score",
        "turn_limit",
        "max_timeouts",
        "version",
        "host",
        "current_user",
        "turn_deadline",
        "created_at",
        "started_at",
        "finished_at",
        "rematch_of",
    ]
    readonly_fields = fields
    form = GameForm
    change_form_template = "admin/moderation/game_change_form.html"

    screens = (
        ("<uuid:game_id>/replay/", "replay_view", "games_game_replay"),
        ("<uuid:game_id>/intervene/", "intervene_view", "games_game_intervene"),
        ("<uuid:game_id>/void-ratings/", ratings.void_view, "games_game_void_ratings"),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).prefetch_related("seats__user")

    @admin.display(description=_("Game"), ordering="id")
    def short_id(self, game: Game) -> str:
        return str(game.pk)[:8]

    @admin.display(description=_("Status"), ordering="status")
    def status_shown(self, game: Game) -> str:
        return words.status(game.status)

    @admin.display(description=_("Preset"), ordering="preset")
    def preset_shown(self, game: Game) -> str:
        return game.preset

    @admin.display(description=_("Visibility"))
    def visibility_shown(self, game: Game) -> str:
        label = words.VISIBILITIES.get(game.visibility)
        return str(label) if label is not None else game.visibility

    @admin.display(description=_("Created at"), ordering="created_at")
    def created(self, game: Game) -> str:
        return str(display_for_value(game.created_at, "-"))

    @admin.display(description=_("Finished at"), ordering="finished_at")
    def finished(self, game: Game) -> str:
        return str(display_for_value(game.finished_at, "-"))

    @admin.display(description=_("Players"))
    def players(self, game: Game) -> str:
        return seats_html(game)

    @admin.display(description=_("House rules"))
    def house_rules(self, game: Game) -> str:
        return house_rules_in_words(game)

    @admin.display(description=_("Turn time limit"))
    def turn_limit(self, game: Game) -> str:
        return turn_limit_in_words(game)

    def change_context(self, request: HttpRequest, game: Game) -> dict[str, Any]:
        seated = _seated(game, request.user)
        seats = list(game.seats.select_related("user"))
        for seat in seats:
            seat.shown_name = selectors.seat_name(seat)  # bots as bots, not "(deleted)"
        return dict(
            # The games app's str(game) is English: the page's title and breadcrumb say it in
            # the moderator's language.
            subtitle=gettext("%(preset)s game %(id)s (%(status)s)")
            % {
                "preset": game.preset,
                "id": game.pk,
                "status": words.status(game.status).lower(),
            },
            seats=seats,
            seated=seated,
            may_replay=not seated and request.user.has_perm("moderation.view_replay"),
            may_intervene=not seated
            and request.user.has_perm("moderation.intervene_game")
            and game.status in (Game.LOBBY, Game.ACTIVE),
            **ratings.game_context(request, game, seated=seated),
        )

    def replay_view(self, request: HttpRequest, game_id: Any) -> HttpResponse:
        """Every hand, the draw pile and the events, as they were after move N (``?move=N``)."""
        if not request.user.has_perm("moderation.view_replay"):
            raise PermissionDenied
        game = get_object_or_404(Game, pk=game_id)
        if _seated(game, request.user):
            # Never for a game the moderator plays (or played) in, administrators included.
            raise PermissionDenied
        number = request.GET.get("move")
        if number is not None and not number.isdigit():
            raise Http404("No such move.")
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "title": gettext("Replay of game %(game)s") % {"game": str(game.pk)[:8]},
            "opts": self.model._meta,
            "game": game,
        }
        try:
            result = replay.state_after(game, int(number) if number else None)
        except replay.ReplayUnavailable as exc:
            context["error"] = str(exc)
            return TemplateResponse(request, "admin/moderation/replay.html", context)
        context.update(_replay_table(game, result))
        audit.record(
            actor=request.user,
            action=audit.REPLAY_VIEWED,
            # English in the log (as every stored text); the move in details lets the audit
            # list say it in the reader's language (audit.reason_in_words).
            reason=f"Opened the replay at move {result.move.number}.",
            target_game=game,
            move=result.move.number,
        )
        return TemplateResponse(request, "admin/moderation/replay.html", context)

    def intervene_view(self, request: HttpRequest, game_id: Any) -> HttpResponse:
        game, back, form = action_screen(
            request, "moderation.intervene_game", Game, game_id, GAME_PAGE, GameActionForm
        )
        if form is None:
            return HttpResponseRedirect(back)
        action, reason = form.cleaned_data["action"], form.cleaned_data["reason"]
        moderator: Any = request.user
        try:
            if action == "abort":
                interventions.abort_game(moderator=moderator, game_id=game.pk, reason=reason)
                messages.success(request, gettext("The game is aborted: it ends without scores."))
            elif action == "remove":
                player = form.cleaned_data["player"]
                if player is None:
                    raise ServiceError(
                        codes.INVALID_REQUEST, gettext("Choose the player to remove.")
                    )
                interventions.remove_player(
                    moderator=moderator, game_id=game.pk, user_id=player, reason=reason
                )
                messages.success(request, gettext("The player was removed from the game."))
            else:
                interventions.force_timeout(moderator=moderator, game_id=game.pk, reason=reason)
                messages.success(request, gettext("The current turn timed out."))
        except ServiceError as exc:
            if exc.error is codes.SEATED_MODERATOR:
                raise PermissionDenied from exc
            service_error_message(request, exc)
        return HttpResponseRedirect(back)


def house_rules_in_words(game: Game) -> str:
    """The game's house rules by name ("Stacking, Mercy"), "None" without any: each rule's name
    is the start of its description in the game's options schema ("Stacking: hit by ...")."""
    options = game.options or {}
    try:
        schema = registry.get_game(game.kind).options_schema().get("properties", {})
    except EngineError:  # a kind no longer registered: its raw names still say something
        schema = {}
    names = []
    # In the order the game lists its rules, not the stored order (PostgreSQL's jsonb keeps
    # its own key order).
    ordered = [k for k in schema if k in options] + sorted(k for k in options if k not in schema)
    for key in ordered:
        value = options[key]
        text = str(schema.get(key, {}).get("description", ""))
        name = text.split(":", 1)[0] if ":" in text else key.replace("_", " ").capitalize()
        name = words.house_rule(key, name)
        if value is True:
            names.append(name)
        elif value not in (False, None, "", 0):
            names.append(f"{name}: {value}")
    return ", ".join(names) or gettext("None (the standard rules)")


def turn_limit_in_words(game: Game) -> str:
    """ "1 day per turn", "5 seconds per turn (speed mode)"."""
    options = game.options or {}
    if options.get("speed_mode"):
        return gettext("%(duration)s per turn (speed mode)") % {
            "duration": duration_in_words(game.speed_seconds)
        }
    return gettext("%(duration)s per turn") % {"duration": duration_in_words(game.turn_seconds)}


def _units(count: int, unit: str) -> str:
    # ngettext needs its words written out, each unit on its own, for makemessages to find them.
    if unit == "day":
        return ngettext("%(count)d day", "%(count)d days", count) % {"count": count}
    if unit == "hour":
        return ngettext("%(count)d hour", "%(count)d hours", count) % {"count": count}
    if unit == "minute":
        return ngettext("%(count)d minute", "%(count)d minutes", count) % {"count": count}
    return ngettext("%(count)d second", "%(count)d seconds", count) % {"count": count}


def duration_in_words(seconds: int) -> str:
    """86400 -> "1 day", 5400 -> "1 hour 30 minutes", 90 -> "1 minute 30 seconds"."""
    parts = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(_units(count, unit))
    return " ".join(parts[:2]) or _units(0, "second")


def _replay_table(game: Game, result: replay.Replayed) -> dict[str, Any]:
    """The replay drawn as the table: seats with names, every hand and the piles as named cards
    (each game names its cards: ``card_name``), and the move log in words."""
    by_position = {s.position: s for s in game.seats.select_related("user")}
    rules = registry.get_game(game.kind)
    state = result.state
    scores = rules.scores(state)
    active = set(rules.active_seats(state))
    current = rules.to_move(state)
    piles = rules.piles(state)
    numbers = [m.number for m in result.moves]
    index = numbers.index(result.move.number)

    def cards(ids: list[str]) -> list[dict[str, str]]:
        return [{"id": c, "name": words.card(rules.card_name(c)), "css": _card_css(c)} for c in ids]

    def who(position: int | None) -> str:
        if position is None:
            return gettext("the system")
        seat = by_position.get(position)
        if seat is not None:
            return selectors.seat_name(seat)
        return gettext("seat %(position)s") % {"position": position}

    table = _table_in_words(rules.moderator_view(state), rules)
    discard = cards(piles.get("discard", []))
    return {
        "move": result.move,
        "move_by": who(result.move.seat),
        "previous": numbers[index - 1] if index > 0 else None,
        "next": numbers[index + 1] if index + 1 < len(numbers) else None,
        "first": numbers[0],
        "last": numbers[-1],
        "moves": [
            {"move": m, "by": who(m.seat), "action": _action_words(m.action, who, rules)}
            for m in result.moves
        ],
        "move_action": _action_words(result.move.action, who, rules),
        "matches_stored": result.matches_stored,
        "table": table,
        "to_move": who(current) if current is not None else None,
        "hands": [
            {
                "position": i,
                "name": who(i),
                "active": i in active,
                "score": scores[i],
                "cards": cards(hand),
                "current": i == current,
            }
            for i, hand in enumerate(rules.hands(state))
        ],
        "draw_pile": cards(piles.get("draw", [])),
        "discard_top": discard[0] if discard else None,
        "discard_pile": discard,
        "events": [_event_words(e, who, rules) for e in result.move.events],
    }


def _event_words(event: dict[str, Any], who: Any, rules: Any) -> str:
    """One event of the move, secrets included (moderators see everything), in words."""
    shown = rules.visible_event(event, None) or event
    words = _action_words(shown, who, rules)
    return f"{who(shown['seat'])}: {words}" if isinstance(shown.get("seat"), int) else words


# Flags whose "no" is news (a challenge that failed, a Wild Draw Four that was legal); any other
# false flag (``uno: false``) is left out.
_SAID_WHEN_FALSE = frozenset({"succeeded", "legal"})


def _action_words(action: dict[str, Any], who: Any, rules: Any) -> str:
    """A logged action as a moderator reads it: "play Draw 4 (target: Bob)", not a dict."""
    kind = words.word(str(action.get("type", "?")))
    parts = []
    for key, value in action.items():
        if key in ("type", "seat", "card_type") or value in (None, [], ""):
            continue
        if value is False and key not in _SAID_WHEN_FALSE:
            continue
        if key == "card" and isinstance(value, str):
            parts.append(words.card(rules.card_name(value)))
        elif key == "cards" and isinstance(value, list):
            parts.append(_cards_words(value, rules))
        elif isinstance(value, bool) and key in _SAID_WHEN_FALSE:
            parts.append(f"{words.word(key)}: {words.word('yes' if value else 'no')}")
        elif value is True:
            parts.append(words.word(key))
        else:
            parts.append(f"{words.word(key)}: {_value_words(key, value, who, rules)}")
    return f"{kind} {'; '.join(parts)}".strip()


# Keys whose number is a seat: said as the seat's player. Keys whose text is a card.
_SEAT_KEYS = frozenset(
    {"target", "targets", "winner", "owner", "victim", "dealer", "by", "knocker", "next_dealer"}
)
_CARD_KEYS = frozenset({"card", "upcard", "knock_discard", "next"})
# A list of cards longer than this (a shuffle's whole deck) is said as its size.
_LISTED_CARDS = 20


def _value_words(key: str, value: Any, who: Any, rules: Any) -> str:
    """One logged value in words: seats as names, cards by name, lists and nested records
    (a Gin round's layouts by seat) without brackets or quotes."""
    if key in _SEAT_KEYS and isinstance(value, int):
        return str(who(value))
    if key in _SEAT_KEYS and isinstance(value, list):
        return ", ".join(who(t) if isinstance(t, int) else str(t) for t in value)
    if isinstance(value, dict):  # by seat ("hands" at a round's end), or a record
        return "; ".join(
            f"{who(int(k))}: {_value_words(key, v, who, rules)}"
            if str(k).isdigit()
            else f"{words.word(str(k))}: {_value_words(str(k), v, who, rules)}"
            for k, v in value.items()
        )
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            return _cards_words(value, rules)  # the logs' lists of words are cards (or colours)
        if any(isinstance(v, (list, dict)) for v in value):
            return " / ".join(_value_words(key, v, who, rules) for v in value)
        return ", ".join(str(v) for v in value)
    if isinstance(value, str):
        if key in _CARD_KEYS:
            return words.card(rules.card_name(value))
        return words.value(value)
    return str(value)


def _cards_words(cards: list[Any], rules: Any) -> str:
    if len(cards) > _LISTED_CARDS:
        return ngettext("%(count)d card", "%(count)d cards", len(cards)) % {"count": len(cards)}
    return ", ".join(
        words.value(c) if words.known(c) else words.card(rules.card_name(c))
        for c in cards
        if isinstance(c, str)
    )


def _table_in_words(table: dict[str, Any], rules: Any) -> dict[str, Any]:
    """The moderator's view of the table with its phase, direction and colour in words, and
    the choice play waits for (``state.pending``) with its cards by name."""
    shown = dict(table)
    state = shown.get("state")
    pending = state.get("pending") if isinstance(state, dict) else None
    if isinstance(pending, dict):
        pending = dict(pending)
        effect = str(pending.get("effect", ""))
        card = pending.get("card")
        if words.known(effect) or not isinstance(card, str):
            pending["effect"] = words.value(effect)
        else:  # the card's own effect (a Targeted Draw 2 waiting for its target)
            pending["effect"] = words.card(rules.card_name(card))
        pending["reason"] = words.value(str(pending.get("reason", "")))
        if isinstance(pending.get("against"), str):
            pending["against"] = words.colour(pending["against"])
        if isinstance(pending.get("hand"), list):
            pending["hand"] = [words.card(rules.card_name(c)) for c in pending["hand"]]
        shown["state"] = {**state, "pending": pending}
    for key, say in (
        ("phase", words.phase),
        ("direction", words.direction),
        ("colour", words.colour),
    ):
        if isinstance(shown.get(key), str):
            shown[key] = say(shown[key])
    return shown


def _card_css(card_id: str) -> str:
    """A class for the card's look: its colour when it has one (Splash: ``red-7-b``)."""
    colour = card_id.split("-", 1)[0]
    return f"card-{colour}" if colour in ("red", "yellow", "green", "blue") else "card-wild"
