// Red team: an agent edits ~/.gitconfig (HOME is writable in its
// sandbox) to change what the verifier checks out and judges.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { pinGlobalGitConfig, snapshotGlobalGitConfig } from "../../../src/adapters/git/global-config.js";
import { createRepo, git, makeTempDir } from "../../helpers/temp-repo.js";

const saved = {
  HOME: process.env.HOME,
  XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME,
  GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL,
};
let dirs: string[] = [];
let home = "";
beforeEach(() => {
  home = makeTempDir("org-home-");
  dirs = [home];
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  delete process.env.GIT_CONFIG_GLOBAL;
});
afterEach(() => {
  pinGlobalGitConfig(undefined);
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// The agent's commit asks for a filter by name; the agent's
// ~/.gitconfig defines it to put a better value in the checkout.
async function checkOutAfterTheAgentsEdit(pin: boolean): Promise<string> {
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = person\n");
  const repo = createRepo({ ".gitattributes": "value.txt filter=better\n", "value.txt": "1000\n" });
  const state = makeTempDir("org-state-");
  dirs.push(repo, state);
  const snapshot = await snapshotGlobalGitConfig(state, new Date(Date.now() - 1000).toISOString());
  if (pin) pinGlobalGitConfig(snapshot);
  writeFileSync(join(home, ".gitconfig"), '[filter "better"]\n\tsmudge = echo 1\n\tclean = cat\n');
  const port = createVerifierPort({ repo, state });
  const checkout = await port.prepareCheckout("slot-0", git(repo, ["rev-parse", "HEAD"]).trim());
  return readFileSync(join(checkout, "value.txt"), "utf8");
}

describe("the verifier's git and the user's global config", () => {
  test("unpinned, an agent's ~/.gitconfig filter rewrites the " +
    "file the verify command reads (the attack works)", async () => {
    expect(await checkOutAfterTheAgentsEdit(false)).toBe("1\n");
  });

  test("pinned to the daemon's snapshot, the checkout holds the " +
    "committed value, whatever ~/.gitconfig now says", async () => {
    expect(await checkOutAfterTheAgentsEdit(true)).toBe("1000\n");
  });

  test("the snapshot keeps the global config as it was (git-lfs's filters live there), " +
    "and a daemon started again for the same org keeps its first copy", async () => {
    writeFileSync(join(home, ".gitconfig"), '[filter "lfs"]\n\tsmudge = git-lfs smudge -- %f\n');
    const state = makeTempDir("org-state-");
    dirs.push(state);
    const upAt = new Date(Date.now() - 1000).toISOString();
    const snapshot = await snapshotGlobalGitConfig(state, upAt);
    expect(readFileSync(snapshot, "utf8")).toContain("git-lfs smudge");
    writeFileSync(join(home, ".gitconfig"), "[core]\n\thooksPath = /tmp/agent-hooks\n");
    expect(readFileSync(await snapshotGlobalGitConfig(state, upAt), "utf8")).toContain("git-lfs smudge");
    // A new `org up` (a later upAt) takes a new copy.
    expect(
      readFileSync(await snapshotGlobalGitConfig(state, new Date(Date.now() + 1000).toISOString()), "utf8"),
    ).toContain("agent-hooks");
  });
});
