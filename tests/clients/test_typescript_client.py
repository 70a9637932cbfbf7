"""The typed client's committed types are what the current schema generates, and everything type-checks.

The same two checks as clients/typescript/check.sh (which CI runs before the tests), here so that a schema
change shows up in `python3 dev.py test` too. They need Node and the pinned tools (`npm ci` in
clients/typescript/, which check.sh does); without them the tests are skipped, saying so.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
TOOLS = CLIENT / "node_modules" / ".bin"
INSTALLED = all((TOOLS / name).exists() for name in ("openapi-typescript", "tsc"))

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not INSTALLED,
    reason="needs Node and the typed client's tools: run clients/typescript/check.sh (it runs npm ci)",
)


def test_the_committed_types_are_what_the_current_schema_generates(tmp_path):
    fresh = tmp_path / "schema.d.ts"
    subprocess.run([str(CLIENT / "generate.sh"), str(fresh)], check=True, capture_output=True,
                   env={**os.environ, "PYTHON": sys.executable}, timeout=120)
    assert fresh.read_text() == (CLIENT / "schema.d.ts").read_text(), (
        "clients/typescript/schema.d.ts is stale: run clients/typescript/generate.sh and commit it")


def test_the_wrapper_and_the_pages_type_check_against_the_committed_types():
    checked = subprocess.run([str(TOOLS / "tsc"), "--project", str(CLIENT / "tsconfig.json")], check=False,
                             cwd=CLIENT, capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
