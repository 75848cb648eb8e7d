import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

// vitest setupFiles: runs in every test process before its test file loads, so every org process, tmux server and
// real CLI a test starts inherits this environment, never the shell's (IS_SANDBOX, CI, a real ~/.claude, …).

/**
 * Kept from the shell: where programs and certificates are, vitest's own variables and the suites' knobs. Not
 * NODE_EXTRA_CA_CERTS: no test reaches a TLS server, and node parses the whole file at every start (this machine's
 * ~140 certificates: 16 → 43 ms a `node -e 0`, ~2,000 nodes in the e2e project).
 */
const KEPT = new RegExp(`^(${[
  "PATH", "TMPDIR", "TMUX_TMPDIR", "PYENV_ROOT", "NODE_ENV", "NODE_V8_COVERAGE", "SSL_CERT_FILE", "SSL_CERT_DIR",
  String.raw`VITEST\w*`, String.raw`TINYPOOL\w*`, String.raw`ORG_(FUZZ|FAULTS|SOAK)_\w+`,
].join("|")})$`);

/** What every test process runs with, whatever the shell held; HOME is an empty folder of its own. */
export function hermeticEnv(home: string): Record<string, string> {
  const user = userInfo().username;
  const shell = { HOME: home, USER: user, LOGNAME: user, SHELL: "/bin/bash", TERM: "xterm-256color", LANG: "C.UTF-8" };
  // The daemon's stop and standup looks every 0.5 s, not 3 and 5 s: a test's stops and digests are seconds apart.
  const cadences = { ORG_TEST_STOP_TICK_MS: "500", ORG_TEST_STANDUP_TICK_MS: "500" };
  return { ...shell, TZ: "UTC", NO_COLOR: "1", ...cadences };
}

/** Replace process.env in place: vitest and node keep the same object. */
export function applyHermeticEnv(env: NodeJS.ProcessEnv, fixed: Record<string, string>): void {
  for (const key of Object.keys(env)) if (!KEPT.test(key)) delete env[key];
  Object.assign(env, fixed);
}

// Each file gets an empty HOME; a process that runs several files (the unit and e2e projects') removes the one before.
const held = globalThis as { orgTestHome?: string };
if (held.orgTestHome) rmSync(held.orgTestHome, { recursive: true, force: true });
else process.once("exit", () => held.orgTestHome && rmSync(held.orgTestHome, { recursive: true, force: true }));
held.orgTestHome = realpathSync(mkdtempSync(join(tmpdir(), "org-test-home-")));
applyHermeticEnv(process.env, hermeticEnv(held.orgTestHome));
