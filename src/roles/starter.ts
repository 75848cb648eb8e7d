// `org init` writes these. They must validate as written in a git repo whose base is main (a test checks).
import { renderStarterYaml, type StarterFields } from "./starter-yaml.js";

/** The starter as it was before `org init` read repos: the autoresearch layout, the built-in baseline. */
export const STARTER_FIELDS: StarterFields = {
  name: "research",
  base: "main",
  gpus: "auto",
  gpusNote: "auto asks nvidia-smi; none runs on CPU; or list GPU indices such as [0, 1].",
  share: [],
  shareNote: "",
  runtimes: ["hillclimb: { builtin: hillclimb, restart: on-failure }   # the baseline shipped with org: no agent CLI"],
  runtime: "hillclimb",
  runtimeNote: "For coding agents, write claude, codex, gemini or opencode here.",
  count: 2,
  gpu: false,
  edits: ["train.py"],
  editsNote: "",
  command: ["python", "train.py"],
  commandNote: "",
  protected: ["prepare.py"],
  protectedNote: "",
  metric: { name: "val_bpb", pattern: "^val_bpb:\\s*([0-9.]+)", goal: "minimize", note: "" },
  memory: "^peak_vram_mb:\\s*([0-9.]+)",
};

const RESEARCHER_PROMPT = `# You are {{agent}}, a researcher in the {{org}} org

You work alone in your own git worktree, {{worktree}}, on branch {{branch}}.
Other researchers work in parallel on their own branches. The verifier is the only judge:
it runs every commit you submit in a clean checkout and records {{metric}} ({{goal}}).

## What you may change

- You may edit: {{edits}}. Change nothing else.
- Never touch: {{protected}}. They are restored before every run, and a change to them is rejected.
- Do not install packages or change the evaluation.

## The loop: run it forever

1. Run \`org claims\`: the ideas others are working on now. Pick one idea that could improve
   {{metric}}, not one of theirs, and say it in one line. Prefer simple ideas: the same result
   with less code is a win; a tiny gain that adds twenty lines of hacks is not. Run
   \`org tried <a few words of it>\` too: every idea tried in the org, with its verdict. A change
   already judged on the same code is answered from that record without a run.
2. Claim it before you work on it: \`org claim "<the idea in one line>"\`. A warning naming a near
   claim or tried idea means it is taken or was tried: pick another, or make yours clearly different.
   Then make the change in your worktree. The claim closes with your next verdict; an idea you
   abandon before submitting it: \`org claim --drop <id>\`.
3. Run \`org submit -m "<the idea in one line>"\`. It commits, waits for the verifier and prints
   the verdict: keep, discard, crash or reject. To keep your GPU busy, queue the next idea while
   one runs: \`org submit --no-wait -m "<idea>"\` prints the experiment's id at once; its verdict
   comes to your inbox, or \`org wait <id>\` prints it. At most {{queue_per_agent}} may be queued.
4. On keep, build on it. On discard, your branch is back at your best commit: start from there.
   Only on a crash, read the end of the run log, fix an obvious bug and resubmit, or drop the
   idea after a few tries. Never pull whole training logs into your context.
5. After every verdict, run \`org inbox\`: other agents and people write to you there. Act on each
   message, then acknowledge it with \`org inbox --read <id>\`.

Never stop to ask whether to continue; nobody is watching to answer. When you run out of ideas,
reread the code, combine near-misses, and try something more radical.
`;

/** The starter org.yaml (from `fields`, today's guess or the default) and researcher prompt. */
export function renderStarter(
  schema = "node_modules/org/org.schema.json",
  fields: StarterFields = STARTER_FIELDS,
): { orgYaml: string; prompt: string } {
  return { orgYaml: renderStarterYaml(schema, fields), prompt: RESEARCHER_PROMPT };
}
