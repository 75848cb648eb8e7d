// No capabilities, whoever runs org: the probe's trial sandbox drops
// them, and root where it cannot gets a refusal, not a sandbox with them.
import { describe, expect, test } from "vitest";
import type { Runner, RunResult } from "../../../src/adapters/process.js";
import { probeSandbox } from "../../../src/adapters/probes/sandbox.js";
import { checkSandbox, decideSandbox } from "../../../src/domain/sandbox/decide-sandbox.js";
import { FIXTURES } from "../../helpers/org-cli.js";

const BIN = `${FIXTURES}/bwrap-broken`;
const BWRAP = `${BIN}/bwrap`;
const NO_USERNS = "bwrap: Creating new namespace failed: No space left on device";

/** A bwrap that fails whenever it is asked for a user namespace, and records every trial. */
function noUserns(): Runner & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    run: async (argv) => {
      calls.push(argv);
      const failed = argv.includes("--unshare-user");
      return {
        argv,
        exitCode: failed ? 1 : 0,
        signal: null,
        stdout: "",
        stderr: failed ? `${NO_USERNS}\n` : "",
        timedOut: false,
        durationMs: 1,
      } satisfies RunResult;
    },
  };
}

describe("the sandbox's capabilities", () => {
  test.skipIf(process.platform !== "linux")(
    "the trial sandbox is the agents' own: a user namespace, no capabilities, the host read-only",
    async () => {
      const calls: string[][] = [];
      const runner: Runner = {
        run: async (argv) => (
          calls.push(argv),
          { argv, exitCode: 0, signal: null, stdout: "", stderr: "", timedOut: false, durationMs: 1 }
        ),
      };
      expect(await probeSandbox(runner, BIN, 0)).toEqual({ kind: "works", bwrap: BWRAP });
      expect(calls).toEqual([
        [
          BWRAP,
          "--die-with-parent",
          "--unshare-user",
          "--cap-drop",
          "ALL",
          "--ro-bind",
          "/",
          "/",
          "--dev-bind",
          "/dev",
          "/dev",
          "--proc",
          "/proc",
          "--tmpfs",
          "/tmp",
          "true",
        ],
      ]);
    },
  );

  test.skipIf(process.platform !== "linux")(
    "as root where bwrap makes no user namespace: privileged, and org up refuses with the fix; doctor fails",
    async () => {
      const runner = noUserns();
      const probe = await probeSandbox(runner, BIN, 0);
      expect(runner.calls.map((argv) => argv.slice(1, 5))).toEqual([
        ["--die-with-parent", "--unshare-user", "--cap-drop", "ALL"],
        ["--die-with-parent", "--ro-bind", "/", "/"],
      ]);
      const reason = `${BWRAP} makes a sandbox here only with root's capabilities: ` +
        `it cannot make a user namespace (${NO_USERNS})`;
      const fix =
        "allow user namespaces: sysctl -w user.max_user_namespaces=15000 (in a container, " +
          "a seccomp profile that allows them)";
      expect(probe).toEqual({ kind: "privileged", bwrap: BWRAP, reason, fix });
      const refused = {
        kind: "refused",
        reason: `${reason}, and an agent keeping root's capabilities can remount the org read-write — ${fix}, ` +
          `or set sandbox: { enabled: false } in org.yaml to run agents unsandboxed on purpose`,
      };
      expect(decideSandbox(undefined, probe)).toEqual(refused);
      expect(decideSandbox({ enabled: true, read: [], write: [] }, probe)).toEqual(refused);
      expect(decideSandbox({ enabled: false, read: [], write: [] }, probe)).toEqual({
        kind: "off",
        reason: "sandbox.enabled is false in org.yaml",
      });
      expect(checkSandbox(refused as ReturnType<typeof decideSandbox>, probe)).toEqual({
        name: "bwrap",
        status: "fail",
        detail: `${reason}: org up refuses`,
        fix,
      });
    },
  );

  test.skipIf(process.platform !== "linux")(
    "an ordinary user where bwrap makes no user namespace: no sandbox at all, never one with capabilities",
    async () => {
      const runner = noUserns();
      expect(await probeSandbox(runner, BIN, 1000)).toMatchObject({
        kind: "unavailable",
        reason: `${BWRAP} cannot make a sandbox here (${NO_USERNS})`,
      });
      expect(runner.calls).toHaveLength(1);
    },
  );
});
