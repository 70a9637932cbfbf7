"""The load benchmark's clients: each one is a party of two players (two JWTs) on one keep-alive
connection that, request after request, either browses (guild list pages in every ordering and
their cursors, guild details, a name search, /me/, a token refresh, the lobby list) or plays
(opens a lobby, the second player joins, both look at the junk dealer's offer and choose a
weapon, the host starts, then the party walks room by room: battles are read as the awaited
player and answered on that player's turn with the turn number and an idempotency key; loot
is sometimes picked up; after a few rooms the party leaves: from a treasure or rest room, or
each member flees an ordinary battle on their turn).

Every request is one ``Sample``: endpoint label, status, the error code of a non-2xx answer,
when it began and how long it took. 409 answers are game refusals (SPEC: "a game rule refuses");
everything else that is not 2xx is an error. Stdlib only.
"""
from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

API = "/api/v1"
ORDERINGS = ("name", "-name", "members_count", "-members_count", "activity", "-activity")
# Words of the seeded guild names (bench_guilds.SEED_STEPS): searches that find many, and a word
# with a number that finds one guild or none (the worst case: no index serves icontains).
SEARCH_WORDS = ("iron", "silver", "crimson", "shadow", "golden", "frost", "ember", "storm", "wolves",
                "ravens", "blades", "lanterns", "owls", "serpents", "torches", "hollow")

# What a client does with each request, by share (the rest of 1.0 is playing).
MIX = (("browse", 0.22), ("detail", 0.12), ("search", 0.03), ("me", 0.08), ("refresh", 0.02),
       ("lobbies", 0.03))
PLAY_SHARE = 1.0 - sum(share for _, share in MIX)

# Behaviour while playing.
FRENZY_SHARE = 0.2          # lobbies opened as frenzy runs
TAKE_WEAPON_SHARE = 0.7     # members taking the junk dealer's first weapon (else refusing)
TAKE_LOOT_SHARE = 0.3       # chance to pick up an item lying in the room, per look
ESCAPE_SHARE = 0.2          # chance the party leaves from a treasure or rest room anyway
PATIENCE = (2, 8)           # rooms a party means to go through (uniform); then it leaves when it can:
                            # from a treasure or rest room, or each member flees an ordinary battle
RETRY_SHARE = 0.04          # an accepted action re-sent with the same idempotency key (lost answer)
DOUBLE_TAP_SHARE = 0.04     # an accepted action re-sent with a new key (double tap): stale_turn


@dataclass(frozen=True)
class Sample:
    label: str
    variant: str
    began: float
    seconds: float
    status: int
    code: str


@dataclass(frozen=True)
class Actor:
    player: int
    access: str
    refresh: str


class Connection:
    """One keep-alive HTTP/1.1 connection to the server; reconnects after a transport error."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, token: str | None, body: Any = None
                ) -> tuple[int, Any, float, float]:
        """(status, parsed JSON or None, began, seconds); status -1 on a transport error."""
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        began = time.perf_counter()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.conn.request(method, path, body=payload, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
            status = response.status
            if response.getheader("Connection", "").lower() == "close":
                self.close()
        except (OSError, http.client.HTTPException):
            self.close()
            return -1, None, began, time.perf_counter() - began
        seconds = time.perf_counter() - began
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = None
        return status, data, began, seconds

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def error_code(status: int, data: Any) -> str:
    if 200 <= status < 300:
        return ""
    if status == -1:
        return "transport"
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        return str(data["error"].get("code", ""))
    return f"http_{status}"


class InProcessConnection:
    """The same requests through Django's test client in this process (no HTTP, one thread), each
    with the number of SQL queries it ran: what one request costs, without concurrency."""

    def __init__(self) -> None:
        from django.test import Client

        self.client = Client()
        self.queries: list[int] = []
        self.cpu: list[float] = []

    def request(self, method: str, path: str, token: str | None, body: Any = None
                ) -> tuple[int, Any, float, float]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        headers = {"Authorization": f"Bearer {token}"} if token else {}
        payload = json.dumps(body) if body is not None else ""
        began, cpu = time.perf_counter(), time.process_time()
        with CaptureQueriesContext(connection) as captured:
            response = self.client.generic(method, path, payload, content_type="application/json",
                                           headers=headers)
        seconds = time.perf_counter() - began
        self.cpu.append(time.process_time() - cpu)
        self.queries.append(len(captured))
        try:
            data = json.loads(response.content) if response.content else None
        except ValueError:
            data = None
        return response.status_code, data, began, seconds

    def close(self) -> None:
        pass


@dataclass
class Party:
    """A client: two players who browse and play together, one request per ``tick``."""

    index: int
    port: int
    host: Actor
    mate: Actor
    seed: int
    samples: list[Sample] = field(default_factory=list)
    in_process: bool = False

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.http: Connection | InProcessConnection = (
            InProcessConnection() if self.in_process else Connection(self.port))
        self.actors = {self.host.player: self.host, self.mate.player: self.mate}
        # Browsing state.
        self.ordering = "-activity"
        self.cursor: str | None = None
        self.pages_deep = 0
        self.seen_guilds: list[int] = []
        # Playing state.
        self.phase = "idle"
        self.run_id: int | None = None
        self.run: dict[str, Any] = {}
        self.choosers: list[int] = []
        self.offer: list[dict[str, Any]] = []
        self.battle_id: int | None = None
        self.viewer: int = self.host.player
        self.battle: dict[str, Any] = {}
        self.since = 0
        self.rooms = 0
        self.patience = 0
        self.last_act: dict[str, Any] | None = None
        self.replay: str | None = None  # "retry" or "double" re-send due next

    # --- plumbing -------------------------------------------------------------------------------

    def call(self, label: str, method: str, path: str, actor: Actor | None, body: Any = None,
             variant: str = "") -> tuple[int, Any]:
        token = actor.access if actor else None
        status, data, began, seconds = self.http.request(method, API + path, token, body)
        self.samples.append(Sample(label, variant, began, seconds, status, error_code(status, data)))
        return status, data

    def tick(self) -> None:
        """Exactly one request."""
        roll = self.rng.random()
        if roll < PLAY_SHARE:
            self.play()
            return
        roll -= PLAY_SHARE
        for action, share in MIX:
            if roll < share:
                getattr(self, action)()
                return
            roll -= share
        self.me()

    def someone(self) -> Actor:
        return self.host if self.rng.random() < 0.5 else self.mate

    # --- browsing -------------------------------------------------------------------------------

    def browse(self) -> None:
        if self.cursor and self.pages_deep < 5 and self.rng.random() < 0.6:
            query = {"ordering": self.ordering, "cursor": self.cursor}
            label = "GET guilds/ next page (cursor)"
            self.pages_deep += 1
        else:
            self.ordering = self.rng.choice(ORDERINGS)
            query = {"ordering": self.ordering}
            label = "GET guilds/ first page"
            self.pages_deep = 0
        status, data = self.call(label, "GET", "/guilds/?" + urlencode(query), self.someone(),
                                 variant=self.ordering)
        if status == 200:
            self.cursor = data.get("next")
            ids = [item["id"] for item in data.get("results", [])]
            if ids:
                self.seen_guilds = ids
        else:
            self.cursor = None

    def detail(self) -> None:
        if not self.seen_guilds:
            self.browse()
            return
        guild = self.rng.choice(self.seen_guilds)
        self.call("GET guilds/{id}/", "GET", f"/guilds/{guild}/", self.someone())

    def search(self) -> None:
        word = self.rng.choice(SEARCH_WORDS)
        if self.rng.random() < 0.5:
            term, variant = word, "word"
        else:
            term, variant = f"{word} {self.rng.randrange(1, 100_000)}", "word and number"
        self.call("GET guilds/?search=", "GET", "/guilds/?" + urlencode({"search": term, "ordering": "name"}),
                  self.someone(), variant=variant)

    def me(self) -> None:
        self.call("GET me/", "GET", "/me/", self.someone())

    def refresh(self) -> None:
        actor = self.someone()
        self.call("POST auth/token/refresh/", "POST", "/auth/token/refresh/", None,
                  {"refresh": actor.refresh})

    def lobbies(self) -> None:
        self.call("GET runs/lobbies/", "GET", "/runs/lobbies/", self.someone())

    # --- playing --------------------------------------------------------------------------------

    def inside(self) -> list[int]:
        members = self.run.get("members") or []
        return [m["player"] for m in members
                if m.get("status") == "in_dungeon" and m["player"] in self.actors]

    def member_actor(self) -> Actor:
        inside = self.inside()
        return self.actors[self.rng.choice(inside)] if inside else self.host

    def play(self) -> None:
        getattr(self, "play_" + self.phase)()

    def play_idle(self) -> None:
        kind = "frenzy" if self.rng.random() < FRENZY_SHARE else "ordinary"
        status, data = self.call("POST runs/ (open lobby)", "POST", "/runs/", self.host, {"kind": kind},
                                 variant=kind)
        if status == 201:
            self.run_id, self.run, self.phase = data["id"], data, "join"
            self.rooms, self.patience = 0, self.rng.randint(*PATIENCE)
        elif status == 409 and isinstance(data, dict):  # still in another run (e.g. a previous invocation)
            other = (data["error"].get("details") or {}).get("run")
            if other:
                self.run_id, self.phase = int(other), "refresh"

    def play_join(self) -> None:
        status, _ = self.call("POST runs/{id}/join/", "POST", f"/runs/{self.run_id}/join/", self.mate)
        if status == 200:
            self.choosers, self.phase = [self.host.player, self.mate.player], "offer"
        else:
            self.phase = "refresh"

    def play_offer(self) -> None:
        actor = self.actors[self.choosers[0]]
        status, data = self.call("GET runs/{id}/offer/", "GET", f"/runs/{self.run_id}/offer/", actor)
        self.offer = data if status == 200 and isinstance(data, list) else []
        self.phase = "weapon"

    def play_weapon(self) -> None:
        actor = self.actors[self.choosers[0]]
        take = bool(self.offer) and self.rng.random() < TAKE_WEAPON_SHARE
        choice = self.offer[0]["id"] if take else None
        status, data = self.call("POST runs/{id}/weapon/", "POST", f"/runs/{self.run_id}/weapon/", actor,
                                 {"item_kind": choice}, variant="take" if take else "refuse")
        if status == 409 and take and error_code(status, data) != "weapon_already_chosen":
            self.offer = []  # e.g. weapon_limit: two weapons carried already; refuse on the next request
            return
        self.choosers.pop(0)
        self.phase = "offer" if self.choosers else "start"
        if status != 200 and status != 409:
            self.phase = "refresh"

    def play_start(self) -> None:
        status, data = self.call("POST runs/{id}/start/", "POST", f"/runs/{self.run_id}/start/", self.host)
        self.after_run_answer(status, data)

    def after_run_answer(self, status: int, data: Any) -> None:
        if status == 200 and isinstance(data, dict):
            self.run = data
            self.phase = "run"
        else:
            self.phase = "refresh"

    def play_refresh(self) -> None:
        if self.run_id is None:
            self.phase = "idle"
            self.play_idle()
            return
        status, data = self.call("GET runs/{id}/", "GET", f"/runs/{self.run_id}/", self.member_actor())
        if status == 200:
            self.run = data
            if data["status"] == "lobby":  # a lobby left half-made: go through it again
                pending = [m["player"] for m in data["members"] if m["weapon_choice"] == "pending"
                           and m["status"] == "joined" and m["player"] in self.actors]
                joined = {m["player"] for m in data["members"] if m["status"] == "joined"}
                if self.mate.player not in joined:
                    self.phase = "join"
                elif pending:
                    self.choosers, self.phase = pending, "offer"
                else:
                    self.phase = "start"
            else:
                self.phase = "run"
        else:
            self.run_id, self.run, self.phase = None, {}, "idle"

    def play_run(self) -> None:
        run = self.run
        if run.get("status") != "active" or not self.inside():
            self.run_id, self.run, self.phase = None, {}, "idle"
            self.play_idle()
            return
        room = run.get("current_room") or {}
        battle = room.get("battle")
        if battle and battle.get("outcome") == "ongoing":
            if battle["id"] != self.battle_id:
                self.battle_id, self.since = battle["id"], 0
            self.viewer = self.inside()[0]
            self.phase = "battle"
            self.play_battle()
            return
        loot = [item for item in room.get("loot") or [] if item.get("taken_by") is None]
        actor = self.member_actor()
        if loot and self.rng.random() < TAKE_LOOT_SHARE:
            item = self.rng.choice(loot)
            status, data = self.call("POST runs/{id}/loot/{loot}/take/", "POST",
                                     f"/runs/{self.run_id}/loot/{item['id']}/take/", actor)
            if status == 200:
                self.run = data
            elif status != 409:
                self.phase = "refresh"
            else:  # refused (a carry limit): leave it lying there
                room["loot"] = [i for i in room["loot"] if i["id"] != item["id"]]
            return
        if room.get("kind") in ("treasure", "rest") and (self.rooms >= self.patience
                                                         or self.rng.random() < ESCAPE_SHARE):
            status, data = self.call("POST runs/{id}/escape/", "POST", f"/runs/{self.run_id}/escape/", actor,
                                     {"step": run["step"]})
        else:
            status, data = self.call("POST runs/{id}/advance/", "POST", f"/runs/{self.run_id}/advance/",
                                     actor, {"step": run["step"]})
            self.rooms += 1
        self.after_run_answer(status, data)

    def play_battle(self) -> None:
        viewer = self.actors.get(self.viewer, self.host)
        status, data = self.call("GET battles/{id}/", "GET", f"/battles/{self.battle_id}/?since={self.since}",
                                 viewer)
        if status != 200:
            self.phase = "refresh"
            return
        self.battle = data
        self.since = data.get("last_event", self.since)
        if data["outcome"] != "ongoing":
            self.phase = "refresh"
        elif data["awaiting"] == viewer.player and data["allowed_actions"]:
            self.phase = "act"
        elif data["awaiting"] in self.actors:
            self.viewer = data["awaiting"]  # that player's client is the one to look next
        else:
            self.phase = "refresh"

    def choose_action(self) -> dict[str, Any]:
        allowed = self.battle["allowed_actions"]
        me = next((c for c in self.battle["combatants"] if c["id"] == f"p{self.viewer}"), None)
        drinks = [a for a in allowed if a["kind"] == "drink"]
        if me and drinks and me["hp"] * 3 < me["max_hp"]:
            return {"kind": "drink", "potion": drinks[0]["potion"]}
        if self.rooms >= self.patience and any(a["kind"] == "flee" for a in allowed):
            return {"kind": "flee"}
        attacks = [a for a in allowed if a["kind"] == "attack"]
        if attacks:
            return {"kind": "attack", "target": self.rng.choice(attacks)["target"]}
        return {"kind": allowed[0]["kind"], **{k: v for k, v in allowed[0].items() if k != "kind"}}

    def play_act(self) -> None:
        if self.replay and self.last_act:
            self.resend()
            return
        body = {"turn": self.battle["turn"], "action": self.choose_action(),
                "idempotency_key": uuid.uuid4().hex}
        actor = self.actors[self.viewer]
        status, _ = self.call("POST battles/{id}/actions/", "POST", f"/battles/{self.battle_id}/actions/",
                              actor, body, variant=body["action"]["kind"])
        self.phase = "battle"
        if status == 200:
            self.last_act = body
            roll = self.rng.random()
            if roll < RETRY_SHARE:
                self.replay, self.phase = "retry", "act"
            elif roll < RETRY_SHARE + DOUBLE_TAP_SHARE:
                self.replay, self.phase = "double", "act"
        elif status != 409:
            self.phase = "refresh"

    def resend(self) -> None:
        assert self.last_act is not None
        body = dict(self.last_act)
        if self.replay == "retry":
            label = "POST battles/{id}/actions/ retry, same key"
        else:
            label = "POST battles/{id}/actions/ double tap, new key"
            body["idempotency_key"] = uuid.uuid4().hex
        status, data = self.call(label, "POST", f"/battles/{self.battle_id}/actions/",
                                 self.actors[self.viewer], body)
        if self.replay == "retry" and status == 200:  # must be the original answer, not a second effect
            replayed = isinstance(data, dict) and data.get("replayed") is True
            last = self.samples[-1]
            self.samples[-1] = Sample(last.label, "replayed" if replayed else "NOT replayed", last.began,
                                      last.seconds, last.status, last.code)
        self.replay, self.last_act, self.phase = None, None, "battle"


def run_window(parties: list[Party], *, seconds: float, warmup: float) -> tuple[list[Sample], float]:
    """Every party in its own thread, ticking back to back for ``warmup + seconds``; returns the
    samples that began after the warm-up and finished inside the window, and the window length."""
    barrier = threading.Barrier(len(parties) + 1)
    clock: dict[str, float] = {}
    kept: list[list[Sample]] = [[] for _ in parties]

    def worker(slot: int, party: Party) -> None:
        barrier.wait()
        start, end = clock["start"], clock["end"]
        party.samples = []
        while time.perf_counter() < end:
            party.tick()
        kept[slot] = [s for s in party.samples if s.began >= start and s.began + s.seconds <= end]
        party.samples = []

    threads = [threading.Thread(target=worker, args=(i, p), daemon=True) for i, p in enumerate(parties)]
    for thread in threads:
        thread.start()
    now = time.perf_counter()
    clock["start"], clock["end"] = now + warmup, now + warmup + seconds
    barrier.wait()
    for thread in threads:
        thread.join(timeout=warmup + seconds + 120)
    return [s for samples in kept for s in samples], seconds
