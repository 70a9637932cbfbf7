"""The game speaks the request's language: English by default, Russian on Accept-Language: ru.

The catalogues are the project's .po files, compiled by ``manage.py compile_catalogs`` (the install and
the test session run it); every entry of every catalogue is translated.
"""
from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.test import Client

from backend.management.commands.compile_catalogs import catalogue_files, compile_catalogues


@pytest.mark.django_db
def test_a_message_is_english_by_default_and_russian_on_request() -> None:
    client = Client()
    english = client.get("/api/v1/no-such-route/").json()["error"]
    russian = client.get("/api/v1/no-such-route/", HTTP_ACCEPT_LANGUAGE="ru").json()["error"]
    assert english == {"code": "not_found", "message": "No such route.", "details": {}}
    assert russian == {"code": "not_found", "message": "Такого адреса нет.", "details": {}}


@pytest.mark.django_db
def test_an_unknown_language_falls_back_to_english() -> None:
    reply = Client().get("/api/v1/no-such-route/", HTTP_ACCEPT_LANGUAGE="fr, de;q=0.8")
    assert reply.json()["error"]["message"] == "No such route."


def test_every_catalogue_is_wholly_translated() -> None:
    files = catalogue_files()
    assert files, "no catalogue found"
    for po in files:
        catalogue = polib.pofile(str(po))
        untranslated = [e.msgid for e in catalogue if not e.translated() or e.obsolete]
        assert untranslated == [], f"{po}: untranslated or fuzzy entries"


def test_catalogues_are_compiled_only_when_their_text_changed(tmp_path: Path, settings) -> None:
    locale = tmp_path / "locale" / "ru" / "LC_MESSAGES"
    locale.mkdir(parents=True)
    po = locale / "django.po"
    po.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "Hello."\nmsgstr "Привет."\n', encoding="utf-8")
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    assert locale / "django.mo" in compile_catalogues()
    assert locale / "django.mo" not in compile_catalogues()  # up to date: not rewritten
    assert polib.mofile(str(locale / "django.mo")).find("Hello.").msgstr == "Привет."
    assert sorted(p.name for p in locale.iterdir()) == ["django.mo", "django.po"]  # no partial file left
