// Red team: git appends a reflog line on every ref it moves, opening the log through whatever link it finds. The
// daemon moves an agent's branch itself (a brokered `org submit` commits, the verifier resets after a discard), and
// the agent writes the folders of those logs (its branch's beside the others', its worktree's logs/HEAD). Linked to
// a file of the daemon's, a log must receive nothing: the line's message is the agent's commit subject.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AgentLedger } from "../../src/domain/experiments/request.js";
import { runInPane } from "../helpers/pane-jobs.js";
import { pollUntil } from "../helpers/poll.js";
import { createTestOrg, jobsOrgYaml } from "../helpers/test-org/index.js";
import { gitAs, IDENTITIES, makeJobsDirAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";

const orgYaml = (jobs: string) => jobsOrgYaml(jobs, { roles: { a: ", edits: [value.txt]" }, verify: {} });

// Both logs the daemon's git would append to, linked to the org's log.md (read-only inside); then a worse value,
// committed by the daemon for the brokered submit and reset by the verifier once discarded.
const ATTACK = `common=$(git rev-parse --path-format=absolute --git-common-dir)
gitdir=$(git rev-parse --path-format=absolute --git-dir)
own=$(git symbolic-ref HEAD)
mkdir -p "$gitdir/logs" && ln -sf "$ORG_STATE/log.md" "$gitdir/logs/HEAD" && echo "HEAD's log linked"
ln -sf "$ORG_STATE/log.md" "$common/logs/$own" && echo "the branch's log linked"
echo 2.000 > value.txt
org submit --no-wait -m 'worse; touch /tmp/pwned' >/dev/null && echo submitted
`;

describe.each(IDENTITIES)("the daemon's ref moves against linked reflogs, as $name", (who) => {
  let org: OrgAs;
  let jobs: string;
  let base: string;
  let attacked: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    jobs = makeJobsDirAs(who);
    const files = { "train.sh": "echo \"val_bpb: $(cat value.txt)\"\n", "value.txt": "1.000\n" };
    org = createTestOrg({ as: who, yaml: orgYaml(jobs), files });
    base = gitAs(who, org.dir, ["rev-parse", "main"]).trim();
    upSandboxedAs(who, org.dir);
    attacked = await runInPane(jobs, "a-1", ATTACK);
  }, 90_000);

  afterAll(() => {
    teardownOrgAs(org);
    rmSync(jobs, { recursive: true, force: true });
  });

  test("the submit is committed and discarded, the branch reset, and log.md holds no reflog line", async () => {
    expect(attacked.stdout).toBe("HEAD's log linked\nthe branch's log linked\nsubmitted\n");
    const state = join(org.dir, "state");
    // The ledger is written once the verdict is applied (the branch reset): the baseline's run, then the submit's.
    const ledger = join(state, "agents", "a-1", "ledger.json");
    const runs = () => (existsSync(ledger) ? (JSON.parse(readFileSync(ledger, "utf8")) as AgentLedger).runs : 0);
    await pollUntil(() => runs() === 2, { timeoutMs: 45_000, what: "a-1's discard applied" });
    expect(readFileSync(join(state, "results.tsv"), "utf8")).toMatch(/\tdiscard\tworse; touch \/tmp\/pwned\ta-1\t/);
    expect(gitAs(who, org.dir, ["rev-parse", `org/${org.name}/a-1`]).trim()).toBe(base);
    expect(readFileSync(join(state, "log.md"), "utf8")).not.toMatch(/^[0-9a-f]{40} [0-9a-f]{40} /m);
  });
});
