"""The typed client's wrapper in Chromium against a live server: sessions, refresh, errors, turn actions.

The module the pages import (/static/client/deepdelve.js) is loaded into the cell capture page and driven
with page.evaluate; every answer comes from the real server. Each client keeps its session in memory of
its own, so one page holds several players. A lost answer is made by letting the request reach the server
and then failing it in the browser (Playwright's routing): the server has acted, the client saw nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.play.browser import NEEDS_CHROMIUM, browser, serial_live_server  # noqa: F401 - fixtures

pytestmark = NEEDS_CHROMIUM

PASSWORD = "a long enough passphrase 42"

#: Loads the client module into the page and makes `window.player(name)`: a client whose session is kept in
#: memory of its own, registered as `name` (the page's sessionStorage is left to the page).
SETUP = """async (password) => {
  window.dd = await import("/static/client/deepdelve.js");
  window.memory = () => {
    const items = new Map();
    return { getItem: (k) => (items.has(k) ? items.get(k) : null), setItem: (k, v) => { items.set(k, v); },
             removeItem: (k) => { items.delete(k); } };
  };
  window.players = {};
  window.player = async (name) => {
    const client = new dd.Client(document.body.dataset.apiRoot, { storage: memory() });
    await client.register(name, password);
    window.players[name] = client;
    return client.me;
  };
  // an ApiError as plain data (or the thrown thing's name and message)
  window.caught = async (promise) => {
    try { await promise; return null; } catch (e) {
      return { name: e.name, status: e.status, code: e.code, message: e.message, details: e.details,
               turn: e.turn, currentTurn: e.currentTurn, isApiError: e instanceof dd.ApiError };
    }
  };
}"""

#: Alice opens a 5x5 cell capture lobby, Bob joins, Alice starts: the match as its first mover reads it.
#: Then `read(client)` reads the match, `act(client, turn, action, more)` posts an action through the client.
START_MATCH = """async () => {
  const { alice, bob } = players;
  const settings = { width: 5, height: 5 };
  const lobby = await alice.post("/api/v1/matches/", { body: { mode: "cell_capture", settings } });
  const path = { match_id: lobby.id };
  await bob.post("/api/v1/matches/{match_id}/join/", { path });
  await alice.post("/api/v1/matches/{match_id}/start/", { path });
  window.read = (client) => client.get("/api/v1/matches/{match_id}/", { path });
  window.act = (client, turn, action, more = {}) =>
    client.act("/api/v1/matches/{match_id}/actions/", { path, body: { turn, action }, ...more });
  window.mover = (await read(alice)).awaiting === alice.me.id ? alice : bob;
  window.other = mover === alice ? bob : alice;
  return read(mover);
}"""


@dataclass
class Tab:
    """A page with the client loaded, and every request it sent."""

    page: Any
    requests: list[Any] = field(default_factory=list)

    def run(self, script: str, arg: Any = None) -> Any:
        return self.page.evaluate(script, arg)

    def sent(self, path_end: str) -> list[Any]:
        return [r for r in self.requests if r.url.split("?")[0].endswith(path_end)]


@pytest.fixture
def tab(serial_live_server, browser):  # noqa: F811 - the fixtures imported above
    context = browser.new_context()
    tab = Tab(context.new_page())
    tab.page.goto(f"{serial_live_server}/play/cell-capture/")
    tab.run(SETUP, PASSWORD)
    tab.page.on("request", lambda request: tab.requests.append(request))
    yield tab
    context.close()


def test_register_sign_in_and_sign_out(tab):
    me = tab.run("() => player('alice')")
    signed = tab.run("""async (password) => {
      const client = new dd.Client(document.body.dataset.apiRoot, { storage: memory() });
      const me = await client.signIn("alice", password);
      const read = await client.get("/api/v1/me/");
      client.signOut();
      return { me, read: { id: read.id, username: read.username }, after: client.signedIn,
               notSignedIn: await caught((async () => client.me)()) };
    }""", PASSWORD)
    assert signed["me"] == signed["read"] == {"id": me["id"], "username": "alice"}
    assert signed["after"] is False
    assert signed["notSignedIn"]["code"] == "not_authenticated"


def test_an_expired_access_token_is_refreshed_once_for_every_waiting_call(tab):
    # given alice's access token no longer works
    me = tab.run("() => player('alice')")
    before = tab.run("""() => { const c = players.alice; const old = c.session.refresh;
      c.save({ ...c.session, access: "expired" }); return old; }""")
    # when three calls meet the 401 at once
    result = tab.run("""async () => {
      const c = players.alice;
      const answers = await Promise.all([1, 2, 3].map(() => c.get("/api/v1/me/")));
      return { ids: answers.map((a) => a.id), refresh: c.session.refresh, signedIn: c.signedIn };
    }""")
    # then one refresh served them all (a second would have used the rotated-out token and ended the session)
    assert result["ids"] == [me["id"]] * 3
    assert result["signedIn"] and result["refresh"] != before
    assert len(tab.sent("/api/v1/auth/token/refresh/")) == 1
    assert len(tab.sent("/api/v1/me/")) == 6  # each call twice: the 401, then the answer


def test_a_refused_refresh_ends_the_session_with_the_401(tab):
    tab.run("() => player('alice')")
    error = tab.run("""async () => {
      const c = players.alice;
      c.save({ ...c.session, access: "expired", refresh: "revoked" });
      const error = await caught(c.get("/api/v1/me/"));
      return { ...error, signedIn: c.signedIn, stored: c.storage.getItem("deepdelve.session") };
    }""")
    assert error["isApiError"] and error["status"] == 401
    assert error["code"] in ("not_authenticated", "authentication_failed")
    assert error["signedIn"] is False and error["stored"] is None
    assert len(tab.sent("/api/v1/auth/token/refresh/")) == 1


def test_errors_carry_the_apis_code_message_and_details(tab):
    tab.run("() => player('alice')")
    error = tab.run("""() => caught(players.alice.post("/api/v1/matches/",
      { body: { mode: "cell_capture", settings: { width: 4, height: 5 } } }))""")
    assert error["isApiError"] and error["name"] == "ApiError"
    assert (error["status"], error["code"]) == (400, "bad_size")
    assert error["message"] and isinstance(error["details"], dict)
    taken = tab.run("() => caught(player('alice'))")
    assert (taken["status"], taken["code"]) == (409, "username_taken")
    missing = tab.run("""() => caught(players.alice.get("/api/v1/matches/{match_id}/",
      { path: { match_id: 999999 } }))""")
    assert (missing["status"], missing["code"]) == (404, "match_not_found")


def test_each_action_gets_its_own_idempotency_key(tab):
    tab.run("() => Promise.all([player('alice'), player('bob')])")
    tab.run(START_MATCH)
    for _ in range(2):
        tab.run("""async () => {
          const actor = (await read(mover)).awaiting === mover.me.id ? mover : other;
          const seen = await read(actor);
          return act(actor, seen.turn, seen.allowed_actions[0]);
        }""")
    keys = [r.post_data_json["idempotency_key"] for r in tab.sent("/actions/")]
    assert len(keys) == 2 and len(set(keys)) == 2 and all(len(key) <= 64 for key in keys)


def test_an_action_whose_answer_was_lost_is_resent_with_its_key_and_taken_once(tab):
    # given the first answer to an action never reaches the browser, though the server took the action
    tab.run("() => Promise.all([player('alice'), player('bob')])")
    match = tab.run(START_MATCH)
    lost = []

    def lose_the_first_answer(route):
        if not lost:
            lost.append(route.fetch())  # the server acts and answers ...
            route.abort("connectionreset")  # ... and the browser sees the connection drop
        else:
            route.continue_()

    tab.page.route("**/actions/", lose_the_first_answer)
    # when the mover acts
    answer = tab.run("(match) => act(mover, match.turn, match.allowed_actions[0])", match)
    # then the same request went again, and the server gave its first answer: one action, one turn
    bodies = [r.post_data_json for r in tab.sent("/actions/")]
    assert len(bodies) == 2 and bodies[0] == bodies[1]
    assert lost[0].status == 200 and lost[0].json()["replayed"] is False
    assert answer["replayed"] is True
    assert answer["turn"] == match["turn"] and answer["next_turn"] == match["turn"] + 1
    assert tab.run("() => read(mover)")["turn"] == match["turn"] + 1


def test_a_stale_turn_is_never_resent_by_itself(tab):
    tab.run("() => Promise.all([player('alice'), player('bob')])")
    match = tab.run(START_MATCH)
    tab.run("(match) => act(mover, match.turn, match.allowed_actions[0])", match)
    # the mover sends an action for the turn that has passed: refused, as a StaleTurnError, and sent once
    error = tab.run("(match) => caught(act(mover, match.turn, match.allowed_actions[1]))", match)
    assert error["isApiError"] and error["name"] == "StaleTurnError"
    assert (error["status"], error["code"]) == (409, "stale_turn")
    assert (error["turn"], error["currentTurn"]) == (match["turn"], match["turn"] + 1)
    assert len(tab.sent("/actions/")) == 2
    # with onStale the client reads the match again and lets the caller choose: giving up throws as before
    given_up = tab.run("""(match) => caught(act(mover, match.turn, match.allowed_actions[1],
      { onStale: (latest) => { window.latest = latest; return null; } }))""", match)
    assert given_up["code"] == "stale_turn"
    assert tab.run("() => latest.turn") == match["turn"] + 1


def test_on_a_stale_turn_the_caller_may_choose_again_from_the_state_read_again(tab):
    tab.run("() => Promise.all([player('alice'), player('bob')])")
    match = tab.run(START_MATCH)
    # both play a turn: the mover's first turn is two turns ago
    tab.run("""async (match) => {
      await act(mover, match.turn, match.allowed_actions[0]);
      const seen = await read(other);
      await act(other, seen.turn, seen.allowed_actions[0]);
    }""", match)
    # the mover answers the first turn again (a tab left open): the callback chooses for the current turn
    answer = tab.run("""(match) => act(mover, match.turn, match.allowed_actions[2],
      { onStale: (latest) => ({ turn: latest.turn, action: latest.allowed_actions[0] }) })""", match)
    bodies = [r.post_data_json for r in tab.sent("/actions/")]
    assert answer["replayed"] is False and answer["turn"] == match["turn"] + 2
    assert bodies[-1]["turn"] == match["turn"] + 2
    assert bodies[-1]["idempotency_key"] != bodies[-2]["idempotency_key"]
    assert tab.run("() => read(mover)")["turn"] == match["turn"] + 3


#: Subscribes the other seat to the match's stream, lets the mover act twice, and waits (in the page) until
#: the events of both actions arrived; returns every (kind, id) received and the ticket count.
SUBSCRIBE = """async () => {
  const first = await read(mover);
  const received = [];
  let lives = 0;
  const subscription = other.subscribe("/api/v1/matches/{match_id}/stream/", {
    path: { match_id: first.id },
    kinds: ["match", "placed", "upgraded", "exploded", "drops", "captured", "skipped", "eliminated", "won"],
    since: () => first.last_event,
    retryMs: 100,
    onLive: (live) => { if (live) lives += 1; },
    onMessage: (kind, data, id) => { if (kind !== "match") received.push([kind, id, data.seq]); },
  });
  const until = async (test) => {
    for (let i = 0; i < 200 && !test(); i += 1) await new Promise((r) => setTimeout(r, 50));
  };
  await act(mover, first.turn, first.allowed_actions[0]);
  const second = await read(other);
  await act(other, second.turn, second.allowed_actions[0]);
  const last = (await read(mover)).last_event;
  await until(() => received.some(([, id]) => id === last));
  subscription.close();
  return { received, last, since: first.last_event, lives, liveAfterClose: subscription.live() };
}"""


def test_a_subscription_gets_each_event_once_in_order_across_its_reconnects(tab):
    # given a started match, the other seat subscribed from the mover's first read on
    tab.run("() => Promise.all([player('alice'), player('bob')])")
    tab.run(START_MATCH)
    # when two actions are taken while the stream drops after every answer (this test's server is WSGI:
    # a stream answers what there is and ends, so the subscription reopens with a new ticket each time)
    got = tab.run(SUBSCRIBE)
    # then every event after the mark arrived once, in order, up to the last; each connection took a ticket
    ids = [event_id for _, event_id, _ in got["received"]]
    assert ids == list(range(got["since"] + 1, got["last"] + 1))
    assert all(event_id == seq for _, event_id, seq in got["received"])
    assert got["lives"] >= 2 and len(tab.sent("/streams/ticket/")) >= got["lives"]
    assert got["liveAfterClose"] is False
