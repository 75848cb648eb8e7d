// org tried out from a clone in /tmp: the private /tmp of an agent's sandbox must not hide the org it runs.
import { describe, expect, test } from "vitest";
import { findInstallsInTmp } from "../../../src/domain/sandbox/prepare-sandboxes.js";
import { planSandbox } from "../../../src/domain/sandbox/layout.js";

describe("org's own install under /tmp", () => {
  test("a clone in /tmp is shown again read-only; node and org elsewhere need nothing", () => {
    expect(findInstallsInTmp(["/usr/local/bin/node", "/tmp/nu/org/bin/org.js"])).toEqual(["/tmp/nu/org"]);
    expect(findInstallsInTmp(["/tmp/node-v20/bin/node", "/tmp/node-v20/lib/node_modules/org/bin/org.js"]))
      .toEqual(["/tmp/node-v20", "/tmp/node-v20/lib/node_modules/org"]);
    expect(findInstallsInTmp(["/usr/bin/node", "/home/ada/org/bin/org.js"])).toEqual([]);
    // /tmp itself is never bound whole: that would undo the private /tmp.
    expect(findInstallsInTmp(["/usr/bin/node", "/tmp/bin/org.js"])).toEqual([]);
    expect(findInstallsInTmp(["/usr/bin/node", "/tmpfoo/org/bin/org.js"])).toEqual([]);
  });
});

describe("where the install is bound", () => {
  test("before the org: an org inside the install still has its worktrees hidden", () => {
    const org = "/tmp/nu/org/demo";
    const { args } = planSandbox({
      bwrap: "bwrap", root: org, repo: org, worktrees: `${org}/worktrees`, worktree: `${org}/worktrees/r-1`,
      agentWritable: [], outbox: `${org}/state/agents/r-1/outbox`, home: `${org}/state/agents/r-1/home`,
      git: { common: `${org}/.git`, worktreeDir: `${org}/.git/worktrees/r-1`, org: "demo" },
      installs: ["/tmp/nu/org"], read: [], write: [], hideDirs: [], maskFiles: [], step: false,
    });
    const at = (flag: string, path: string) => args.findIndex((arg, i) => arg === flag && args[i + 1] === path);
    expect(at("--ro-bind", "/tmp/nu/org")).toBeGreaterThan(-1);
    expect(at("--ro-bind", "/tmp/nu/org")).toBeLessThan(at("--ro-bind", org));
    expect(at("--ro-bind", "/tmp/nu/org")).toBeLessThan(at("--tmpfs", `${org}/worktrees`));
  });
});
