// `org init` writes these. They must validate as written in a git repo whose base is main (a test checks).

const ORG_YAML = `# yaml-language-server: $schema={{schema}}
# org.yaml: a research organization of coding agents.
# Check it with \`org validate\`, start it with \`org up\`, watch it with \`org status\`.

# Names the tmux session and the branch prefix org/<name>/<agent>.
name: research
# The research git repo, relative to this file, and the commit-ish every agent branches from.
repo: .
base: main
# auto asks nvidia-smi; none runs on CPU; or list GPU indices such as [0, 1].
gpus: auto

# Untracked paths every worktree needs: symlinked by default, or copied once.
share: []
#  - .venv
#  - { path: data, mode: copy }

# How to start agent programs. A role may name a preset, claude, codex, gemini or opencode, with no
# entry here: the preset starts that CLI unattended (no permission prompts), hands it the role's prompt,
# resumes its conversation after a restart and gives each agent a config folder of its own.
# To change a preset's keys, add an entry that names it; the entry's keys win:
#   claude: { preset: claude, env: { IS_SANDBOX: "1" } }     # claude run as root in a container
# Any other program gets a command: an argv list, never a shell string, in which these
# placeholders are replaced when they stand alone as an element:
#   {prompt_file} {kickoff} {agent} {role} {worktree} {gpu} {state} {inbox}
#   mybot: { command: [./agents/mybot.sh, "{prompt_file}", "{kickoff}"] }
runtimes:
  # The baseline shipped with org: it needs no agent CLI, so it runs anywhere.
  hillclimb:
    builtin: hillclimb
    restart: on-failure

# Who works here. Agents are named <role>-1, <role>-2, … and each gets its own worktree.
roles:
  researcher:
    prompt: prompts/researcher.md
    # For coding agents, write claude, codex, gemini or opencode here.
    runtime: hillclimb
    count: 2
    # true gives every agent of this role a GPU of its own.
    gpu: false
    # Globs this role may change; everything else is read-only to it.
    edits: [train.py]

# The verifier: the only judge. It runs every submitted commit in a clean checkout.
verify:
  command: [python, train.py]
  # Restored from base before every run; a change touching them is rejected.
  protected: [prepare.py]
  metric:
    name: val_bpb
    pattern: '^val_bpb:\\s*([0-9.]+)'
    goal: minimize
  memory:
    pattern: '^peak_vram_mb:\\s*([0-9.]+)'
  timeout: 10m
  parallel: 2

# How agent programs are restarted when they exit.
supervisor:
  backoff: 1s
  max_backoff: 30s
  max_restarts: 10
  healthy_after: 60s
`;

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

/** The starter org.yaml and researcher prompt; `schema` is where editors find org.schema.json. */
export function renderStarter(schema = "node_modules/org/org.schema.json"): { orgYaml: string; prompt: string } {
  return { orgYaml: ORG_YAML.replace("{{schema}}", schema), prompt: RESEARCHER_PROMPT };
}
