"""Settings for benchmark servers: the real settings, with a URL map that adds a baseline view.

Database connections: Django's native pool when ``DB_POOL`` is on (needs psycopg[pool]);
otherwise persistent per-thread connections (``CONN_MAX_AGE``), so that neither the baseline
nor the API pays a PostgreSQL connection set-up per request.
"""
import os

from backend.settings import *  # the benchmark serves exactly the real configuration
from backend.settings import DATABASES

ROOT_URLCONF = "bench.bench_urls"

if "pool" not in DATABASES["default"].get("OPTIONS", {}):
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("BENCH_CONN_MAX_AGE", "600"))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
