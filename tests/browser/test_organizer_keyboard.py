"""The organizer's day by keyboard alone (a laptop, no mouse): the focus lands on the next thing to do after
every action, never on <body>: the first pair's name after creating the tournament, the pair form again after
each pair, the first match's quick result after the draw, the next match's quick result after each one (the
next round's once a round is done), the result taken back after an undo. The "Desfazer" toast is one Shift+Tab
away (Tab back; Tab from the field still goes on to "won", so tentos, Tab, Enter never undoes) and Alt+Z presses
it. The Tabs pressed are counted and printed.
"""
from __future__ import annotations

import pytest

from .conftest import shot, sign_in
from .test_accessibility import STRICT, violations

pytestmark = [pytest.mark.browser, pytest.mark.presentation]
PAIRS = [("Zap", "Ana Souza", "Beto Lima"), ("Copas", "Caio Reis", "Duda Melo"),
         ("Espadilha", "Edu Prado", "Fábio Luz"), ("Sete-belo", "Gil Ramos", "Hugo Dias")]


class Keys:
    def __init__(self, page):
        self.page, self.tabs = page, 0

    def press(self, key: str) -> None:
        if key in ("Tab", "Shift+Tab"):
            self.tabs += 1
        self.page.keyboard.press(key)

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)

    def focused(self) -> str:
        """The focused element: its id, else its test id, else its tag."""
        return self.page.evaluate("""() => { const el = document.activeElement;
            return el.id || el.getAttribute('data-testid') || el.tagName.toLowerCase(); }""")

    def tab_to(self, test_id: str, limit: int = 80) -> int:
        """Tab until the element with that test id has the focus; how many Tabs it took."""
        for count in range(1, limit + 1):
            self.press("Tab")
            if self.page.evaluate("document.activeElement.getAttribute('data-testid')") == test_id:
                return count
        raise AssertionError(f"{test_id} not reached in {limit} Tabs")


def test_the_keyboard_keeps_its_place_through_the_organizers_day(live_server, browser, transactional_db, settings):
    from playwright.sync_api import expect

    from scoring.models import Match

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from tests.tournaments.factories import organizer

    organizer("olga", password="truco-demo")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR",
                                  bypass_csp=True)  # axe goes in as an inline script
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the draw's confirmation: Enter on OK
    keys = Keys(page)
    sign_in(page, live_server.url, "olga", next_url="/torneios/novo/")

    # create: the name has the focus; Enter sends the form
    assert keys.focused() == "id_name"
    keys.type("Copa do Teclado")
    keys.press("Tab")
    assert keys.focused() == "id_date"
    keys.type("11212026")  # the headless browser's date field reads mm/dd/yyyy, whatever the page's language
    assert page.locator("#id_date").input_value() == "2026-11-21"
    with page.expect_navigation():
        keys.press("Enter")
    assert not page.locator(".errorlist").count(), page.locator(".errorlist").all_inner_texts()
    expect(page.locator("h1")).to_have_text("Copa do Teclado")
    assert keys.focused() == "pair_name"  # the next thing to do: the first pair

    for name, first, second in PAIRS:
        keys.type(name)
        keys.press("Tab")
        keys.type(first)
        while keys.focused() != "pair_second_name":
            keys.press("Tab")
        keys.type(second)
        keys.press("Enter")
        expect(page.locator("#messages")).to_contain_text(name)
        expect(page.locator("#pair_name")).to_be_focused()  # the form again, for the next pair
    tabs_before_draw = keys.tabs

    to_draw = keys.tab_to("draw")
    keys.press("Enter")  # and OK in the confirmation; the matches come in place (no page load)
    expect(page.locator(".messages")).to_contain_text("Sorteio feito")
    semis = [str(pk) for pk in Match.objects.filter(round__number=1).order_by("table").values_list("pk", flat=True)]
    expect(page.locator(f"#lp-{semis[0]}")).to_be_focused()  # the first match's quick result

    def quick(pk, loser: str) -> None:
        """The loser's tentos, Tab to the first pair's "won", Enter; the fragment comes back with the toast."""
        keys.type(loser)
        keys.press("Tab")
        keys.press("Enter")
        page.locator(f"#match-{pk} form.quick").wait_for(state="detached")
        expect(page.get_by_test_id("undo-toast")).to_be_visible()

    quick(semis[0], "7")
    expect(page.locator(f"#lp-{semis[1]}")).to_be_focused()  # the next match's quick result
    shot(page, "organizer-keyboard-toast.png")
    assert not violations(page, STRICT)  # the dashboard with its toast
    keys.press("Shift+Tab")
    expect(page.get_by_test_id("undo")).to_be_focused()  # "Desfazer" one (backward) Tab away
    keys.press("Tab")
    expect(page.locator(f"#lp-{semis[1]}")).to_be_focused()  # and back
    keys.press("Alt+z")  # the shortcut
    expect(page.locator("#messages")).to_contain_text("Resultado desfeito")
    expect(page.locator(f"#lp-{semis[0]}")).to_be_focused()  # the result taken back, to type again

    quick(semis[0], "5")
    expect(page.locator(f"#lp-{semis[1]}")).to_be_focused()
    quick(semis[1], "3")  # Tab from the field still reaches "won" with a toast shown; the round is done
    final = Match.objects.filter(round__number=2).order_by("pk").first()
    expect(page.locator(f"#lp-{final.pk}")).to_be_focused()  # the final's quick result
    quick(final.pk, "9")  # the champion: the next thing is the placings
    expect(page.get_by_test_id("placings-link")).to_be_focused()
    print(f"keyboard: {tabs_before_draw} Tabs to register 4 pairs after creating, {to_draw} to the draw, "
          f"{keys.tabs} in all; the last focus on {keys.focused()}")
    context.close()
