"""Admin of the combat app: the combat rules and encounter numbers, the bestiary with its effects,
and battles (read-only) with their log and actions."""
from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from backend.admin import ReadOnlyAdmin, ReadOnlyInline, SingletonAdmin
from combat.models import Battle, BattleAction, BattleEvent, CombatSettings, EnemyKind, EnemyKindEffect


@admin.register(CombatSettings)
class CombatSettingsAdmin(SingletonAdmin):
    readonly_fields = ("updated_at",)
    fieldsets = (
        ("To hit: miss = clamp(min, base + distraction - concentration - attentiveness x per point, max)",
         {"fields": ("base_miss_chance", "attentiveness_miss_reduction",
                     ("min_miss_chance", "max_miss_chance"))}),
        ("Criticals: crit = clamp(0, base + luck x per point + fearlessness - fear, max)",
         {"fields": ("base_crit_chance", "luck_crit_per_point", "max_crit_chance", "crit_multiplier")}),
        (("Damage: (W + strength x per point) x attack mult x crit "
          "x armor_constant / (armor_constant + armor) / defense mult"),
         {"fields": ("strength_damage_per_point", "fist_damage", "armor_constant", "min_damage",
                     ("min_attack_multiplier", "min_defense_multiplier"))}),
        ("HP and regeneration: max HP = base_hp + stamina x hp_per_stamina",
         {"fields": (("base_hp", "hp_per_stamina"), "metabolism_regen_per_point")}),
        ("Enemy AI and battle length",
         {"fields": ("ai_focus_weakest_chance", "max_rounds", "turn_deadline_seconds")}),
        ("Effect magnitudes", {"fields": ("effect_magnitudes",)}),
        ("Encounters: enemies = min(max, base + players // party divisor + floor // floor divisor)",
         {"fields": ("encounter_base", "encounter_party_divisor", "encounter_floor_divisor",
                     "encounter_max")}),
        ("Boss rooms: the boss (HP x (1 + per extra player x (players - 1))) and players // divisor escorts",
         {"fields": ("boss_hp_per_extra_player", "boss_escort_party_divisor")}),
        (None, {"fields": ("updated_at",)}),
    )


class EnemyKindEffectInline(admin.TabularInline):
    model = EnemyKindEffect
    fields = ("trigger", "name", "turns", "magnitude", "chance")
    extra = 0


class AppearsOnFloorFilter(admin.SimpleListFilter):
    """The kinds an encounter on one floor draws from: min_floor <= floor <= max_floor (or open).

    Floors 0-9 are offered without a query (F_max defaults to 6); ``?floor=N`` works for any N.
    """

    title = "appears on floor"
    parameter_name = "floor"
    offered = 10

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        floors = set(range(self.offered))
        if self.value() and str(self.value()).isdigit():
            floors.add(int(str(self.value())))
        return [(str(floor), f"floor {floor}") for floor in sorted(floors)]

    def queryset(self, request: HttpRequest, queryset: QuerySet[EnemyKind]) -> QuerySet[EnemyKind]:
        value = self.value()
        if value is None or not value.isdigit():
            return queryset
        floor = int(value)
        return queryset.filter(Q(min_floor__lte=floor),
                               Q(max_floor__isnull=True) | Q(max_floor__gte=floor))


class DrawnFilter(admin.SimpleListFilter):
    title = "in the draw"
    parameter_name = "drawn"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("yes", "drawn (weight > 0)"), ("no", "out of the draw (weight 0)")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[EnemyKind]) -> QuerySet[EnemyKind]:
        if self.value() == "yes":
            return queryset.filter(weight__gt=0)
        if self.value() == "no":
            return queryset.filter(weight=0)
        return queryset


@admin.register(EnemyKind)
class EnemyKindAdmin(admin.ModelAdmin):
    """The bestiary as a balancing table: one row per creature with the numbers a designer compares."""

    list_display = ("name", "is_boss", "hp", "armor", "damage", "stat_line", "floors", "weight",
                    "effect_list")
    list_filter = ("is_boss", AppearsOnFloorFilter, DrawnFilter, "weapon_kind")
    list_editable = ("weight",)
    search_fields = ("name", "slug", "description", "weapon_name")
    prepopulated_fields = {"slug": ("name",)}
    ordering = ("is_boss", "min_floor", "name")
    inlines = (EnemyKindEffectInline,)
    fieldsets = (
        (None, {"fields": ("name", "slug", "is_boss", "description")}),
        ("In battle", {"fields": ("hp", "armor", ("weapon_name", "weapon_kind", "weapon_damage"))}),
        ("Stats", {"fields": ("strength", "stamina", "metabolism", "luck", "attentiveness")}),
        ("Where and how often", {"fields": (("min_floor", "max_floor"), "weight")}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[EnemyKind]:
        return super().get_queryset(request).prefetch_related("effects")

    @admin.display(description="damage", ordering="weapon_damage")
    def damage(self, kind: EnemyKind) -> str:
        extra = f" +{kind.strength}str" if kind.strength else ""
        return f"{kind.weapon_damage}{extra} ({kind.weapon_name})"

    @admin.display(description="stats (str/met/luck/att)")
    def stat_line(self, kind: EnemyKind) -> str:
        return f"{kind.strength}/{kind.metabolism}/{kind.luck}/{kind.attentiveness}"

    @admin.display(description="floors", ordering="min_floor")
    def floors(self, kind: EnemyKind) -> str:
        return kind.floors_label

    @admin.display(description="effects")
    def effect_list(self, kind: EnemyKind) -> str:
        return ", ".join(
            e.name + (f" {e.chance:.0%}" if e.trigger == "on_hit" else " (innate)")
            for e in kind.effects.all()
        )


# --- battles: read-only records with their log ------------------------------------------------------
# A battle is the engine's state plus the events and actions that led to it; editing any of them
# would break the replay (setup + seed + actions) and the run it belongs to, so the admin shows
# them and changes nothing.

#: One sentence per engine event kind; {actor}/{target} are replaced by combatant names.
EVENT_SENTENCES: dict[str, str] = {
    "battle_started": "The battle starts; turn order: {order}",
    "round_started": "Round {round}",
    "turn_started": "{actor}'s turn",
    "extra_turn": "{actor} acts again (haste)",
    "turn_skipped": "{actor} loses the turn ({reason})",
    "turn_ended": "{actor} ends the turn",
    "attack": "{actor} attacks {target} with {weapon}",
    "miss": "{actor} misses {target}",
    "critical": "{actor} lands a critical hit on {target}",
    "damage": "{target} takes {amount} damage ({source}), {hp} HP left",
    "healed": "{target} heals {amount} ({source}), {hp} HP",
    "curse_struck": "The curse strikes {target} dead",
    "potion_drunk": "{actor} drinks a {potion_kind} potion",
    "stat_raised": "{actor}'s {stat} rises by {amount} to {value}",
    "weapon_switched": "{actor} takes up {weapon} (slot {slot})",
    "effect_applied": "{target} gets {effect} ({duration}, magnitude {magnitude:g})",
    "effect_extended": "{target}'s {effect} is extended ({duration}, magnitude {magnitude:g})",
    "effect_cancelled": "{target}'s {effect} and {opposite} cancel out",
    "effect_replaced": "{target}'s {effect} replaces {replaced}",
    "effect_blocked": "{target} resists {effect} (blocked by {by})",
    "effect_expired": "{target}'s {effect} wears off",
    "death": "{target} dies",
    "fled": "{actor} flees",
    "battle_over": "The battle is over: {outcome}",
}
#: Event kinds shown dimmed: bookkeeping between the events that matter.
QUIET_EVENTS = frozenset({"turn_started", "turn_ended"})


def combatant_names(battle: Battle) -> dict[str, str]:
    """Combatant id -> display name, from the battle's state (its setup if the state lacks one)."""
    names: dict[str, str] = {}
    for source in (battle.setup or {}, battle.state or {}):
        for group in ("players", "enemies", "combatants"):
            for combatant in source.get(group) or []:
                if isinstance(combatant, dict) and "id" in combatant:
                    names[combatant["id"]] = str(combatant.get("name") or combatant["id"])
        npc = source.get("npc")
        if isinstance(npc, dict) and "id" in npc:
            names[npc["id"]] = str(npc.get("name") or npc["id"])
    return names


def event_sentence(data: dict[str, Any], names: dict[str, str]) -> str:
    """One battle event as a sentence; an unknown kind or shape falls back to its fields."""
    kind = str(data.get("kind", "?"))
    values: dict[str, Any] = dict(data)
    for key in ("actor", "target"):
        if key in values:
            values[key] = names.get(str(values[key]), str(values[key]))
    if isinstance(values.get("order"), list):
        values["order"] = ", ".join(names.get(str(cid), str(cid)) for cid in values["order"])
    if "permanent" in values or "turns" in values:
        if values.get("permanent"):
            values["duration"] = "permanent"
        elif values.get("turns") is None:
            values["duration"] = "until the battle ends"
        else:
            values["duration"] = f"{values['turns']} turns"
    template = EVENT_SENTENCES.get(kind)
    if template is not None:
        try:
            return template.format(**values)
        except (KeyError, ValueError, TypeError, IndexError):
            pass
    details = ", ".join(f"{key}={value}" for key, value in values.items() if key != "kind")
    return f"{kind}: {details}" if details else kind


def action_text(action: dict[str, Any] | None, names: dict[str, str] | None = None) -> str:
    """A stored action (the engine's dict) as a short phrase: "attack Giant Rat", "skip", "timeout"."""
    if not isinstance(action, dict):
        return str(action)
    names = names or {}
    kind = str(action.get("kind", "?"))
    if kind == "attack":
        target = str(action.get("target", ""))
        return f"attack {names.get(target, target)}"
    if kind == "drink":
        return f"drink potion {action.get('potion', '')}"
    if kind == "switch_weapon":
        return f"switch to weapon slot {action.get('slot', '')}"
    return kind


def battle_log_html(battle: Battle, events: Iterable[BattleEvent]) -> SafeString:
    """The battle log as a table: number, round, sentence; rounds start a band, bookkeeping is dim."""
    names = combatant_names(battle)
    rows = []
    current_round = 0
    for event in events:
        data: dict[str, Any] = event.data if isinstance(event.data, dict) else {"kind": str(event.data)}
        kind = str(data.get("kind", ""))
        if kind == "round_started" and isinstance(data.get("round"), int):
            current_round = data["round"]
            rows.append(format_html('<tr class="battle-round"><td>{}</td><td colspan="2"><strong>Round {}'
                                    "</strong></td></tr>", event.seq, current_round))
            continue
        style = ' style="color: var(--body-quiet-color)"' if kind in QUIET_EVENTS else ""
        if kind in ("death", "battle_over", "fled", "curse_struck"):
            style = ' style="font-weight: bold"'
        rows.append(format_html("<tr{}><td>{}</td><td>{}</td><td>{}</td></tr>",
                                mark_safe(style),  # safe: one of the two constants above
                                event.seq, current_round or "", event_sentence(data, names)))
    if not rows:
        return format_html("<em>{}</em>", "No events yet.")
    header = format_html("<thead><tr><th>#</th><th>round</th><th>{}</th></tr></thead>", "event")
    return format_html('<table class="battle-log">{}<tbody>{}</tbody></table>', header,
                       mark_safe("".join(rows)))  # safe: every row built by format_html


def combatants_html(battle: Battle) -> SafeString:
    """The combatants as the last step left them: HP, weapons, effects, fled or dead."""
    combatants = (battle.state or {}).get("combatants") or []
    if not combatants:
        return format_html("<em>{}</em>", "No state.")
    rows = []
    for c in combatants:
        if not isinstance(c, dict):
            continue
        effects = ", ".join(
            str(e.get("name", e)) + ("" if e.get("turns") is None else f" ({e['turns']})")
            for e in c.get("effects") or [] if isinstance(e, dict)
        )
        weapons = ", ".join(str(w.get("name", w)) for w in c.get("weapons") or [] if isinstance(w, dict))
        hp, max_hp = c.get("hp", "?"), c.get("max_hp", "?")
        state = "fled" if c.get("fled") else ("dead" if hp == 0 else "")
        rows.append(format_html(
            "<tr><td>{}</td><td>{}</td><td>{}{}</td><td>{} / {}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            c.get("id", ""), c.get("name", ""), c.get("kind", ""), " (boss)" if c.get("is_boss") else "",
            hp, max_hp, weapons, effects, state,
        ))
    header = mark_safe("<thead><tr><th>id</th><th>name</th><th>kind</th><th>HP</th><th>weapons</th>"
                       "<th>effects</th><th></th></tr></thead>")
    return format_html("<table>{}<tbody>{}</tbody></table>", header,
                       mark_safe("".join(rows)))  # safe: every row built by format_html


MAX_BIGINT = 2**63 - 1


def number_term(search_term: str) -> int | None:
    """The search term as a row id or seed, if it is one (ids are searched by index, not as text:
    the admin's "=field" search compares UPPER(field::text) and so reads the whole table)."""
    term = search_term.strip()
    if term.isdigit() and int(term) <= MAX_BIGINT:
        return int(term)
    return None


def _pretty_json(value: Any) -> SafeString:
    return format_html('<pre style="max-height: 30em; overflow: auto">{}</pre>',
                       json.dumps(value, indent=2, sort_keys=True, default=str))


def admin_link(obj: Any, text: object | None = None) -> SafeString | str:
    """A link to ``obj``'s admin page (plain text when its model has no admin)."""
    if obj is None:
        return "-"
    meta = obj._meta
    try:
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    except NoReverseMatch:
        return str(text if text is not None else obj)
    return format_html('<a href="{}">{}</a>', url, text if text is not None else obj)


class BattleActionInline(ReadOnlyInline):
    """The actions that took effect, one per step, with the idempotency key and the answer sent."""

    model = BattleAction
    fields = ("step", "player", "action_display", "idempotency_key", "answer", "created_at")
    readonly_fields = fields
    ordering = ("step",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._names: dict[int, dict[str, str]] = {}  # battle id -> combatant names, once per page

    def get_queryset(self, request: HttpRequest) -> QuerySet[BattleAction]:
        return super().get_queryset(request).select_related("player")

    def _names_of(self, battle_id: int) -> dict[str, str]:
        if battle_id not in self._names:
            battle = Battle.objects.only("setup", "state").filter(pk=battle_id).first()
            self._names[battle_id] = combatant_names(battle) if battle else {}
        return self._names[battle_id]

    @admin.display(description="action")
    def action_display(self, row: BattleAction) -> str:
        return action_text(row.action, self._names_of(row.battle_id))

    @admin.display(description="answer")
    def answer(self, row: BattleAction) -> SafeString | str:
        return response_summary(row.response)


def response_summary(response: dict[str, Any] | None) -> SafeString | str:
    """What the client was told: the deadline skip, or turn -> next turn, events and outcome."""
    if not isinstance(response, dict) or not response:
        return "-"
    if response.get("timeout"):
        return "skipped by the turn deadline"
    events = response.get("events")
    count = len(events) if isinstance(events, list) else 0
    return format_html(
        '<span title="{}">turn {} &rarr; {}, {} events from #{}, {}</span>',
        json.dumps(response, default=str)[:2000], response.get("turn", "?"), response.get("next_turn", "?"),
        count, response.get("first_event", "?"), response.get("outcome", "?"),
    )


class BattleOutcomeFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("ongoing", "ongoing"), ("over", "over"), ("waiting", "waiting for a player")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Battle]) -> QuerySet[Battle]:
        if self.value() == "ongoing":
            return queryset.filter(outcome="ongoing")
        if self.value() == "over":
            return queryset.exclude(outcome="ongoing")
        if self.value() == "waiting":
            return queryset.filter(outcome="ongoing", awaiting__isnull=False)
        return queryset


@admin.register(Battle)
class BattleAdmin(ReadOnlyAdmin):
    """Battles are records of the game: the log, the combatants and the actions, read-only."""

    list_display = ("id", "run_link", "floor", "room", "outcome", "step", "event_count", "awaiting",
                    "created_at", "ended_at")
    list_display_links = ("id",)
    list_filter = (BattleOutcomeFilter, "outcome", "floor", "engine_version")
    search_fields = ("run__members__player__display_name",)  # a number searches battle and run ids
    date_hierarchy = "created_at"
    list_select_related = ("run", "awaiting")
    list_per_page = 50
    show_full_result_count = False  # one COUNT(*) of a big table per page is enough
    inlines = (BattleActionInline,)
    fieldsets = (
        (None, {"fields": ("run_link", ("floor", "room"), "outcome", ("step", "event_count"), "awaiting",
                           "turn_deadline", ("created_at", "ended_at"))}),
        ("Combatants after the last step", {"fields": ("combatants",)}),
        ("Battle log", {"fields": ("log",)}),
        ("Replay data (setup + seed + actions reproduce the battle)",
         {"classes": ("collapse",), "fields": (("seed", "engine_version"), "enemy_kinds_display",
                                               "setup_json", "state_json")}),
    )
    readonly_fields = ("run_link", "floor", "room", "outcome", "step", "event_count", "awaiting",
                       "turn_deadline", "created_at", "ended_at", "combatants", "log", "seed",
                       "engine_version", "enemy_kinds_display", "setup_json", "state_json")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Battle]:
        queryset = super().get_queryset(request)
        view = request.resolver_match.url_name if request.resolver_match else None
        if view is not None and view.endswith("changelist"):
            queryset = queryset.defer("setup", "state")  # the big JSON columns: not on the list
        return queryset

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Battle],
                           search_term: str) -> tuple[QuerySet[Battle], bool]:
        number = number_term(search_term)
        if number is not None:
            return queryset.filter(Q(pk=number) | Q(run_id=number)), False
        return super().get_search_results(request, queryset, search_term)

    @admin.display(description="run", ordering="run")
    def run_link(self, battle: Battle) -> SafeString | str:
        return admin_link(battle.run, f"run #{battle.run_id} ({battle.run.status})")

    @admin.display(description="turn deadline")
    def turn_deadline(self, battle: Battle) -> str:
        if battle.is_over or battle.turn_started_at is None or battle.awaiting_id is None:
            return "-"
        seconds = CombatSettings.cached().turn_deadline_seconds
        return f"{battle.turn_started_at + timedelta(seconds=seconds):%Y-%m-%d %H:%M:%S %Z} (turn began " \
               f"{battle.turn_started_at:%H:%M:%S})"

    @admin.display(description="combatants")
    def combatants(self, battle: Battle) -> SafeString:
        return combatants_html(battle)

    @admin.display(description="events")
    def log(self, battle: Battle) -> SafeString:
        return battle_log_html(battle, battle.events.order_by("seq"))

    @admin.display(description="enemy kinds")
    def enemy_kinds_display(self, battle: Battle) -> SafeString | str:
        kinds = battle.enemy_kinds or {}
        if not kinds:
            return "-"
        by_slug = {k.slug: k for k in EnemyKind.objects.filter(slug__in=set(kinds.values()))}
        return format_html_join(", ", "{}: {}", (
            (cid, admin_link(by_slug.get(slug), slug) if slug in by_slug else slug)
            for cid, slug in sorted(kinds.items())
        ))

    @admin.display(description="setup")
    def setup_json(self, battle: Battle) -> SafeString:
        return _pretty_json(battle.setup)

    @admin.display(description="state")
    def state_json(self, battle: Battle) -> SafeString:
        return _pretty_json(battle.state)


@admin.register(BattleAction)
class BattleActionAdmin(ReadOnlyAdmin):
    """Every action that took effect, searchable by idempotency key (support: "did my action land?")."""

    list_display = ("id", "battle_link", "step", "player", "action_display", "idempotency_key", "answer",
                    "created_at")
    list_display_links = ("id",)
    list_filter = (("player", admin.EmptyFieldListFilter),)
    # The search (get_search_results) is exact: an idempotency key, or a battle or run id.
    search_fields = ("idempotency_key",)
    list_select_related = ("player", "battle")
    list_per_page = 50
    show_full_result_count = False  # one COUNT(*) of a big table per page is enough
    fields = ("battle_link", "step", "player", "action_display", "action_json", "idempotency_key", "answer",
              "response_json", "created_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[BattleAction]:
        return super().get_queryset(request).defer("battle__setup", "battle__state")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[BattleAction],
                           search_term: str) -> tuple[QuerySet[BattleAction], bool]:
        term = search_term.strip()
        if not term:
            return queryset, False
        matches = Q(idempotency_key=term)
        number = number_term(term)
        if number is not None:
            run_battles = Battle.objects.filter(run_id=number).values("pk")
            matches |= Q(battle_id=number) | Q(battle_id__in=run_battles)
        return queryset.filter(matches), False

    @admin.display(description="battle", ordering="battle")
    def battle_link(self, row: BattleAction) -> SafeString | str:
        return admin_link(row.battle, f"battle #{row.battle_id}")

    @admin.display(description="action")
    def action_display(self, row: BattleAction) -> str:
        return action_text(row.action)

    @admin.display(description="answer")
    def answer(self, row: BattleAction) -> SafeString | str:
        return response_summary(row.response)

    @admin.display(description="action (stored)")
    def action_json(self, row: BattleAction) -> SafeString:
        return _pretty_json(row.action)

    @admin.display(description="answer (stored)")
    def response_json(self, row: BattleAction) -> SafeString:
        return _pretty_json(row.response)
