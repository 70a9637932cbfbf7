"""The crawler pages' DOM helpers in Chromium (play/static/play/crawler/dom.js): a redraw keeps the keyboard's
place. The battle's actions are drawn again whenever the run's stream says something happened; a player who
has tabbed to "attack" must still be on it after another member's turn arrives."""
from __future__ import annotations

import pytest

from tests.play.browser import NEEDS_CHROMIUM, browser, serial_live_server  # noqa: F401 - fixtures

pytestmark = [NEEDS_CHROMIUM, pytest.mark.django_db(transaction=True)]

REDRAW = """async ([focus, next]) => {
  const { replaceKeepingFocus } = await import('/static/play/crawler/dom.js');
  const box = document.createElement('div');
  document.body.append(box);
  const button = (kind, target) => {
    const b = document.createElement('button');
    b.dataset.kind = kind;
    if (target) b.dataset.target = target;
    b.textContent = `${kind} ${target || ''}`;
    return b;
  };
  box.append(button('attack', 'e1'), button('attack', 'e2'), button('defend'));
  const outside = document.createElement('input');
  document.body.append(outside);
  if (focus === 'outside') outside.focus(); else if (focus !== null) box.children[focus].focus();
  const fresh = next.map(([kind, target]) => button(kind, target));
  replaceKeepingFocus(box, fresh);
  const active = document.activeElement;
  const where = active === outside ? 'outside' : fresh.indexOf(active);
  box.remove();
  outside.remove();
  return where;
}"""


@pytest.mark.parametrize(("focus", "after", "expected"), [
    # the same button, moved: found by its data
    (1, [["defend", None], ["attack", "e1"], ["attack", "e2"]], 2),
    (2, [["attack", "e1"], ["defend", None]], 1),
    (0, [["attack", "e2"], ["defend", None]], -1),  # its target is gone: the focus goes to no other
    ("outside", [["attack", "e1"]], "outside"),  # the focus elsewhere is left where it is
])
def test_a_redraw_keeps_the_focus_on_the_button_with_the_same_data(serial_live_server, browser,  # noqa: F811
                                                                   focus, after, expected):
    page = browser.new_page()
    page.goto(f"{serial_live_server}/play/")
    assert page.evaluate(REDRAW, [focus, after]) == expected
    page.close()
