// Red team: the org best's refs live in the folder of branches every agent writes (org/<name>/), and in an A/B run
// so does program B's best, org/<name>/b-best. An agent that forges, deletes or redirects b-best (a symbolic ref to
// A's best or to main), locks best, or links best's reflog to a file of the daemon's, must change nothing the
// verifier keeps: the daemon's frontier moves write with its own rights.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runInPane } from "../helpers/pane-jobs.js";
import { pollUntil } from "../helpers/poll.js";
import { createTestOrg, jobsOrgYaml } from "../helpers/test-org/index.js";
import { gitAs, IDENTITIES, makeJobsDirAs, runAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";

const programYaml = (jobs: string, role: string) =>
  jobsOrgYaml(jobs, { roles: { [role]: ", edits: [value.txt]" }, verify: {} });

// Each try says whether the sandbox let it through; what the files hold after is checked from outside.
const ATTACK = `common=$(git rev-parse --path-format=absolute --git-common-dir)
own=$(git symbolic-ref HEAD); folder="\${own%/*}"; branches="$common/$folder"
try() { label=$1; shift; if "$@" 2>/dev/null; then echo "$label: done"; else echo "$label: refused"; fi; }
try "forge b-best" git update-ref --no-deref "$folder/b-best" HEAD
try "delete b-best" rm "$branches/b-best"
try "b-best to A's best" sh -c "printf 'ref: refs/frontier/\${folder##*/}\\n' > $branches/b-best"
try "lock best" touch "$branches/best.lock"
try "link best's reflog" ln -sf "$ORG_STATE/log.md" "$common/logs/$folder/best"
echo 0.500 > value.txt
org submit --no-wait -m "better" >/dev/null
`;

describe.each(IDENTITIES)("the org's best refs against an agent, as $name", (who) => {
  let org: OrgAs;
  let jobs: string;
  let base: string;
  let attacked: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    jobs = makeJobsDirAs(who);
    const train = "echo \"val_bpb: $(cat value.txt)\"\n";
    const files = { "train.sh": train, "value.txt": "1.000\n" };
    org = createTestOrg({ as: who, yaml: programYaml(jobs, "a"), files });
    const other = runAs(who, ["sh", "-c", 'printf %s "$B" > other.yaml'], {
      cwd: org.dir, env: { B: programYaml(jobs, "c")(org.name) },
    });
    expect(other.code, other.stderr).toBe(0);
    base = gitAs(who, org.dir, ["rev-parse", "main"]).trim();
    upSandboxedAs(who, org.dir, {}, ["--ab", "other.yaml"]);
    // A's agent attacks B's best (the other half's frontier, which no verdict of its own moves) and its own.
    attacked = await runInPane(jobs, "a-1", ATTACK);
  }, 90_000);

  afterAll(() => {
    teardownOrgAs(org);
    rmSync(jobs, { recursive: true, force: true });
  });

  test("b-best cannot be forged, deleted or redirected inside the sandbox: it stays a symbolic ref, read-only", () => {
    expect(attacked.stdout).toBe(["forge b-best: refused", "delete b-best: refused", "b-best to A's best: refused",
      "lock best: done", "link best's reflog: done", ""].join("\n"));
    const bBest = join(org.dir, ".git", "refs", "heads", "org", org.name, "b-best");
    expect(readFileSync(bBest, "utf8")).toBe(`ref: refs/frontier-b/${org.name}\n`);
  });

  test("A's keep moves the org best past the lock; main stays; no reflog line lands in the linked log.md", async () => {
    const state = join(org.dir, "state");
    const results = join(state, "results.tsv");
    const judged = () => (existsSync(results) ? readFileSync(results, "utf8") : "");
    const kept = () => /\tkeep\tbetter\ta-1\t/.test(judged());
    await pollUntil(kept, { timeoutMs: 45_000, what: "a-1's keep", explain: judged });
    // The guard has looked at b-best since (a tick at least): main is where it was, not deleted nor moved.
    expect(gitAs(who, org.dir, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/main"]))
      .toBe(`refs/heads/main ${base}\n`);
    const commit = gitAs(who, org.dir, ["rev-parse", `org/${org.name}/a-1`]).trim();
    const best = () => runAs(who, ["git", "rev-parse", "-q", "--verify", `org/${org.name}/best`], { cwd: org.dir });
    const moved = () => best().stdout === `${commit}\n`;
    await pollUntil(moved, { timeoutMs: 15_000, what: "the org best at a-1's keep", explain: () => best().stdout });
    const log = readFileSync(join(state, "log.md"), "utf8");
    expect(log).not.toMatch(/^[0-9a-f]{40} [0-9a-f]{40} /m);
    // B's guard wrote through no symbolic ref: A's best was never put back to B's, nor B's "moved by hand".
    expect(log).not.toContain("moved by hand");
  });
});
