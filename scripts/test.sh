#!/usr/bin/env bash
# `npm test`: installs what the tests need on a fresh machine, then typecheck, lint, format check, knip, Vitest and Playwright.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's Chromium for the browser tests…"
  if [ "$(id -u)" = "0" ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -d node_modules ]; then npm ci; fi

echo "== typecheck"
npm run typecheck

echo "== lint (ESLint), format (Prettier) and dead code (knip)"
npm run lint
npm run format:check
npm run knip

if [ -n "${TEST_DATABASE_URL:-}" ]; then ON="TEST_DATABASE_URL's server"; else ON="an embedded PostgreSQL for the run"; fi
echo "== unit and service tests (on $ON)"
npx vitest run

if [ -f realtime/vitest.config.ts ]; then
  echo "== realtime server"
  npx vitest run --config realtime/vitest.config.ts
fi

echo "== production build"
npm run build

echo "== end-to-end (Playwright, production build, /usr/bin/chromium)"
npx playwright test
