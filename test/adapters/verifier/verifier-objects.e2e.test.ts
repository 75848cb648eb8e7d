// The verifier's own object store and org up's record of the protected files: bad input at daemon start, and a
// checkout whose protected file is not the base's as recorded. A real git repo, the verifier's loop, no tmux.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { afterEach, describe, expect, test } from "vitest";
import { VerifierLoop } from "../../../src/daemon/verifier/loop.js";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { prepareVerifierStore } from "../../../src/adapters/verifier/prepare-store.js";
import { recordProtectedHashes } from "../../../src/adapters/verifier/protected-check.js";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import type { ProtectedRecord } from "../../../src/domain/experiments/protected-files.js";
import type { OrgRecord } from "../../../src/domain/state.js";
import { pollUntil } from "../../helpers/poll.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

const AGENT = "r-1";
const config = ConfigSchema.parse({
  roles: { researcher: { prompt: "p.md", runtime: "idle", edits: ["value.txt"] } },
  verify: {
    command: ["sh", "score.sh"], protected: ["score.sh"], metric: { name: "score", pattern: "^score: ([0-9.]+)" },
    timeout: "30s", parallel: 1, repeats: 1, keep: { k: 0, min_delta: 0, confirm: 0 },
  },
});

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

/**
 * A repo scored by score.sh from value.txt, an agent's worktree,
 * the org's state; `org up`'s store unless `up` is false.
 */
async function createOrg(up = true) {
  root = createRepo({ "score.sh": 'echo "score: $(cat value.txt)"\n', "value.txt": "1.0\n" });
  const worktree = join(root, "worktrees", AGENT);
  git(root, ["worktree", "add", "-q", "-b", `org/t/${AGENT}`, worktree, "main"]);
  const baseCommit = git(root, ["rev-parse", "main"]).trim();
  const record: OrgRecord = {
    version: 1, name: "t", root, repo: root, base: "main", baseCommit, socket: "none", session: "none", cpuMode: true,
    agents: [{ name: AGENT, role: "researcher", runtime: "idle", branch: `org/t/${AGENT}`, worktree, gpu: null }],
    upAt: new Date().toISOString(),
  };
  const state = join(root, "state");
  if (up) await prepareVerifierStore({ repo: root, state, base: baseCommit, protected: ["score.sh"] });
  const said: string[] = [];
  const say = (line: string) => void said.push(line);
  const daemon = () =>
    new VerifierLoop(record, config, createVerifierPort({ repo: root!, state, baseCommit, say }), say);
  const submit = (value: string): ExperimentRequest => {
    writeFileSync(join(worktree, "value.txt"), `${value}\n`);
    git(worktree, ["commit", "-qam", `value ${value}`]);
    const commit = git(worktree, ["rev-parse", "HEAD"]).trim();
    const now = new Date();
    const id = `${now.toISOString().replace(/[:.]/g, "-")}-${AGENT}-${commit.slice(0, 7)}`;
    const request: ExperimentRequest = {
      id,
      agent: AGENT,
      commit,
      description: `value ${value}`,
      kind: "candidate",
      submittedAt: now.toISOString(),
    };
    mkdirSync(join(state, "queue"), { recursive: true });
    writeFileSync(join(state, "queue", `${request.id}.json`), JSON.stringify(request));
    return request;
  };
  type Verdict = { outcome: { verdict: { kind: string; reason: string } } };
  const verdictOf = (request: ExperimentRequest) =>
    JSON.parse(readFileSync(join(state, "verdicts", `${request.id}.json`), "utf8")) as Verdict;
  const store = join(state, "verifier", "objects.git");
  return { record, state, store, said, daemon, submit, verdictOf };
}

/** Tick and wait for the runs until the queue is empty. */
async function settle(loop: VerifierLoop, state: string): Promise<void> {
  await pollUntil(async () => {
    await loop.tick(new Date());
    await loop.drain();
    const empty = readdirSync(join(state, "queue")).every((name) => !name.endsWith(".json"));
    return existsSync(join(state, "agents", AGENT, "ledger.json")) && empty;
  }, { what: "an empty queue", timeoutMs: 30_000 });
}

/** What an agent can do to the shared store: a loose object under `name` holding other content. */
function rewriteObject(repo: string, name: string, type: "blob" | "tree", content: Buffer): void {
  const file = join(repo, ".git", "objects", name.slice(0, 2), name.slice(2));
  writeFileSync(`${file}.tmp`, deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content])));
  renameSync(`${file}.tmp`, file);
}

describe("the verifier's own objects", () => {
  test("a protected file in the checkout not as org up recorded it: " +
    "reject naming it, in log.md, nothing run, the best stays", async () => {
    const org = await createOrg();
    const loop = org.daemon();
    await settle(loop, org.state);
    const hashes = join(org.state, "verifier", "protected.json");
    const recorded = JSON.parse(readFileSync(hashes, "utf8")) as ProtectedRecord;
    const real = recorded.rules["score.sh"]!["score.sh"]!.blob;
    expect(real).toBe(git(root!, ["rev-parse", "main:score.sh"]).trim());
    // The record stands for the base as it was at org up; the checkout now holds something else under that path.
    const other = { "score.sh": { "score.sh": { mode: "100644", blob: "0".repeat(40) } } };
    writeFileSync(hashes, JSON.stringify({ ...recorded, rules: other }));
    const request = org.submit("0.5");
    await settle(loop, org.state);
    const why = `protected score.sh in the checkout is ${real.slice(0, 12)}, ` +
      `not the base's 000000000000 recorded at org up`;
    expect(org.verdictOf(request).outcome.verdict).toEqual({ kind: "reject", reason: `reject: ${why}` });
    expect(readFileSync(join(org.state, "log.md"), "utf8")).toContain(`tamper | ${why}`);
    expect(readdirSync(join(org.state, "runs")).filter((name) => name.startsWith(request.id))).toEqual([]);
    const rows = readFileSync(join(org.state, "results.tsv"), "utf8").trim().split("\n").slice(1);
    expect(rows.map((line) => line.split("\t")[3])).toEqual(["keep", "reject"]);
    const ledger = JSON.parse(readFileSync(join(org.state, "agents", AGENT, "ledger.json"), "utf8")) as unknown;
    expect(ledger).toMatchObject({ best: { commit: org.record.baseCommit, metric: 1 } });
  });

  test("a store missing at daemon start is made again, the base alone first; " +
    "a broken one is moved aside and made again", async () => {
    const org = await createOrg(false);
    await settle(org.daemon(), org.state);
    expect(git(org.store, ["rev-parse", "--is-shallow-repository"]).trim()).toBe("true");
    removeDir(org.store);
    mkdirSync(org.store);
    writeFileSync(join(org.store, "HEAD"), "not a repository\n");
    const request = org.submit("0.5");
    await settle(org.daemon(), org.state);
    expect(org.verdictOf(request).outcome.verdict.kind).toBe("keep");
    const broken = readdirSync(join(org.state, "verifier")).find((name) => name.startsWith("objects.git.broken-"));
    const aside = join(org.state, "verifier", broken!);
    expect(org.said).toContain(`verifier: its object store ${org.store} was broken: moved to ${aside} and made again`);
    expect(readFileSync(join(aside, "HEAD"), "utf8")).toBe("not a repository\n");
  });

  test("the base's object rewritten in the shared store: " +
    "org up's store never reads it again; once missing, a clear refusal", async () => {
    const org = await createOrg();
    const scorer = git(root!, ["rev-parse", "main:score.sh"]).trim();
    rewriteObject(root!, scorer, "blob", Buffer.from('echo "score: 0.001"\n'));
    // org up again (a resume): the store and the record it holds stay, and the base is not taken again.
    const before = readFileSync(join(org.state, "verifier", "protected.json"), "utf8");
    await prepareVerifierStore({ repo: root!, state: org.state, base: org.record.baseCommit, protected: ["score.sh"] });
    expect(readFileSync(join(org.state, "verifier", "protected.json"), "utf8")).toBe(before);
    await settle(org.daemon(), org.state);
    const runs = readdirSync(join(org.state, "runs")).map((name) =>
      readFileSync(join(org.state, "runs", name), "utf8"),
    );
    expect(runs).toEqual(["score: 1.0\n"]);
    removeDir(org.store);
    const request = org.submit("0.5");
    const loop = org.daemon();
    await loop.tick(new Date());
    await loop.drain();
    expect(org.said.find((line) => line.startsWith(`verifier: ${request.id}: `))).toMatch(
      new RegExp(
        ": the base cannot be taken into the verifier's own object store, so nothing can be verified: " +
          "[0-9a-f]{7} could not be taken into the verifier's own object store: fatal: .* — " +
          "an object in the repo's shared " +
          `store is missing or does not match its name — run \`git fsck\` in ${root} and repair it, ` +
          `or start the org on another base$`,
      ),
    );
    expect(existsSync(join(org.state, "queue", `${request.id}.json`))).toBe(true);
    expect(readFileSync(join(org.state, "results.tsv"), "utf8").trim().split("\n")).toHaveLength(2);
  });

  test("a reload that protects one more path records it from the " +
    "verifier's store, not the shared one; the rest stays", async () => {
    const org = await createOrg();
    const hashes = join(org.state, "verifier", "protected.json");
    const before = JSON.parse(readFileSync(hashes, "utf8")) as ProtectedRecord;
    const value = git(root!, ["rev-parse", "main:value.txt"]).trim();
    // The base's tree itself rewritten in the shared store: there value.txt now names another blob.
    const fake = execFileSync("git", ["hash-object", "-w", "--stdin"], {
      cwd: root,
      input: "0.001\n",
      encoding: "utf8",
    }).trim();
    const entry = (name: string, blob: string) =>
      Buffer.concat([Buffer.from(`100644 ${name}\0`), Buffer.from(blob, "hex")]);
    const [tree, scorer] = [
      git(root!, ["rev-parse", "main^{tree}"]).trim(),
      git(root!, ["rev-parse", "main:score.sh"]).trim(),
    ];
    rewriteObject(root!, tree, "tree", Buffer.concat([entry("score.sh", scorer), entry("value.txt", fake)]));
    expect(git(root!, ["rev-parse", "main:value.txt"]).trim()).toBe(fake);
    const rules = ["score.sh", "value.txt"];
    const after = await recordProtectedHashes({ store: org.store, hashes, base: org.record.baseCommit, rules });
    expect(after.rules).toEqual({ ...before.rules, "value.txt": { "value.txt": { mode: "100644", blob: value } } });
    expect(after.recordedAt).not.toBe(before.recordedAt);
    expect(JSON.parse(readFileSync(hashes, "utf8"))).toEqual(after);
  });
});
