import * as z from "zod";
import { PRESET_NAMES } from "../runtimes/runtime-presets.js";
import { ClaimsSchema } from "./claims-schema.js";
import { duration } from "./duration.js";

import { argv, name, SAFE_NAME, SAFE_NAME_RULE } from "./names.js";
import { MetricSchema, VerifySchema } from "./verify-schema.js";
import { SandboxSchema } from "./sandbox-schema.js";
import { SlurmSchema } from "./slurm-schema.js";
import { StopSchema } from "./stop-schema.js";

export { MetricSchema, SAFE_NAME, SAFE_NAME_RULE, SlurmSchema, VerifySchema };

export const RuntimeSchema = z
  .strictObject({
    command: argv
      .optional()
      .describe("argv of the agent program; placeholders {prompt_file} {kickoff} {agent} {role} {worktree} {gpu} "
        + "{state} {inbox} are substituted as whole elements")
      .meta({ examples: [["./agents/mybot.sh", "{prompt_file}", "{kickoff}"]] }),
    builtin: z.enum(["hillclimb", "chief"]).optional()
      .describe("a runtime shipped with org instead of a command: hillclimb is the baseline researcher of the demo (as "
        + "a junior it follows its task's focus: line), chief hands each junior one constant to work on"),
    restart: z.enum(["always", "on-failure", "never"]).default("on-failure")
      .describe("when the supervisor restarts the program after it exits"),
    env: z.record(z.string(), z.string()).default({})
      .describe("extra environment for the program, over its preset's key by key (claude: DISABLE_AUTOUPDATER=1, "
        + "gemini: GEMINI_CLI_NO_RELAUNCH=true, opencode: OPENCODE_DISABLE_AUTOUPDATE=1; \"\" turns one off)")
      .meta({ examples: [{ PYTHONUNBUFFERED: "1" }] }),
    pass_env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "an environment variable name" })
      .meta({ examples: ["ANTHROPIC_API_KEY"] })).optional()
      .describe("secret-looking variables (*_API_KEY, *_TOKEN, *SECRET*, *PASSWORD*) "
        + "of `org up`'s environment this program receives; default: none, every other runtime never sees them")
      .meta({ examples: [["ANTHROPIC_API_KEY"]] }),
    preset: z.enum(PRESET_NAMES).optional()
      .describe("a known agent CLI whose launch, resume, install and login settings are filled in; "
        + "any key below overrides the preset's")
      .meta({ examples: ["claude"] }),
    program: z.string().min(1).optional()
      .describe("the program of command and resume, e.g. a path to a local install")
      .meta({ examples: ["./node_modules/.bin/claude"] }),
    resume: z.array(z.string().min(1)).optional()
      .describe("argv that resumes the agent's conversation after a restart ({session_id} is the agent's "
        + "id); [] starts afresh"),
    unattended: z.array(z.string().min(1)).optional()
      .describe("flags for working without a person, spliced where command or resume says {unattended}"),
    trust: z.array(z.string().min(1)).optional()
      .describe("flags that trust the worktree without a dialog (gemini: --skip-trust), "
        + "spliced after the unattended flags when answer_trust is true"),
    prompt_file: z.string().optional()
      .describe("a file in the worktree the CLI reads as instructions (AGENTS.md), "
        + "written from the role prompt and excluded from git; empty: the prompt goes by a flag"),
    home_env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "an environment variable name" }))
      .optional().describe("environment variables set to the agent's own config folder, state/agents/<agent>/home"),
    seed: z.array(z.strictObject({
      from: z.string().min(1).describe("a path under your home folder"),
      to: z.string().min(1).describe("a path in the agent's config folder"),
    }))
      .optional()
      .describe("credentials copied once from your config into each agent's config folder"),
    install: z.string().optional().describe("the command that installs the program, shown when it is missing"),
    version: z.array(z.string().min(1)).optional().describe("argv printing the program's version, for org doctor"),
    login: z.strictObject({
      env: z.array(z.string()).default([])
        .describe("variables that hold a key; one counts when the program receives it (env or pass_env)"),
      files: z.array(z.string()).default([]).describe("credential files under your home folder"),
      without: z.string().default("")
        .describe("what the program does with no login, for org doctor; empty: it needs one"),
    }).optional().describe("how org doctor tells whether the program looks logged in"),
    nudge: z.string().min(1).default("Keep going: continue your research loop. Do not stop or ask for confirmation.")
      .describe("the line typed into an agent idle at its prompt"),
    nudge_after: duration.default("10m")
      .describe("how long an agent must sit idle with an unchanged screen before it is nudged"),
    nudges_per_hour: z.number().int().min(0).max(60).default(3)
      .describe("the most nudges per agent per hour; 0 never nudges"),
    answer_trust: z.boolean().default(false)
      .describe("trust the agent's worktree: its trust dialog is skipped where the preset can (claude, gemini, codex), "
        + "else answered with yes; false marks the agent blocked at it instead"),
  })
  .describe("how to start an agent program");

export const RoleSchema = z
  .strictObject({
    prompt: z.string().min(1)
      .describe("the role's system prompt: a Markdown file, relative to org.yaml, templated per agent")
      .meta({ examples: ["prompts/researcher.md"] }),
    runtime: z.string().min(1)
      .describe("the name of an entry under runtimes, or a preset (claude, codex, gemini, opencode) "
        + "used as is when no entry has its name")
      .meta({ examples: ["claude", "codex"] }),
    count: z.number().int().min(1).max(256).default(1).describe("how many agents of this role").meta({ examples: [2] }),
    gpu: z.boolean().default(false).describe("give every agent of this role one GPU of its own"),
    edits: z.array(z.string().min(1)).default([])
      .describe("globs of paths this role may change; empty means any path that is not protected")
      .meta({ examples: [["train.py"]] }),
    kickoff: z.string().default("Read your system prompt and begin. Loop forever; never ask to stop.")
      .describe("the first user message, passed as {kickoff}"),
    reports_to: name().optional()
      .describe("the role this role reports to: its agents may message that role's agents, and they may message back")
      .meta({ examples: ["chief"] }),
    talks_to: z.array(name()).default([])
      .describe("more roles this role's agents may message; their own role, "
        + "the role they report to and the roles reporting to them need no entry")
      .meta({ examples: [["evaluator"]] }),
  })
  .describe("a role: its prompt, runtime, count and permissions");

export const ShareSchema = z
  .union([
    z.string().min(1),
    z.strictObject({
      path: z.string().min(1).describe("path relative to the research repo"),
      mode: z.enum(["link", "copy"]).default("link").describe("symlink into each worktree, or copy once"),
    }),
  ], { error: "a path such as .venv, or a map with path and mode" })
  .describe("an untracked path of the research repo that every worktree needs (.venv, data cache, .env)")
  .meta({ examples: [".venv", { path: "data", mode: "copy" }] });


export const SupervisorSchema = z
  .strictObject({
    backoff: duration.default("1s").describe("delay before the first restart; doubles per consecutive failure"),
    max_backoff: duration.default("30s").describe("the longest delay between restarts"),
    max_restarts: z.number().int().min(0).default(10)
      .describe("consecutive restarts before the agent is marked failed"),
    healthy_after: duration.default("60s").describe("a run this long resets the consecutive-restart count"),
  })
  .describe("how agent programs are restarted");

export const MessagesSchema = z
  .strictObject({
    max_bytes: z.number().int().min(256).max(1_048_576).default(16_384)
      .describe("the largest message in bytes; a bigger one is refused, so details go in a file whose path is sent"),
    inbox_max: z.number().int().min(5).max(10_000).default(50)
      .describe("messages kept in an inbox; past it the oldest move to its archive folder, read ones first"),
    notes_max: z.number().int().min(5).max(10_000).default(50)
      .describe("entries on the notes board, state/notes.md; past it the oldest move to state/notes-archive.md"),
    notify: z.boolean().default(true).describe("type one short line into the recipient's pane when a message arrives"),
    idle: duration.default("1s").describe("how long a pane must be unchanged before a notification is typed into it"),
    busy_timeout: duration.default("10m")
      .describe("stop waiting for a busy pane after this long; the message stays in the inbox"),
    quiet: z.array(z.string().min(1)).default(["verdict"])
      .describe("kinds delivered without a pane notification (verdicts already reach the agent through org submit; "
        + "one asked for with org submit --no-wait is announced still)"),
  })
  .describe("messages between agents and people: caps and pane notifications");

const ContractsSchema = z
  .strictObject({
    generator: name().default("generator")
      .describe("the role that drafts each sprint's contract; its agents' `org submit` is refused until the "
        + "sprint's contract is agreed"),
    evaluator: name().default("evaluator")
      .describe("the role that objects to or signs the contract, and reviews the sprint's commit "
        + "against it (`org review`)"),
    min_assertions: z.number().int().min(1).max(1000).default(15)
      .describe("a contract with fewer testable assertions (`- [ ] …` lines) cannot be agreed"),
    max_bytes: z.number().int().min(256).max(1_048_576).default(32_768)
      .describe("the largest contract or review in bytes: every agent reads them"),
  })
  .describe("pipeline contracts: before a sprint's first submit, generator and evaluator sign a checklist of testable "
    + "assertions in state/contracts/sprint-<n>.md");

const StandupSchema = z
  .strictObject({
    to: name().default("chief")
      .describe("the role that receives the digest; its juniors are the roles that report_to it"),
    every: duration.default("30m")
      .describe("a digest at most this often, when a verdict has landed since the last one"),
    verdicts: z.number().int().min(1).max(10_000).default(10)
      .describe("or sooner, once this many of the juniors' verdicts have landed since the last digest"),
    results: z.number().int().min(1).max(20).default(3).describe("the latest results listed per junior"),
  })
  .describe("standup digests (hierarchy): per junior its task, latest results, best and crashes, "
    + "delivered to the chief's inbox as kind standup");

const ProgressSchema = z
  .strictObject({
    max_bytes: z.number().int().min(512).max(1_048_576).default(8192)
      .describe("the largest progress.md; past it the daemon moves its oldest lines to progress-archive.md"),
  })
  .describe("each agent's own running summary, state/agents/<agent>/own/progress.md ($ORG_PROGRESS), "
    + "kept across restarts and never committed");

const perMillion = (what: string, example: number) =>
  z.number().min(0).describe(`dollars per million ${what}`).meta({ examples: [example] });

const PriceSchema = z
  .strictObject({
    input: perMillion("input tokens (not read from or written to the cache)", 3),
    output: perMillion("output tokens, reasoning included", 15),
    cache_read: perMillion("tokens read from the prompt cache", 0.3).optional(),
    cache_write: perMillion("tokens written to the prompt cache", 3.75).optional(),
  })
  .describe("a model's prices in dollars per million tokens; a model that used cache tokens without a cache "
    + "price stays unpriced")
  .meta({ examples: [{ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 }] });

const ReloadSchema = z
  .strictObject({
    watch: z.boolean().default(true)
      .describe("apply edits of org.yaml and the prompts as soon as they are saved; false: "
        + "only `org reload` applies them"),
    min_interval: duration.default("60s")
      .describe("the shortest time between two edits applied for a meta role (a role whose edits include "
        + "org.yaml or prompts)"),
  })
  .describe("hot reload of the running org; every key has a default");

export const ConfigSchema = z
  .strictObject({
    name: name().default("org")
      .describe("org name; the tmux socket and session and the branch prefix org/<name>/ derive from it"),
    repo: z.string().min(1).default(".").describe("the research git repo, relative to this file"),
    base: z.string().min(1).default("main").describe("commit-ish every agent branches from"),
    gpus: z
      .union(
        [z.enum(["auto", "none"]), z.array(z.number().int().min(0)).min(1)],
        { error: "auto, none, or a list of GPU indices such as [0, 1]" },
      )
      .default("auto")
      .describe("auto (nvidia-smi), none (CPU mode), or an explicit list of GPU indices such as [0, 1]"),
    share: z.array(ShareSchema).default([]).describe("untracked paths linked or copied into every worktree"),
    runtimes: z
      .record(z.string(), RuntimeSchema)
      .default({})
      .describe("how to start agent programs, by name; a role may name a preset (claude, codex, gemini, "
        + "opencode) with no entry here")
      .meta({ examples: [{ claude: { preset: "claude" }, mybot: { command: ["./agents/mybot.sh", "{kickoff}"] } }] }),
    roles: z
      .record(z.string(), RoleSchema)
      .describe("the roles of the org, by name")
      .meta({ examples: [{ researcher: { prompt: "prompts/researcher.md", runtime: "claude", count: 2 } }] }),
    backend: z.enum(["local", "slurm"]).default("local")
      .describe("where agents run: local (this host, GPUs leased by org) or slurm (each GPU agent is one Slurm "
        + "job holding one GPU)"),
    slurm: SlurmSchema.optional(),
    verify: VerifySchema.optional(),
    supervisor: SupervisorSchema.default({ backoff: "1s", max_backoff: "30s", max_restarts: 10, healthy_after: "60s" }),
    // Optional rather than defaulted: a config without it loads exactly as before; reloadSettings() fills it in.
    reload: ReloadSchema.optional(),
    messages: MessagesSchema.optional(),
    contracts: ContractsSchema.optional(),
    standup: StandupSchema.optional(),
    progress: ProgressSchema.optional(),
    stop: StopSchema.optional(),
    claims: ClaimsSchema.optional(),
    sandbox: SandboxSchema.optional(),
    pricing: z
      .record(z.string(), PriceSchema)
      .optional()
      .describe("token prices per model, by model name or glob (* any characters, ? one); the exact name wins, "
        + "then the first glob that matches. No price is built in: a model with none is shown as unpriced")
      .meta({
        examples: [{
          "claude-sonnet-*": { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
          "gpt-5*": { input: 1.25, output: 10, cache_read: 0.125 },
        }],
      }),
  })
  .describe("org.yaml: a research organization of coding agents");

export type OrgConfig = z.output<typeof ConfigSchema>;
export type RuntimeConfig = z.output<typeof RuntimeSchema>;
export type RoleConfig = z.output<typeof RoleSchema>;
export type VerifyConfig = z.output<typeof VerifySchema>;
export type ShareEntry = z.output<typeof ShareSchema>;
export type ReloadConfig = z.output<typeof ReloadSchema>;
export type SlurmConfig = z.output<typeof SlurmSchema>;
export type StopSettings = z.output<typeof StopSchema>;
export type SandboxConfig = z.output<typeof SandboxSchema>;

/** The reload section with its defaults, present or not. */
export function reloadSettings(config: OrgConfig): ReloadConfig {
  return config.reload ?? ReloadSchema.parse({});
}
export type MessageSettings = z.output<typeof MessagesSchema>;
export type ContractSettings = z.output<typeof ContractsSchema>;

/** The largest progress.md, whether or not org.yaml has a progress section. */
export function progressMaxBytes(config: OrgConfig): number {
  return (config.progress ?? ProgressSchema.parse({})).max_bytes;
}

// Reading a duration needs no schema: `org status` loads it without zod.
export { parseDuration } from "../units/index.js";
