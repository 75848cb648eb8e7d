// Red team: an agent rewrites what git reads in its worktree (.git, its git folder's commondir, config.worktree and
// .gitattributes) so that the daemon's git, run there for a brokered `org submit` and for the verifier's reset after a
// discard, would run the agent's fsmonitor or filter outside the sandbox, with the daemon's rights.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AgentLedger } from "../../src/domain/experiments/request.js";
import { runInPane } from "../helpers/pane-jobs.js";
import { pollUntil } from "../helpers/poll.js";
import { gitAs, IDENTITIES, makeJobsDirAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";
import { createTestOrg, jobsOrgYaml } from "../helpers/test-org/index.js";

// Three agents whose tool calls are shell jobs in real sandboxed panes; a candidate's run takes 3 s, time for an
// agent to rewrite its worktree again between its submit and the verifier's reset.
const EDITS = ", edits: [value.txt, .gitattributes]";
const orgYaml = (jobs: string) =>
  jobsOrgYaml(jobs, { roles: { a: EDITS, b: EDITS, c: EDITS }, verify: { parallel: 3, k: 2 } });
const TRAIN = 'v=$(cat value.txt); [ "$v" = 1.000 ] || sleep 3; echo "val_bpb: $v"\n';

// What every attack plants: a program that leaves a mark in state/, which no sandbox can write; only git run by the
// daemon, outside every sandbox, could. It passes its input on, so as a filter it changes nothing else.
const HOOK = `hook="$ORG_STATE/agents/$ORG_AGENT/own/hook.sh"
printf '#!/bin/sh\\necho "$ORG_AGENT $*" >> "%s/pwned"\\ncat 2>/dev/null\\nexit 0\\n' "$ORG_STATE" > "$hook"
chmod +x "$hook"
gitdir=$(git rev-parse --path-format=absolute --git-dir)
common=$(git rev-parse --path-format=absolute --git-common-dir)
echo "$VALUE" > value.txt
`;

// (a) .git names a repository of the agent's, on its branch, whose config runs the hook as fsmonitor.
const POINT_DOT_GIT = `evil="$ORG_STATE/agents/$ORG_AGENT/own/evil"
if [ ! -d "$evil" ]; then
  git init -q "$evil" && git -C "$evil" symbolic-ref HEAD "$(git symbolic-ref HEAD)"
  git -C "$evil" -c user.name=a -c user.email=a@a commit -q --allow-empty -m evil
  git -C "$evil" config core.fsmonitor "$hook"
fi
printf 'gitdir: %s/.git\\n' "$evil" > .git
`;
// (b) commondir names a copy of the repo (its branches) whose config runs the hook as fsmonitor.
const POINT_COMMONDIR = `evil="$ORG_STATE/agents/$ORG_AGENT/own/evil.git"
if [ ! -d "$evil" ]; then
  git clone -q --bare --shared "$common" "$evil" && git -C "$evil" config core.fsmonitor "$hook"
fi
echo "$evil" > "$gitdir/commondir"
`;
// (c) the repo reads per-worktree config: the agent's config.worktree runs the hook as fsmonitor and as a filter.
const WRITE_WORKTREE_CONFIG = `config='[core]\\n\\tfsmonitor = %s\\n[filter "evil"]\\n\\tclean = %s\\n\\tsmudge = %s\\n'
printf "$config" "$hook" "$hook" "$hook" > "$gitdir/config.worktree" || echo "config.worktree refused"
echo 'value.txt filter=evil' > .gitattributes
`;
const SUBMIT = 'org submit --no-wait -m "worse, with a trap"\n';

const ATTACKS = [
  { agent: "a-1", value: "2.000", plant: POINT_DOT_GIT, what: "its .git points at a repository of its own" },
  { agent: "b-1", value: "2.500", plant: POINT_COMMONDIR, what: "its commondir points at a copy of the repo" },
  { agent: "c-1", value: "3.000", plant: WRITE_WORKTREE_CONFIG,
    what: "config.worktree and .gitattributes name its hook" },
];

describe.each(IDENTITIES)("the daemon's git in an agent's worktree, as $name", (who) => {
  let org: OrgAs;
  let jobs: string;
  let state: string;
  let base: string;
  let config: string;
  const submitted = new Map<string, { code: number; stdout: string; stderr: string }>();

  beforeAll(async () => {
    jobs = makeJobsDirAs(who);
    org = createTestOrg({ as: who, yaml: orgYaml(jobs), files: { "train.sh": TRAIN, "value.txt": "1.000\n" } });
    state = join(org.dir, "state");
    // A repo that reads per-worktree config (git sparse-checkout turns this on).
    gitAs(who, org.dir, ["config", "extensions.worktreeConfig", "true"]);
    config = readFileSync(join(org.dir, ".git", "config"), "utf8");
    base = gitAs(who, org.dir, ["rev-parse", "main"]).trim();
    upSandboxedAs(who, org.dir);
    const baselined = () => ATTACKS.every(({ agent }) => readLedger(state, agent)?.lastVerified === base);
    await pollUntil(baselined, { timeoutMs: 30_000, what: "the three baselines" });
    // Each agent plants its trap, submits a worse value (the brokered submit runs daemon-side), then plants it again
    // for the verifier's reset.
    await Promise.all(ATTACKS.map(async ({ agent, value, plant }) => {
      submitted.set(agent, await runInPane(jobs, agent, `VALUE=${value}\n${HOOK}${plant}${SUBMIT}${plant}`));
    }));
    const results = join(state, "results.tsv");
    const judged = () => (existsSync(results) ? readFileSync(results, "utf8") : "");
    // The ledger is written once the verdict is applied (the branch reset): one baseline run, then the candidate's.
    const applied = () => ATTACKS.every(({ agent }) => readLedger(state, agent)?.runs === 2);
    await pollUntil(applied, { timeoutMs: 45_000, what: "the three verdicts", explain: judged });
  }, 120_000);

  afterAll(() => {
    teardownOrgAs(org);
    rmSync(jobs, { recursive: true, force: true });
  });

  test.each(ATTACKS)("$agent: $what — nothing runs outside; its submit is queued, discarded, reset", ({ agent }) => {
    expect(existsSync(join(state, "pwned")) ? readFileSync(join(state, "pwned"), "utf8") : "").toBe("");
    const submit = submitted.get(agent)!;
    expect(submit.stdout).toMatch(/^queued [0-9a-f]{7} "worse, with a trap" as /m);
    expect(readLedger(state, agent)).toMatchObject({ lastVerified: base, best: { commit: base } });
    const row = new RegExp(`\\tdiscard\\tworse, with a trap\\t${agent}\\t`);
    expect(readFileSync(join(state, "results.tsv"), "utf8")).toMatch(row);
    expect(gitAs(who, org.dir, ["rev-parse", `org/${org.name}/${agent}`]).trim()).toBe(base);
    expect(readFileSync(join(org.dir, "worktrees", agent, "value.txt"), "utf8")).toBe("1.000\n");
  });

  test("the org stays as it was; a .git pointed away is named and put back; config.worktree is read-only", async () => {
    expect(readFileSync(join(org.dir, ".git", "config"), "utf8")).toBe(config);
    const heads = gitAs(who, org.dir, ["rev-parse", "main", `refs/frontier/${org.name}`]);
    expect(heads.trim().split("\n")).toEqual([base, base]);
    const dotGit = join(org.dir, "worktrees", "a-1", ".git");
    expect(readFileSync(dotGit, "utf8")).toBe(`gitdir: ${join(org.dir, ".git", "worktrees", "a-1")}\n`);
    const evil = join(state, "agents", "a-1", "own", "evil", ".git");
    const moved = `a-1: ${dotGit} names ${evil}; its git folder is ${join(org.dir, ".git", "worktrees", "a-1")}`
      + "; org ignored it and put .git back";
    expect(submitted.get("a-1")!.stderr).toContain(`org: ${moved}`);
    // The verifier's reset found it pointed away again, and the
    // daemon's log says so (the screen is drawn now and then).
    const logged = () => readFileSync(join(state, "daemon.log"), "utf8").includes(moved);
    await pollUntil(logged, { timeoutMs: 15_000, what: "the daemon's log naming a-1" });
    expect(submitted.get("c-1")!.stdout).toContain("config.worktree refused");
    expect(readFileSync(join(org.dir, ".git", "worktrees", "c-1", "config.worktree"), "utf8")).toBe("");
  });
});

function readLedger(state: string, agent: string): AgentLedger | undefined {
  const file = join(state, "agents", agent, "ledger.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as AgentLedger) : undefined;
}
