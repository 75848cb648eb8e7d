// Each record under state/ has one owner module, the only one to read or write it: the house rule of
// docs/architecture.md, read off the source text.
import { describe, expect, test } from "vitest";
import { readSources, stripComments } from "./helpers/source-tree.js";

describe("the house: one owner for each state record", () => {
  // Each record under state/ has one owner module, the only one to read or write it. `users` may name its path too:
  // the module that builds it, a view reading through its file port, a message.
  test.each([
    { record: "state/queue", owner: "adapters/store/queue.ts", names: /["'`/]queue["'`/]|\bpaths\.queue\b/, users: [] },
    {
      record: "state/frontier.json", owner: "adapters/store/frontier-file.ts",
      names: /["'`/]frontier(?:-b)?\.json["'`]/,
      users: [],
    },
    {
      record: "state/results.tsv", owner: "adapters/store/results-file.ts",
      names: /["'`/]results\.tsv["'`]|\bresultsPath\(/,
      users: [
        "domain/experiments/results-table.ts", "domain/views/dashboard-source.ts",
        "flows/views/report-view.ts", "flows/views/lineage-view.ts",
      ],
    },
    {
      record: "state/journal.jsonl", owner: "adapters/store/journal-store.ts",
      names: /["'`/]journal\.jsonl["'`]|\bjournalPath\(/,
      users: ["domain/experiments/journal.ts", "domain/views/dashboard-source.ts"],
    },
    {
      record: "state/agents/<agent>/ledger.json", owner: "adapters/store/agent-ledger.ts",
      names: /["'`/]ledger\.json["'`]|\bagentPaths\([^)]*\)\.ledger\b/, users: ["domain/paths.ts"],
    },
    // The domain's lifecycle owns it, not adapters/store: org up, down, reload and the views read it there too.
    {
      record: "state/agents/<agent>/status.json", owner: "domain/lifecycle/agent-status-file.ts",
      names: /["'`/]status\.json["'`]|\b(?:agentPaths\([^)]*\)|paths|files)\.status\b/, users: ["domain/paths.ts"],
    },
    {
      record: "state/verdicts", owner: "adapters/verifier/verdict-file.ts", names: /["'`/]verdicts["'`/]/,
      users: ["domain/experiments/verdict-check.ts"],
    },
    {
      record: "state/confirmations", owner: "adapters/verifier/confirmation.ts", names: /["'`/]confirmations["'`/]/,
      users: [],
    },
    {
      record: "state/gpu-runs.jsonl, gpu-slots.json", owner: "adapters/store/gpu-runs-file.ts",
      names: /["'`/]gpu-(?:runs\.jsonl|slots\.json)["'`]/, users: [],
    },
    {
      record: "state/claims.md", owner: "adapters/store/claim-board.ts", names: /["'`/]claims\.(?:md|lock)["'`]/,
      users: ["domain/claims/board.ts"],
    },
    { record: "state/stacks.jsonl", owner: "adapters/store/stacks.ts", names: /["'`/]stacks\.jsonl["'`]/, users: [] },
    {
      record: "state/tried.jsonl", owner: "adapters/store/tried-ledger-file.ts", names: /["'`/]tried\.jsonl["'`]/,
      users: [],
    },
    {
      record: "state/agents/<agent>/inbox/receipts, state/messages/sent", owner: "adapters/store/message-records.ts",
      names: /["'`/](?:receipts|sent)["'`/]|\.read\.json["'`]/, users: [],
    },
    {
      record: "state/agents/<agent>/notifications.jsonl", owner: "adapters/store/notification-log.ts",
      names: /["'`/]notifications\.jsonl["'`]/, users: [],
    },
    // Every module names it through orgPaths(root).orgFile; the house test below holds who reads and writes it.
    {
      record: "state/org.json", owner: "domain/lifecycle/org-record-file.ts", names: /["'`/]org\.json["'`]/,
      users: ["domain/paths.ts", "daemon/outbox-broker.ts"],
    },
    {
      record: "state/daemon.json", owner: "domain/lifecycle/daemon-file.ts", names: /["'`/]daemon\.json["'`]/,
      users: ["domain/paths.ts"],
    },
    {
      record: "state/judge-calibration.json", owner: "adapters/verifier/judge-calibration.ts",
      names: /["'`/]judge-calibration\.json["'`]/, users: [],
    },
    {
      record: "state/keeper.json", owner: "adapters/keeper-process.ts", names: /["'`/]keeper\.json["'`]/, users: [],
    },
    {
      record: "state/disk.json", owner: "adapters/store/disk-state.ts", names: /["'`/]disk\.json["'`]/, users: [],
    },
    {
      record: "state/stop-waivers.json", owner: "adapters/store/stop-watch-state.ts",
      names: /["'`/]stop-waivers\.json["'`]|\bstopFiles\([^)]*\)\.waivers\b/, users: ["domain/paths.ts"],
    },
    {
      record: "state/agents/<agent>/usage-cursors.json", owner: "adapters/usage/store.ts",
      names: /["'`/]usage-cursors\.json["'`]|\busagePaths\([^)]*\)\.cursors\b|\bpaths\.cursors\b/,
      users: ["domain/usage/summary.ts"],
    },
    {
      record: "state/verifier/protected.json", owner: "adapters/verifier/protected-check.ts",
      names: /["'`/]protected\.json["'`]|\.hashes\b/, users: ["domain/paths.ts", "adapters/verifier/prepare-store.ts"],
    },
    {
      record: "state/standup.json", owner: "adapters/store/standup-mark.ts",
      names: /["'`/]standup\.json["'`]|\bstandupFile\(/, users: ["domain/paths.ts"],
    },
    {
      record: "state/agents/<agent>/resume-kickoff.json", owner: "adapters/store/resume-kickoff-file.ts",
      names: /["'`/]resume-kickoff\.json["'`]|\.resumeKickoff\b/,
      users: ["domain/paths.ts", "domain/lifecycle/up-org.ts", "domain/reconcile/apply.ts"],
    },
    {
      record: "state/reload.json", owner: "flows/reload/reload-log.ts",
      names: /["'`/]reload\.json["'`]|\breloadFile\(/, users: ["daemon/verifier/handle.ts"],
    },
    {
      record: "state/reload-requests, reload-replies", owner: "flows/reload/requests.ts",
      names: /["'`/]reload-(?:requests|replies)["'`/]|\b(?:requestsDir|replyFile)\(/,
      users: ["daemon/reload/hot-reload.ts"],
    },
    {
      record: "state/agents/<agent>/proposal-base.json", owner: "flows/reload/proposal.ts",
      names: /["'`/]proposal-base\.json["'`]/, users: [],
    },
    {
      record: "state/programs/<version>/meta.json, config.json", owner: "adapters/store/programs.ts",
      names: /["'`/](?:meta|config)\.json["'`]|\bprogramDir\(/, users: ["flows/reload/restore-program.ts"],
    },
    {
      record: "state/agents/<agent>/launch.json", owner: "domain/lifecycle/launch-file.ts",
      names: /["'`/]launch\.json["'`]|\b(?:agentPaths\([^)]*\)|paths|files)\.launch\b/,
      users: ["domain/paths.ts", "adapters/usage/agent.ts"],
    },
    {
      record: "state/slurm/<agent>/slurm.json, slurm-job.json", owner: "domain/slurm/slurm-job-file.ts",
      names: /["'`/]slurm(?:-job)?\.json["'`]|\bslurmAgentPaths\([^)]*\)\.(?:request|job)\b|\bpaths\.(?:request|job)\b/,
      users: ["domain/slurm/slurm-paths.ts"],
    },
    {
      record: "state/ablation", owner: "adapters/store/ablation.ts", names: /\bjoin\([^)]*"ablation"|\bablationPaths\(/,
      users: [],
    },
    {
      record: "state/notes.md, notes-archive.md", owner: "adapters/store/notes-board.ts",
      names: /["'`/]notes(?:-archive)?\.(?:md|lock)["'`]|\bnotesPaths\(/,
      users: ["cli/commands/note.ts", "domain/config/schema.ts"],
    },
    {
      record: "state/programs/ab-runs.jsonl", owner: "adapters/store/ab-run.ts", names: /["'`/]ab-runs\.jsonl["'`]/,
      users: [],
    },
    {
      record: "state/stop.json", owner: "adapters/store/stop-file.ts",
      names: /["'`/]stop\.json["'`]|\bstopFiles\([^)]*\)\.stop\b/, users: ["domain/paths.ts"],
    },
    {
      record: "state/agents/<agent>/usage.json", owner: "domain/usage/summary.ts",
      names: /["'`/]usage\.json["'`]|\b(?:usagePaths\([^)]*\)|this\.paths|paths)\.summary\b/, users: [],
    },
  ])("$record is read and written by its owner alone, src/$owner", ({ owner, names, users }) => {
    const files = readSources();
    expect(files.filter(([name]) => name === owner).length).toBe(1);
    const others = files.filter(([name]) => name !== owner && !users.includes(name));
    expect(others.filter(([, text]) => names.test(stripComments(text))).map(([name]) => name)).toEqual([]);
  });

  // The verifier's handle reads its text as a mark of change only, never as a record.
  test.each([
    {
      record: "state/org.json", path: "orgFile",
      owners: ["domain/lifecycle/org-record-file.ts", "daemon/verifier/handle.ts"],
    },
    { record: "state/daemon.json", path: "daemon", owners: ["domain/lifecycle/daemon-file.ts"] },
  ])("$record is read, written and removed by its owner alone, src/$owners.0", ({ path, owners }) => {
    const call = String.raw`\b(?:readJson\w*|readText|writeAtomic|write\w*Atomic|rm|removeFile)(?:<[^>]*>)?\(`;
    const io = new RegExp(`${call}[^()]*\\.${path}\\b`);
    const files = readSources();
    expect(files.filter(([name, text]) => !owners.includes(name) && io.test(stripComments(text))).map(([name]) => name))
      .toEqual([]);
  });

  const bestWriter = "adapters/verifier/frontier-writer.ts";
  test(`the org best (journal move, ref, frontier.json, log.md) has one writer, ${bestWriter}`, () => {
    const writer = bestWriter;
    const writes = (text: string) => /\bwriteFrontierFile\b|kind: "frontier", payload|op: "frontier"/.test(text)
      || (/\bbestBranchOf\b/.test(text) && /\b(?:moveRef|deleteRef)\(/.test(text));
    const owners = new Set([writer, "adapters/store/frontier-file.ts"]);
    const files = readSources();
    expect(files.filter(([name, text]) => name === writer && writes(text)).length).toBe(1);
    expect(files.filter(([name, text]) => !owners.has(name) && writes(text)).map(([name]) => name)).toEqual([]);
  });
});
