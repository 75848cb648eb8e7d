import type { Script } from "./model-server/index.js";
import { inboxIds, minds, notice, submitValue } from "./template-minds.js";

// The scripted minds of each template's roles: every move is a shell command the real CLI runs with its own tool.
const KICKOFF = /Read your system prompt and begin/;
const CONTRACT = '"$ORG_STATE/agents/$ORG_AGENT/own/contract.md"';
const draft = (suffix: string) =>
  `for i in $(seq 1 15); do echo "- [ ] assertion $i holds${suffix}"; ` +
    `done > ${CONTRACT} && org contract draft -f ${CONTRACT} && org contract sign`;
export const THRESHOLD = ": val_bpb below 0.9 on the verifier's run";
const REVIEW = `for i in $(seq 1 15); do echo "- [x] assertion $i holds${THRESHOLD} — 0.5 in org results"; ` +
  `done > review.md && org review -f review.md`;
const SPEC = "printf '# Spec\\n\\n1. Halve val_bpb: make train.py print 0.5; expect val_bpb below 0.9.\\n' > spec.md";

/** planner → generator ⇄ evaluator, through one sprint with an objection and a redraft. */
export const pipelineScript: Script = minds({
  planner: [
    {
      when: KICKOFF,
      steps: [SPEC, "org send generator -f spec.md --kind spec && org send evaluator -f spec.md --kind spec"],
      done: "Spec sent.",
    },
    { when: notice("generator-1", "result"), steps: ["org inbox"], done: "Read the result." },
  ],
  generator: [
    // Both submits are refused: no contract yet, then one the
    // evaluator has not signed (or has objected to: it always does).
    {
      when: notice("planner-1", "spec"),
      steps: ["org inbox", submitValue("0.5", "halve val_bpb"), draft(""), "org submit -m 'halve val_bpb'"],
      done: "Drafted sprint 1.",
    },
    {
      when: notice("evaluator-1", "contract"),
      steps: [
        "org contract status",
        ([status]) =>
          /^sprint 1: agreed/m.test(status!)
            ? "org submit -m 'halve val_bpb'"
            : /^objection: /m.test(status!)
              ? draft(THRESHOLD)
              : null,
        // No submit after the redraft: the evaluator may sign before it lands, and the agreement's own notice submits.
        ([status, last]) =>
          /^sprint 1: agreed/m.test(status!) && last!.includes("· keep")
            ? 'org send evaluator --kind review-request "sprint 1: commit $(git rev-parse --short HEAD), keep"'
            : null,
        ([status]) =>
          /^sprint 1: agreed/m.test(status!)
            ? 'org send planner --kind result "experiment 1: keep, val_bpb 0.5 (-0.5)"'
            : null,
      ],
      done: "Contract handled.",
    },
    { when: notice("evaluator-1", "review"), steps: ["org inbox"], done: "Sprint reviewed." },
  ],
  evaluator: [
    { when: notice("planner-1", "spec"), steps: ["org inbox"], done: "Read the spec." },
    {
      when: notice("generator-1", "contract"),
      steps: [
        'org contract status && cat "$ORG_STATE/contracts/sprint-1.md"',
        ([status]) =>
          /^sprint 1: agreed/m.test(status!)
            ? null
            : status!.includes(THRESHOLD)
              ? "org contract sign"
              : /^objection: /m.test(status!)
                ? null
                : 'org contract object "assertion 4 names no threshold"',
      ],
      done: "Contract handled.",
    },
    { when: notice("generator-1", "review-request"), steps: ["org inbox", REVIEW], done: "Reviewed." },
  ],
});

/**
 * A chief that tasks both juniors and, given a keep and a discard, tells the discarded one to adopt the kept branch.
 */
export function hierarchyScript(org: string, values: [string, string]): Script {
  const task = (value: string, n: number) =>
    `printf 'Make train.py print ${value}: does val_bpb ${value} beat 1.0?\\n' > task${n}.md && org task junior-${n} ` +
      `-f task${n}.md`;
  const reports = (inbox: string) =>
    [...inbox.matchAll(/· from (junior-\d) · result[^]*?print \S+: (keep|discard) at (\w+)/g)].map((match) => ({
      junior: match[1]!,
      verdict: match[2]!,
      sha: match[3]!,
    }));
  return minds({
    chief: [
      { when: KICKOFF, steps: [`${task(values[0], 1)} && ${task(values[1], 2)}`], done: "Both juniors have a task." },
      {
        when: notice("junior-\\d", "result"),
        steps: [
          "org inbox",
          ([inbox]) => {
            const found = reports(inbox!);
            if (found.length < 2) return null;
            const kept = found.find((report) => report.verdict === "keep");
            const dropped = found.find((report) => report.verdict === "discard");
            const read = `org inbox --read ${inboxIds(inbox!).join(" ")}`;
            return kept && dropped
              ? `${read} && org send ${dropped.junior} "adopt ${kept.junior}: ` +
                `git merge ${kept.sha} from org/${org}/${kept.junior}, then submit it"`
              : read;
          },
        ],
        done: "Read the reports.",
      },
    ],
    junior: [
      {
        when: notice("chief-1", "task"),
        steps: [
          "org inbox",
          ([inbox]) => `org inbox --read ${inboxIds(inbox!).join(" ")} && cat "$ORG_TASK"`,
          ([, task]) => submitValue(/print (\S+):/.exec(task!)![1]!, `print ${/print (\S+):/.exec(task!)![1]!}`),
          ([, task, verdict]) =>
            `org send chief --kind result "print ${/print (\S+):/.exec(task!)![1]!}: ` +
              `${/· (keep|discard)/.exec(verdict!)?.[1] ?? "crash"} at $(git rev-parse --short HEAD)"`,
        ],
        done: "Reported to the chief.",
      },
      {
        when: notice("chief-1", "note"),
        steps: [
          "org inbox",
          ([inbox]) =>
            `git merge ${/git merge (\w+)/.exec(inbox!)![1]!} && org submit -m 'adopt ` +
              `${/git merge (\w+)/.exec(inbox!)![1]!}'`,
        ],
        done: "Adopted.",
      },
    ],
  });
}

/**
 * Researchers that read the board, submit, note what they
 * learned, and read the board again once both lessons are on it.
 */
export function independentScript(values: Record<string, string>): Script {
  const bothNoted = `timeout 60 sh -c 'until [ "$(grep -c "is a keep" "$ORG_STATE/notes.md")" -ge 2 ]; do sleep 0.2; ` +
    `done'; org note`;
  return minds({
    researcher: [
      {
        when: KICKOFF,
        steps: [
          "org note",
          (_, agent) => submitValue(values[agent]!, `print ${values[agent]!}`),
          ([, verdict], agent) =>
            `org note "val_bpb ${values[agent]!} is a ${/· (keep|discard)/.exec(verdict!)?.[1] ?? "crash"}"`,
          bothNoted,
        ],
        done: "Noted and read the board.",
      },
    ],
  });
}

/** One researcher that submits twice: a keep, then a discard. */
export const autoresearchScript: Script = minds({
  researcher: [
    {
      when: KICKOFF,
      steps: [submitValue("0.8", "print 0.8"), submitValue("0.9", "print 0.9")],
      done: "Two experiments done.",
    },
  ],
});

/**
 * One researcher that queues two ideas with `org submit --no-wait`, waits
 * for the first with `org wait`, and reads the verdicts its inbox gets.
 */
export const asyncScript: Script = minds({
  researcher: [
    {
      when: KICKOFF,
      steps: [
        `printf "print('val_bpb: 0.8')\\n" > train.py && org submit --no-wait -m 'print 0.8'`,
        `printf "print('val_bpb: 0.9')\\n" > train.py && org submit --no-wait -m 'print 0.9'`,
        ([queued]) => `org wait ${/ as (\S+)$/m.exec(queued!)![1]!}`,
      ],
      done: "Two ideas queued; the first one's verdict is in.",
    },
    { when: notice("verifier", "verdict"), steps: ["org inbox"], done: "Read my verdicts." },
  ],
});
