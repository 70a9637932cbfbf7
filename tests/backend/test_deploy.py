"""Deploy configuration: ``manage.py check --deploy`` is clean with production settings.

Each check runs ``manage.py`` as a subprocess with the environment a production server gets
(docs/operations.md), so the settings module is imported fresh, exactly as gunicorn would.
"""
from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "ALLOWED_HOSTS": "play.deepdelve.example",
    "CSRF_TRUSTED_ORIGINS": "https://play.deepdelve.example",
    "DATABASE_URL": "postgres://deepdelve@db.deepdelve.internal:5432/deepdelve",
    "REDIS_URL": "redis://redis.deepdelve.internal:6379/1",
    "CELERY_BROKER_URL": "redis://redis.deepdelve.internal:6379/0",
}
# Variables of this run that would leak into the subprocess's settings.
SETTINGS_VARIABLES = ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "DATABASE_URL",
                      "REDIS_URL", "CELERY_BROKER_URL", "DB_POOL", "SECURE_SSL_REDIRECT",
                      "SECURE_HSTS_SECONDS", "DEEPDELVE_DATA_DIR", "DJANGO_SETTINGS_MODULE")


def manage(*args: str, env: dict[str, str], data_dir: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    clean.update(env, DEEPDELVE_DATA_DIR=str(data_dir))
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True,
                          text=True, timeout=120, check=False)


def secret_key() -> str:
    return secrets.token_urlsafe(50)


@pytest.mark.parametrize("environment", [
    PRODUCTION,
    {"DEBUG": "0", "ALLOWED_HOSTS": "deepdelve.local"},  # the embedded SQLite + filesystem broker, hardened
], ids=["postgres-redis", "embedded"])
def test_check_deploy_reports_nothing_with_production_settings(environment: dict[str, str],
                                                               tmp_path: Path) -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING",
                    env={**environment, "SECRET_KEY": secret_key()}, data_dir=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_development_defaults_would_fail_the_deploy_check(tmp_path: Path) -> None:
    """The check above is not vacuous: with DEBUG on (the embedded default) it does complain."""
    result = manage("check", "--deploy", "--fail-level", "WARNING", env={}, data_dir=tmp_path)
    assert result.returncode != 0
    assert "security.W018" in result.stderr + result.stdout  # DEBUG must be off in deployment


def test_debug_off_without_a_secret_key_refuses_to_start(tmp_path: Path) -> None:
    result = manage("check", env=dict(PRODUCTION), data_dir=tmp_path)
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr
