import { describe, expect, it } from "vitest";
import { DIR, VALID, fakeProbe, load, problemsOf } from "../../fixtures/configs/fake-probe.js";

const probe = fakeProbe({ files: [DIR, `${DIR}/prompts/researcher.md`, `${DIR}/data/cache`, `${DIR}/worktrees`] });
const withSandbox = (section: string) => `${VALID}sandbox:\n${section}`;

describe("rules: sandbox", () => {
  it("read and write entries inside the org load, resolved against the org folder", async () => {
    const result = await load(withSandbox("  enabled: true\n  read: [worktrees]\n  write: [data/cache]\n"), probe);
    expect(result.ok && result.loaded.config.sandbox).toEqual({
      enabled: true,
      read: ["worktrees"],
      write: ["data/cache"],
    });
  });

  it("an entry outside the org loads: the sandbox's host is read-only, its /tmp private", async () => {
    const outside = fakeProbe({ files: [DIR, `${DIR}/prompts/researcher.md`, "/tmp/jobs", "/srv/cache"] });
    const result = await load(withSandbox("  read: [/tmp/jobs]\n  write: [/srv/cache]\n"), outside);
    expect(result.ok && result.loaded.config.sandbox).toEqual({ read: ["/tmp/jobs"], write: ["/srv/cache"] });
  });

  it("read: [worktrees] loads before the first org up has made the folder", async () => {
    const result = await load(withSandbox("  read: [worktrees]\n"), fakeProbe({
      files: [DIR, `${DIR}/prompts/researcher.md`],
    }));
    expect(result.ok && result.loaded.config.sandbox).toEqual({ read: ["worktrees"], write: [] });
  });

  it("an entry that does not exist, inside the org or outside (where the host is read-only), "
    + "and writes into state, worktrees and .git", async () => {
    const entries = "  read: [dat/cache, /etc]\n  write: [state/results.tsv, worktrees, .git/hooks, /var/cache/x, .]\n";
    expect(await problemsOf(withSandbox(entries), probe)).toEqual([
      'org.yaml:9:10: sandbox.read[0] "dat/cache" does not exist (/org/dat/cache) — create it first, '
        + 'or give its path relative to this file',
      'org.yaml:9:21: sandbox.read[1] "/etc" does not exist (/etc) — create it first, '
        + 'or give its path relative to this file',
      "org.yaml:10:11: sandbox.write[0] \"state/results.tsv\" would let every agent write the org's records (results, "
        + "verdicts, every inbox) — remove it: agents write state/ only through org's commands and their own "
        + "state/agents/<agent> folder",
      "org.yaml:10:30: sandbox.write[1] \"worktrees\" would let every agent write every agent's worktree — "
        + "remove it: each agent already writes its own worktree",
      "org.yaml:10:41: sandbox.write[2] \".git/hooks\" would let every agent write the repo's git config, "
        + "hooks and every branch — remove it: each agent already commits to its own branch",
      'org.yaml:10:53: sandbox.write[3] "/var/cache/x" does not exist (/var/cache/x) — create it first, '
        + 'or give its path relative to this file',
      "org.yaml:10:67: sandbox.write[4] \".\" would let every agent write the org's records (results, verdicts, "
        + "every inbox) — remove it: agents write state/ only through org's commands and their own "
        + "state/agents/<agent> folder",
    ]);
  });

  it("an unknown key and a wrong type are the schema's", async () => {
    expect(await problemsOf(withSandbox("  enable: true\n  write: data/cache\n"), probe)).toEqual([
      'org.yaml:9:3: unknown key "enable" in sandbox — did you mean "enabled"?',
      'org.yaml:10:10: sandbox.write must be a list, got "data/cache" — make it a list: [data/cache]',
    ]);
  });
});
