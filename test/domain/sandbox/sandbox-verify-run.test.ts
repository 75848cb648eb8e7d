import { describe, expect, test } from "vitest";
import { planVerifyRun } from "../../../src/domain/sandbox/verify-run.js";

const layout = {
  bwrap: "/usr/bin/bwrap", checkout: "/tmp/org/state/verifier/slot-0", tops: ["/tmp/org/repo", "/tmp/org"],
  hide: ["/tmp/org/state", "/tmp/org/worktrees", "/tmp/org/repo/.git"], read: ["/data"], write: ["/scratch"],
};

describe("planVerifyRun", () => {
  const argv = planVerifyRun(layout, ["python", "train.py"]);
  const at = (...args: string[]) => argv.findIndex((_, i) => args.every((arg, j) => argv[i + j] === arg));

  test("no capabilities, its own pid namespace, the host read-only and /tmp private", () => {
    expect(argv.slice(0, 5)).toEqual(["/usr/bin/bwrap", "--unshare-user", "--unshare-pid", "--cap-drop", "ALL"]);
    expect(at("--ro-bind", "/", "/")).toBeLessThan(at("--tmpfs", "/tmp"));
  });

  test("the org shown again over /tmp, parent first, then its records hidden, then the checkout writable", () => {
    expect(at("--ro-bind", "/tmp/org", "/tmp/org")).toBeLessThan(at("--ro-bind", "/tmp/org/repo", "/tmp/org/repo"));
    expect(at("--ro-bind", "/tmp/org/repo", "/tmp/org/repo")).toBeLessThan(at("--tmpfs", "/tmp/org/state"));
    expect(at("--tmpfs", "/tmp/org/repo/.git")).toBeLessThan(at("--bind", layout.checkout, layout.checkout));
    expect(at("--bind", "/scratch", "/scratch")).toBeGreaterThan(at("--tmpfs", "/tmp/org/worktrees"));
    expect(at("--ro-bind", "/data", "/data")).toBeGreaterThan(at("--tmpfs", "/tmp/org/worktrees"));
  });

  test("the hidden folders read-only after the checkout is bound in one of them; the run in its checkout", () => {
    for (const dir of layout.hide) expect(at("--remount-ro", dir)).toBeGreaterThan(
      at("--bind", layout.checkout, layout.checkout),
    );
    expect(at("--chdir", layout.checkout)).toBeGreaterThan(0);
    expect(argv.slice(-3)).toEqual(["--", "python", "train.py"]);
  });

  test("a judge's run: the checkout read-only to it, its CLI's config folder the one it writes", () => {
    const home = "/tmp/org/state/verifier/judge-home";
    const judged = planVerifyRun({ ...layout, judgeHome: home }, ["claude", "-p", "judge"]);
    const index = (...args: string[]) => judged.findIndex((_, i) => args.every((arg, j) => judged[i + j] === arg));
    expect(index("--ro-bind", layout.checkout, layout.checkout)).toBeGreaterThan(index("--tmpfs", "/tmp/org/state"));
    expect(index("--bind", layout.checkout, layout.checkout)).toBe(-1);
    expect(index("--bind", home, home)).toBeGreaterThan(index("--tmpfs", "/tmp/org/state"));
    expect(index("--remount-ro", "/tmp/org/state")).toBeGreaterThan(index("--bind", home, home));
    expect(judged.slice(-4)).toEqual(["--", "claude", "-p", "judge"]);
  });
});
