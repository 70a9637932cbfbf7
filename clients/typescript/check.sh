#!/usr/bin/env bash
# CI's check of the typed client (docs/client.md): schema.d.ts is what the current schema generates, and the
# wrapper and the browser pages' modules type-check against it (tsc --checkJs, strict).
#
#   clients/typescript/check.sh
#
# Installs the pinned tools first (npm ci: package-lock.json). Fails, saying how to fix it, when the
# committed types are stale (a schema change that was not regenerated) or when the wrapper or a page
# uses a route, parameter or field the way the schema no longer allows.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
npm ci --no-audit --no-fund --loglevel=error

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
"$here/generate.sh" "$work/schema.d.ts"
if ! cmp -s "$work/schema.d.ts" schema.d.ts; then
  diff -u --label schema.d.ts --label regenerated schema.d.ts "$work/schema.d.ts" | head -60 || true
  echo "clients/typescript/schema.d.ts is not what the current schema generates (the diff's start is above)."
  echo "Regenerate it with clients/typescript/generate.sh and commit it."
  status=1
fi
if ! node_modules/.bin/tsc --project tsconfig.json; then
  echo "The typed client or a page's modules do not type-check against clients/typescript/schema.d.ts."
  status=1
fi
exit "$status"
