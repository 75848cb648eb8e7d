// Disk: below sandbox.disk.floor no verify run starts (the queue waits, nothing is lost), log.md and org status name
// the agents that filled the disk, and runs resume by themselves once space comes back.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { LOOPING_FILES } from "../helpers/stop-org.js";
import { countVerdicts, diskOrgYaml, explainOrg, logOf, statusOf } from "./disk-org.js";
import { IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs } from "./identities.js";
import { createTestOrg } from "../helpers/test-org/index.js";

const isRoot = process.getuid?.() === 0;
let org: OrgAs | undefined;
let mount: string | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
  if (mount) spawnSync("umount", ["-l", mount]);
  if (mount) rmSync(mount, { recursive: true, force: true });
  mount = undefined;
});

describe.each(IDENTITIES)("the disk floor as $name", (who) => {
  // The floor needs a small disk to fill: a tmpfs, which only root may mount; unprivileged, this test is skipped.
  test.skipIf(!isRoot)("below sandbox.disk.floor no verify run starts, log.md and org status name " +
    "the agent that filled the disk; runs resume when space comes back, none lost", async () => {
    mount = mkdtempSync(join(tmpdir(), "org-sec-disk-"));
    expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=64m,mode=1777", "tmpfs", mount]).status).toBe(0);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = mount;
    try {
      org = createTestOrg({
        as: who,
        // A quiet disk's folders are walked every tenth period: 300ms, so disk.json moves while the verifier waits.
        yaml: diskOrgYaml("{ per_agent: 1G, floor: 24M, every: 300ms }", 28),
        files: LOOPING_FILES,
      });
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    const up = runOrgAs(who, ["up", "--no-attach"], { cwd: org.dir });
    expect(up.code, up.stderr).toBe(0);
    const paused = await pollUntil(() => /\] paused \| verifier\n(.*)\n/.exec(logOf(org!))?.[1], {
      what: "the verifier paused",
      timeoutMs: 30_000,
      explain: explainOrg(org),
    });
    const filler = /filler-1 \d+(\.\d)? MiB \(worktrees\/filler-1\)/.source;
    const stasher = /stasher-1 \d+(\.\d)? MiB \(state\/agents\/stasher-1\)/.source;
    expect(paused).toMatch(
      new RegExp(
        /^only \d+(\.\d)? MiB free on the disk of state\/, below sandbox\.disk\.floor \(24 MiB\): /.source +
        /no verify run starts, queued ones wait and nothing is lost; /.source +
        `most written: (${filler}|${stasher}), (filler-1|stasher-1) `,
      ),
    );
    // The status says it too, with the free space of the disk watch's latest look.
    expect(runOrgAs(who, ["status"], { cwd: org.dir }).stdout).toMatch(
      new RegExp(
        /\nverifier paused: only .+ free on the disk of state\/, below sandbox\.disk\.floor \(24 MiB\): /.source +
        /.+; most written: (filler-1|stasher-1) /.source,
      ),
    );
    // While paused the researcher's submit waits in the queue: the watch looks again and again, and nothing is judged.
    const queue = join(org.dir, "state", "queue");
    const rows = countVerdicts(org);
    const watchedAt = () =>
      Date.parse((JSON.parse(readFileSync(join(org!.dir, "state", "disk.json"), "utf8")) as { at: string }).at);
    const since = watchedAt();
    const queued = await pollUntil(
      () => {
        const ids = readdirSync(queue).filter((name) => name.endsWith(".json"));
        return ids.length > 0 && watchedAt() - since >= 3000 ? ids : undefined;
      },
      {
        what: "a request queued while paused, and three seconds of looks",
        timeoutMs: 20_000,
        explain: explainOrg(org),
      },
    );
    expect(countVerdicts(org)).toBe(rows);
    expect(logOf(org).match(/\] paused \| verifier/g)).toHaveLength(1);
    // A person frees the space: the verifier resumes by itself and every request queued meanwhile gets its verdict.
    for (const file of [
      join(org.dir, "worktrees", "filler-1", "fill.bin"),
      join(org.dir, "state", "agents", "stasher-1", "own", "fill.bin"),
    ])
      rmSync(file, { force: true });
    await pollUntil(() => logOf(org!).includes("] resumed | verifier\n"), {
      what: "the verifier resumed",
      timeoutMs: 20_000,
      explain: explainOrg(org),
    });
    await pollUntil(() => queued.every((name) => existsSync(join(org!.dir, "state", "verdicts", name))), {
      what: "a verdict for every request queued while paused",
      timeoutMs: 60_000,
      explain: explainOrg(org),
    });
    expect(statusOf(org).disk?.low).toBeNull();
  }, 120_000);
});
