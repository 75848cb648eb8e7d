#!/usr/bin/env bash
# Brings a fresh clone to where `npm test` (setup.sh test) or `npm start` (setup.sh demo) can run: system programs via
# apt when root or passwordless sudo allows it, else exactly what is missing and how to install it; then npm deps and,
# for the tests, the real agent CLIs. Idempotent and quick when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."
for_what="${1:-test}"

# Node first: nothing else runs without it, and apt's Node is too old on Debian 12.
node_ok=$(node -e '
  const [a, b] = process.versions.node.split(".").map(Number);
  console.log(a > 20 || (a === 20 && b >= 19) ? "yes" : process.versions.node)' 2>/dev/null || echo "none")
if [ "$node_ok" != "yes" ]; then
  echo "setup: Node >= 20.19 is needed (found: $node_ok) —" \
    "install it from https://nodejs.org or with nvm: nvm install 20" >&2
  exit 1
fi

missing=() packages=() reasons=()
need() { # need <command> <debian package> <why>
  command -v "$1" >/dev/null 2>&1 && return 0
  missing+=("$1") packages+=("$2") reasons+=("$3")
}
need git git "org keeps every agent's work in git worktrees"
if [ "$for_what" = test ]; then
  need ps procps "the node-pty tests list processes with ps"
  need tmux tmux "the grid's tests run real tmux servers"
  need chromium chromium "test/cli/commands/report-chromium.e2e.test.ts opens org report's page in headless Chromium"
  need python python-is-python3 "the template tests run train.py with python"
  sandbox_test=test/domain/sandbox/sandbox.e2e.test.ts
  need bwrap bubblewrap "agents run in a bubblewrap sandbox by default; $sandbox_test checks what it lets them write"
fi
# The demo's agents run sandboxed too, where Linux has bubblewrap: installed when it can be, else the demo says why not.
want_bwrap=no
[ "$for_what" = demo ] && [ "$(uname -s)" = Linux ] && ! command -v bwrap >/dev/null 2>&1 && want_bwrap=yes
# node-pty compiles at npm ci: the --no-tmux tests drive it, and the demo runs in it when tmux is missing.
if [ "$for_what" = test ] || ! command -v tmux >/dev/null 2>&1; then
  need make make "node-pty compiles at npm ci"
  need g++ g++ "node-pty compiles at npm ci"
  need python3 python3 "node-gyp, which compiles node-pty, runs on python3"
fi

sudo=()
[ "$(id -u)" -ne 0 ] && sudo -n true 2>/dev/null && sudo=(sudo -n)
can_apt=no
command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ ${#sudo[@]} -gt 0 ]; } && can_apt=yes
if [ $want_bwrap = yes ]; then
  if [ $can_apt = yes ]; then
    packages+=(bubblewrap)
  else
    echo "setup: bwrap (bubblewrap) is missing, so the demo's agents run WITHOUT a sandbox —" \
      "install it to sandbox them: sudo apt-get install -y bubblewrap (dnf install bubblewrap)" >&2
  fi
fi

if [ ${#packages[@]} -gt 0 ]; then
  if [ $can_apt = yes ]; then
    echo "setup: installing ${packages[*]}"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"
  else
    for i in "${!missing[@]}"; do echo "setup: missing: ${missing[$i]} (${reasons[$i]})" >&2; done
    if command -v apt-get >/dev/null 2>&1; then
      echo "setup: install them, then run this again: sudo apt-get install -y ${packages[*]}" >&2
    else
      echo "setup: install them with your package manager (Debian's names: ${packages[*]}), then run this again" >&2
    fi
    exit 1
  fi
fi

# npm's own rule: the installed tree is current while its hidden lockfile is newer than package-lock.json.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # node-pty compiles against Node's headers: those next to node when present (Debian's nodejs has them), else
  # node-gyp downloads them.
  prefix=$(dirname "$(dirname "$(node -p process.execPath)")")
  [ -f "$prefix/include/node/node.h" ] && export npm_config_nodedir="${npm_config_nodedir:-$prefix}"
  npm ci --no-audit --no-fund
fi
if [ "$for_what" = test ]; then
  scripts/install-clients.sh
fi
