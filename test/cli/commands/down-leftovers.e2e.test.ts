import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import {
  expectDown, expectNothingLeft, LEFT_UP, ROLLED_BACK, upInterruptedAfter,
} from "../../helpers/interrupted-up.js";
import { createTestOrg, printerOrgYaml, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("org down without a readable org.json; Ctrl-C at any moment of up", () => {
  test("org down with org.json missing or half-written ends everything and says so", async () => {
    org = createTestOrg({ yaml: printerOrgYaml(2) });
    const { dir, socket } = org;
    const orgFile = join(dir, "state/org.json");
    for (const damage of ["missing", "half-written"] as const) {
      expect(runOrg(["up", "--no-attach"], { cwd: dir }).code).toBe(0);
      const text = readFileSync(orgFile, "utf8");
      if (damage === "missing") rmSync(orgFile);
      else writeFileSync(orgFile, text.slice(0, text.length / 2));
      const up = runOrg(["up", "--no-attach"], { cwd: dir });
      expect([up.code, up.stderr.trim()]).toEqual([
        1,
        `org: a tmux server on socket ${socket} is running but ${orgFile} is missing or unreadable — ` +
          `run \`org down\`, then \`org up\``,
      ]);
      if (damage === "half-written") {
        const status = runOrg(["status"], { cwd: dir });
        const said = `org: ${orgFile} is unreadable (not an org record: not JSON) — run \`org down\`, then \`org up\``;
        expect([status.code, status.stderr.trim(), status.stdout]).toEqual([1, said, ""]);
      }
      const down = runOrg(["down"], { cwd: dir });
      const why =
        damage === "missing" ? `no ${orgFile}` : `${orgFile} is unreadable (half-written, or not an org record)`;
      expect(down.code).toBe(0);
      expect(down.stdout).toContain(why);
      if (damage === "half-written")
        expect(down.stdout).toContain(`removed the unreadable ${orgFile}; \`org up\` starts afresh\n`);
      expect(down.stdout).toMatch(
        new RegExp(
          /: stopped the org by its own socket and records — 2 process groups and the tmux server /.source +
          /org-\S+(, the keeper)?$/.source,
          "m",
        ),
      );
      await expectNothingLeft(dir, socket);
      // Without org.json, which worktrees are the org's is unknown: every one stays.
      expect(existsSync(join(dir, "worktrees/researcher-1/train.py"))).toBe(true);
    }
    const again = runOrg(["down"], { cwd: dir });
    expect([again.code, again.stdout]).toEqual([
      0,
      `nothing of this org was running (no ${orgFile}; no tmux server on its socket, pty host or keeper)\n`,
    ]);
  });

  test("Ctrl-C to up's process group at several moments: rolled back or up, and down always ends it", async () => {
    org = createTestOrg({ yaml: printerOrgYaml(2) });
    const { dir, socket } = org;
    for (const delayMs of [0, 40, 80]) {
      const up = await upInterruptedAfter(dir, delayMs);
      // Right as up takes its lock, its work lies ahead: it rolls back.
      if (delayMs === 0)
        expect(up.stderr).toMatch(new RegExp(`^org up interrupted by SIGINT while .+: ${ROLLED_BACK}$`, "m"));
      if (up.code === 130 && up.stderr.includes(ROLLED_BACK)) await expectNothingLeft(dir, socket);
      else if (up.code === 130) expect(up.stderr).toContain(LEFT_UP);
      // Done, or ended by the signal itself (-1) before up set its handler or after it let it go, on its way out.
      else expect([delayMs, [0, -1].includes(up.code), up.stderr]).toEqual([delayMs, true, ""]);
      await expectDown(dir, socket);
    }
  });
});
