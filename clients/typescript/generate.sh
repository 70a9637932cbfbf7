#!/usr/bin/env bash
# Regenerates schema.d.ts, the API's types, from the server's current OpenAPI schema (docs/client.md).
#
#   clients/typescript/generate.sh          # rewrite clients/typescript/schema.d.ts
#   clients/typescript/generate.sh OUT.d.ts # write elsewhere (check.sh compares that with the committed one)
#
# The schema comes from drf-spectacular (`manage.py spectacular`) with the project's Python (the .venv of
# dev.py, or $PYTHON), on the embedded settings and in English, so the same code always gives the same file.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$here/schema.d.ts}"
python="${PYTHON:-$root/.venv/bin/python}"
[ -x "$python" ] || python="python3"
if [ ! -x "$here/node_modules/.bin/openapi-typescript" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$root" && env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL \
  "$python" manage.py spectacular --lang en --file "$work/schema.yaml")
"$here/node_modules/.bin/openapi-typescript" "$work/schema.yaml" --output "$work/schema.d.ts" >/dev/null
{
  echo "// Generated from the server's OpenAPI schema by clients/typescript/generate.sh: do not edit."
  cat "$work/schema.d.ts"
} >"$out"
