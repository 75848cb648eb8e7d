import { resolve } from "node:path";
import { isPair, isScalar, visit, type Document } from "yaml";
import { parseForPositions, placeProblems, renderPlaced, type PlacedProblem, type Problem } from "./locate.js";
import { describeIssues, formatPath } from "./messages.js";
import { normalizeDefaults } from "./normalize.js";
import { RULES } from "./rules.js";
import { asMap, type Raw } from "./raw.js";
import { ConfigSchema, type OrgConfig } from "./schema.js";
import { checkStop } from "./stop-rules.js";
import { checkSandboxPaths } from "./sandbox-rules.js";
import { checkDiskSettings } from "./disk-rules.js";
import type { ConfigProbe } from "./probe.js";
import { checkJudgeFiles } from "./judge-rules.js";

/** A valid org.yaml, with the repo and base it names already resolved. */
export interface LoadedConfig {
  file: string;
  dir: string;
  text: string;
  config: OrgConfig;
  repoDir: string;
  baseCommit: string;
  /** An A/B run (`org up --ab`): the agents of program B, who lease from their own half of the GPUs. */
  ab?: { b: string[] };
}

export type LoadResult = { ok: true; loaded: LoadedConfig } | { ok: false; problems: string[] };

/**
 * Parse, validate, normalize and check org.yaml, reporting every problem at once as `file:line:col: what — fix`.
 * file: path as the user named it (for messages); dir: absolute folder of the file; now: refuse a stop deadline
 * already past.
 */
export async function loadConfig(
  input: { file: string; dir: string; text: string; now?: Date }, probe: ConfigProbe,
): Promise<LoadResult> {
  const { doc, lineCounter } = parseForPositions(input.text);
  const syntax = findSyntaxProblems(doc, input.text);
  if (syntax.length > 0) return { ok: false, problems: renderPlaced(input.file, lineCounter, syntax) };
  let raw: unknown;
  try {
    raw = doc.toJS();
  } catch (error) {
    // Only resource limits (alias bombs) get here; unresolved aliases were reported above.
    return {
      ok: false,
      problems: renderPlaced(
        input.file,
        lineCounter,
        [{ offset: 0, message: (error as Error).message, fix: "write the values out instead of using aliases" }],
      ),
    };
  }
  const parsed = ConfigSchema.safeParse(raw);
  const problems: Problem[] = parsed.success ? [] : describeIssues(parsed.error.issues, raw);
  const map = asMap(raw);
  const repo = map ? await checkRepo(map, input.dir, probe) : undefined;
  if (map) problems.push(
    ...RULES.flatMap((rule) => rule(map)),
    ...checkStop(map, input.now),
    ...(await checkPromptFiles(map, input.dir, probe)),
  );
  problems.push(...(repo?.problems ?? []));
  if (map && repo) problems.push(...(await checkSandboxPaths(map, input.dir, repo.repoDir, probe)));
  if (map && repo) problems.push(...(await checkJudgeFiles(map, repo.repoDir, probe)));
  if (map) problems.push(...(await checkDiskSettings(map, input.dir, probe)));
  if (!parsed.success || problems.length > 0 || !repo?.baseCommit) {
    return { ok: false, problems: renderPlaced(input.file, lineCounter, placeProblems(doc, problems)) };
  }
  return {
    ok: true,
    loaded: {
      file: input.file,
      dir: input.dir,
      text: input.text,
      config: normalizeDefaults(parsed.data),
      repoDir: repo.repoDir,
      baseCommit: repo.baseCommit,
    },
  };
}

/** Prompt files that are not on disk: a rule, but one that needs the disk. */
async function checkPromptFiles(raw: Raw, dir: string, probe: ConfigProbe): Promise<Problem[]> {
  const checks = Object.entries(asMap(raw.roles) ?? {}).map(async ([role, spec]): Promise<Problem[]> => {
    const prompt = asMap(spec)?.prompt;
    if (typeof prompt !== "string" || prompt === "" || (await probe.exists(resolve(dir, prompt)))) return [];
    return [{
      path: ["roles", role, "prompt"],
      message: `${formatPath(["roles", role, "prompt"])} file "${prompt}" does not exist`,
      fix: "create it, or give its path relative to this file",
    }];
  });
  return (await Promise.all(checks)).flat();
}

/** The repo folder and the sha of base, with what is wrong when either cannot be had. */
async function checkRepo(raw: Raw, dir: string, probe: ConfigProbe): Promise<{
  problems: Problem[]; repoDir: string; baseCommit: string | null;
}> {
  const repo = raw.repo ?? ".";
  const base = raw.base ?? "main";
  const repoDir = resolve(dir, typeof repo === "string" ? repo : ".");
  // A repo or base of the wrong type is the schema's problem; guessing a folder would only add noise.
  if (typeof repo !== "string" || repo === "" || typeof base !== "string" || base === "") return {
    problems: [],
    repoDir,
    baseCommit: null,
  };
  const fail = (path: string, message: string, fix: string) =>
    ({ problems: [{ path: [path], message, fix }], repoDir, baseCommit: null });
  if (!(await probe.exists(repoDir))) return fail(
    "repo",
    `repo "${repo}" does not exist (${repoDir})`,
    "point repo at your research git repo, relative to this file",
  );
  // A base that resolves proves the repo too: one git call on the path every command takes.
  const baseCommit = await probe.resolveCommit(repoDir, base);
  if (baseCommit !== null) return { problems: [], repoDir, baseCommit };
  if (!(await probe.isGitRepo(repoDir))) return fail(
    "repo",
    `repo "${repo}" is not a git repository (${repoDir})`,
    "run `git init` there, or point repo at your research git repo",
  );
  const empty = (await probe.resolveCommit(repoDir, "HEAD")) === null;
  const fix = empty
    ? "the repo has no commits yet: make a first commit"
    : `name an existing branch, tag or commit (see \`git -C ${repo} branch\`)`;
  return fail("base", `base "${base}" does not name a commit in repo "${repo}"`, fix);
}

/** YAML that does not parse, a repeated key, an alias without its anchor: reported alone, with positions. */
function findSyntaxProblems(doc: Document, text: string): PlacedProblem[] {
  // After the first structural error the parser's complaints are mostly echoes of it; repeated keys are independent.
  const structural = doc.errors.filter((error) => error.code !== "DUPLICATE_KEY").slice(0, 1);
  const errors = doc.errors.filter((error) => error.code === "DUPLICATE_KEY" || structural.includes(error));
  const problems: PlacedProblem[] = errors.map((error) => {
    const offset = error.pos[0];
    switch (error.code) {
      case "DUPLICATE_KEY": {
        const key = findKeyAt(doc, offset);
        return { offset, message: `duplicate key "${key}"`, fix: `keep one "${key}"; a YAML map cannot repeat a key` };
      }
      case "MULTIPLE_DOCS":
        return {
          offset,
          message: 'more than one YAML document (a second "---")',
          fix: "keep everything in one document: remove the extra ---",
        };
      case "TAB_AS_INDENT":
        return { offset, message: "a tab is used for indentation", fix: "indent with spaces" };
      default:
        // The parser's stack ran out: where it did depends on the stack, so point at where the nesting gets absurd.
        if (/call stack/i.test(error.message)) return {
          offset: findDeepNesting(text),
          message: `values are nested more than ${MAX_DEPTH} levels deep`,
          fix: "org.yaml needs a few levels: remove the extra brackets or indentation",
        };
        return {
          offset,
          message: `YAML syntax error: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`,
          fix: "fix the syntax here (indentation, quotes, brackets, a ': ' inside an unquoted value)",
        };
    }
  });
  visit(doc, {
    Alias(_, alias) {
      if (alias.resolve(doc) !== undefined) return;
      problems.push({
        offset: alias.range?.[0] ?? 0,
        message: `alias "*${alias.source}" has no anchor "&${alias.source}" before it`,
        fix: "define the anchor first, or write the value out",
      });
    },
  });
  return problems;
}

const MAX_DEPTH = 64;

/** The first offset past MAX_DEPTH levels of brackets or of two-space indentation; 0 when none is found. */
function findDeepNesting(text: string): number {
  let depth = 0;
  let lineStart = true;
  for (let offset = 0; offset < text.length; offset++) {
    const char = text[offset]!;
    if (char === "[" || char === "{") depth += 1;
    else if (char === "]" || char === "}") depth -= 1;
    if (depth > MAX_DEPTH) return offset;
    if (lineStart && text.startsWith(" ".repeat(2 * MAX_DEPTH), offset)) return offset + 2 * MAX_DEPTH;
    lineStart = char === "\n";
  }
  return 0;
}

function findKeyAt(doc: Document, offset: number): string {
  let key = "";
  visit(doc, {
    Pair(_, pair) {
      if (isPair(pair) && isScalar(pair.key) && pair.key.range?.[0] === offset) key = String(pair.key.value);
    },
  });
  return key;
}
