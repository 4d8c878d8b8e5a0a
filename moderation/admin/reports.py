"""The report queue, sanctions, the audit log and the collusion signals in the admin."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, IntegerField, Value, When
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, StreamingHttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.errors import ServiceError
from moderation import audit, collusion, selectors, services
from moderation.admin import chat as chat_admin
from moderation.admin.base import (
    REPORT_PAGE,
    ReadOnlyAdmin,
    ScreensMixin,
    action_screen,
    done_message,
    game_link,
    named_user_link,
    service_error_message,
    user_link,
)
from moderation.forms import ReportActionForm
from moderation.models import AuditEntry, CollusionSignal, Report, Sanction

# ---------------------------------------------------------------------------------------------
# The report queue


@admin.register(Report)
class ReportAdmin(ScreensMixin, ReadOnlyAdmin):
    list_display = [
        "id",
        "reported_player",
        "reason",
        "status",
        "times",
        "reporter_player",
        "last_reported_at",
    ]
    list_display_links = ["id", "reason"]
    list_filter = ["status", "reason", ("reported", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["reported__username", "reported__display_name", "reporter__username"]
    list_select_related = ["reported", "reporter"]
    fields = [
        "status",
        "reported_player",
        "reporter_player",
        "reason",
        "all_reasons",
        "details",
        "game_link",
        "times",
        "created_at",
        "last_reported_at",
        "resolution",
        "resolution_reason",
        "resolved_by",
        "resolved_at",
    ]
    readonly_fields = fields
    change_form_template = "admin/moderation/report/change_form.html"

    screens = (
        ("<int:report_id>/resolve/", "resolve_view", "moderation_report_resolve"),
        ("<int:report_id>/chat/", chat_admin.chat_action_view, "moderation_report_chat"),
    )

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        # Open reports first, then the most recently (re)reported.
        open_first = Case(
            When(status=Report.OPEN, then=Value(0)), default=Value(1), output_field=IntegerField()
        )
        return [open_first.asc(), "-last_reported_at", "-id"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)  # personal data: administrators only

    @admin.display(description=_("Reported player"), ordering="reported__username")
    def reported_player(self, report: Report) -> str:
        # The display name first: an "offensive name" report is about it, not the username.
        return named_user_link(report.reported)

    @admin.display(description=_("Reporter"), ordering="reporter__username")
    def reporter_player(self, report: Report) -> str:
        if report.reporter_id is None and report.reason == Report.CHAT_FILTERED:
            return gettext("The word filter")
        return named_user_link(report.reporter)

    @admin.display(description=_("Reasons given"))
    def all_reasons(self, report: Report) -> str:
        labels = dict(Report.REASONS)
        return ", ".join(str(labels.get(r, r)) for r in report.reasons)

    @admin.display(description=_("Game"))
    def game_link(self, report: Report) -> str:
        return game_link(report.game)

    def change_context(self, request: HttpRequest, report: Report) -> dict[str, Any]:
        reporter_reports, reporter_outcomes = (
            selectors.reports_made_by(report.reporter) if report.reporter else ([], {})
        )
        return dict(
            reporter_reports=reporter_reports,
            reporter_outcomes=[
                (label, reporter_outcomes.get(status, 0)) for status, label in Report.STATUSES
            ],
            recent_games=selectors.recent_games(report.reported),
            reports_against=selectors.reports_against(report.reported),
            restriction=selectors.restriction_of(report.reported),
            may_resolve=report.status == Report.OPEN
            and request.user.has_perm("moderation.resolve_report"),
            actions=services.REPORT_ACTIONS,
            **chat_admin.report_context(request, report),
        )

    def resolve_view(self, request: HttpRequest, report_id: int) -> HttpResponse:
        report, back, form = action_screen(
            request, "moderation.resolve_report", Report, report_id, REPORT_PAGE, ReportActionForm
        )
        if form is None:
            return HttpResponseRedirect(back)
        data = form.cleaned_data
        try:
            services.resolve_report(
                moderator=request.user,  # type: ignore[arg-type]
                report_id=report.pk,
                action=data["action"],
                reason=data["reason"],
                until=data["until"],
            )
        except ServiceError as exc:
            service_error_message(request, exc)
        else:
            messages.success(request, done_message(data["action"], report.reported.username))
        return HttpResponseRedirect(back)


# ---------------------------------------------------------------------------------------------
# Sanctions and the audit log


@admin.register(Sanction)
class SanctionAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "player", "kind", "until", "in_force_now", "created_by"]
    list_filter = ["kind", "created_at"]
    search_fields = ["user__username", "user__display_name", "reason"]
    list_select_related = ["user", "created_by"]
    fields = ["player", "kind", "reason", "until", "created_by", "created_at", "report"]
    fields += ["lifted_at", "lifted_by"]
    readonly_fields = fields

    @admin.display(description=_("Player"), ordering="user__username")
    def player(self, sanction: Sanction) -> str:
        return user_link(sanction.user)

    @admin.display(description=_("In force"), boolean=True)
    def in_force_now(self, sanction: Sanction) -> bool:
        return sanction.in_force


CSV_COLUMNS = ["created_at", "actor", "action", "target", "reason", "report", "game", "details"]


def _csv_cell(value: Any) -> str:
    text = "" if value is None else str(value)
    # Spreadsheets run cells that start like a formula; display names and reasons are typed by
    # people, so quote those cells (OWASP "CSV injection").
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        text = "'" + text
    return text


class _Echo:
    def write(self, value: str) -> str:
        return value


class ActionFilter(admin.SimpleListFilter):
    """The actions by name, in the moderator's language (the column holds stable codes)."""

    title = _("action")
    parameter_name = (
        "action__exact"  # the name the field filter had: links and exports keep working
    )

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(audit.ACTION_LABELS.items())

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        value = self.value()
        return queryset.filter(action=value) if value else queryset


@admin.register(AuditEntry)
class AuditEntryAdmin(ScreensMixin, ReadOnlyAdmin):
    """Append-only: add, change and delete are refused to everybody, superusers included."""

    list_display = ["created_at", "actor_name", "action_shown", "target_shown", "short_reason"]
    list_filter = [ActionFilter, "created_at"]
    search_fields = ["actor_name", "target", "reason"]
    fields = ["created_at", "actor_name", "action_shown", "target_shown", "reason_shown"]
    fields += ["details", "report", "target_game", "target_user"]
    readonly_fields = fields
    change_list_template = "admin/moderation/auditentry/change_list.html"
    actions = None

    screens = (("export.csv", "export_view", "moderation_auditentry_export"),)

    @admin.display(description=_("action"), ordering="action")
    def action_shown(self, entry: AuditEntry) -> str:
        return audit.action_label(entry.action)

    @admin.display(description=_("target"), ordering="target")
    def target_shown(self, entry: AuditEntry) -> str:
        return audit.target_in_words(entry.target)

    @admin.display(description=_("reason"))
    def reason_shown(self, entry: AuditEntry) -> str:
        return audit.reason_in_words(entry)

    @admin.display(description=_("reason"))
    def short_reason(self, entry: AuditEntry) -> str:
        reason = audit.reason_in_words(entry)
        return reason if len(reason) <= 80 else reason[:79] + "…"

    def export_view(self, request: HttpRequest) -> HttpResponse:
        """The entries the list shows (same filters and search), as CSV."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        entries = self.get_changelist_instance(request).get_queryset(request)
        writer = csv.writer(_Echo())

        def rows() -> Any:
            yield writer.writerow(CSV_COLUMNS)
            for e in entries.iterator():
                yield writer.writerow(
                    [
                        _csv_cell(e.created_at.isoformat()),
                        _csv_cell(e.actor_name),
                        _csv_cell(e.action),
                        _csv_cell(e.target),
                        _csv_cell(e.reason),
                        _csv_cell(e.report_id),
                        _csv_cell(e.target_game_id),
                        _csv_cell(e.details),
                    ]
                )

        response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="audit-log.csv"'
        return response


# ---------------------------------------------------------------------------------------------
# Collusion signals


@admin.register(CollusionSignal)
class CollusionSignalAdmin(ReadOnlyAdmin):
    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        from django.conf import settings

        signals = collusion.compute()
        show_all = request.GET.get("all") == "1"
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Collusion signals"),
            "opts": self.model._meta,
            "signals": signals if show_all else collusion.flagged(signals),
            "show_all": show_all,
            "total_pairs": len(signals),
            "threshold": settings.COLLUSION_Z_THRESHOLD,
            "minimum": settings.COLLUSION_MIN_TARGETED_PLAYS,
            "days": settings.COLLUSION_WINDOW_DAYS,
        }
        return TemplateResponse(request, "admin/moderation/collusion.html", context)
