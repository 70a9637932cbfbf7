"""Compile the gettext catalogues (every app's locale/*/LC_MESSAGES/*.po) into the .mo files Django reads.

The project keeps only the .po files in the repository; the install (``dev.py serve`` and ``dev.py test``)
compiles them with polib, so a fresh machine needs no GNU gettext tools. A .mo is rewritten only when its .po
is newer, so the command is cheap to run on every start.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import polib
from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogue_files() -> list[Path]:
    """Every .po file of the project's own apps (top-level folders of the repository; installed packages
    ship their compiled catalogues) and of LOCALE_PATHS."""
    roots = [Path(p) for p in settings.LOCALE_PATHS]
    base = Path(settings.BASE_DIR).resolve()
    roots += [Path(app.path) / "locale" for app in apps.get_app_configs()
              if Path(app.path).resolve().parent == base]
    return sorted(po for root in roots if root.is_dir() for po in root.glob("*/LC_MESSAGES/*.po"))


def compile_catalogues(*, force: bool = False) -> list[Path]:
    """Write each catalogue's .mo beside it when missing or older than the .po; the .mo files written."""
    written = []
    for po in catalogue_files():
        mo = po.with_suffix(".mo")
        if force or not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            # Written beside and moved into place: parallel test workers compile at once, and a reader
            # must never see half a file.
            partial = mo.with_name(f".{mo.name}.{os.getpid()}")
            polib.pofile(str(po)).save_as_mofile(str(partial))
            os.replace(partial, mo)
            written.append(mo)
    return written


class Command(BaseCommand):
    help = "Compile the gettext catalogues (.po) of every app into .mo files (no GNU gettext needed)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--force", action="store_true", help="Rewrite every .mo, even an up-to-date one.")

    def handle(self, *args: Any, **options: Any) -> None:
        written = compile_catalogues(force=options["force"])
        self.stdout.write(f"compiled {len(written)} catalogue(s)")
