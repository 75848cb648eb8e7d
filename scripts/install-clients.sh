#!/usr/bin/env bash
# Installs the real agent CLIs that test/real-clients.test.ts drives (exact versions, about 760 MB) into
# test/clients/node_modules, kept out of org's own dependencies. Idempotent: a no-op when they are present.
set -euo pipefail
cd "$(dirname "$0")/../test/clients"
want_claude="$(node -p 'require("./package.json").dependencies["@anthropic-ai/claude-code"]')"
want_codex="$(node -p 'require("./package.json").dependencies["@openai/codex"]')"
have() { node -p "try { require('./node_modules/$1/package.json').version } catch { '' }"; }
if [ "$(have @anthropic-ai/claude-code)" = "$want_claude" ] && [ "$(have @openai/codex)" = "$want_codex" ] \
  && [ -x node_modules/.bin/claude ] && [ -x node_modules/.bin/codex ]; then
  exit 0
fi
# Claude Code's postinstall only links its native binary; npm 11 asks before running install scripts.
npm ci --no-audit --no-fund --foreground-scripts
