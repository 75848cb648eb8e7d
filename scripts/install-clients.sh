#!/usr/bin/env bash
# Installs the real agent CLIs that the `*.clients.test.ts` files drive (Claude Code, Codex, Gemini CLI, opencode;
# exact versions, about 1.2 GB) into test/clients/node_modules, kept out of org's own dependencies. Idempotent: a no-op
# when all four are present at their pinned versions.
set -euo pipefail
cd "$(dirname "$0")/../test/clients"
installed() {
  node -e '
    const deps = require("./package.json").dependencies;
    const have = (name) => {
      try { return require(`./node_modules/${name}/package.json`).version; } catch { return ""; }
    };
    process.exit(Object.entries(deps).every(([name, want]) => have(name) === want) ? 0 : 1);
  ' || return 1
  for bin in claude codex gemini opencode; do [ -x "node_modules/.bin/$bin" ] || return 1; done
}
installed && exit 0
# npm ci refuses this lock: opencode-ai names binaries for other platforms that the registry answers 404 for at
# 1.18.33, so they are not in it; npm install skips such optional packages and --no-save leaves the lock as it is.
# Claude Code's and opencode's postinstalls only link their native binaries; npm 11 asks before running install scripts.
# Under `npm test` the root .npmrc's engine-strict reaches this npm through npm_config_*: Claude Code declares
# Node >= 22 for its JS entry, but what runs is its native binary, which the real-client tests prove on Node 20.
npm install --no-save --no-audit --no-fund --foreground-scripts --engine-strict=false
installed || { echo "install-clients: a CLI is still missing or at another version after npm install" >&2; exit 1; }
