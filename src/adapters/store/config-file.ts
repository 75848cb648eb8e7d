import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { parse } from "yaml";
import { loadConfig, type ConfigProbe, type LoadedConfig } from "../../domain/config/index.js";
import type { Pricing } from "../../domain/usage/pricing.js";
import type { Goal } from "../../domain/experiments/verdict.js";
import { configProbe } from "../probes/config.js";
import { readText } from "../fs/files.js";

export type ReadConfigResult = { loaded: LoadedConfig } | { problems: string[] };

// The one module that reads an org's org.yaml (or program B's file): every command, the daemon and the agents' helpers.

/** The text of an org.yaml as reading it goes: undefined when missing; an error when it cannot be read. */
export async function readConfigText(cwd: string, file = "org.yaml"): Promise<string | undefined> {
  return readText(resolve(cwd, file));
}

/** Read and load org.yaml exactly as every command does; prints nothing. */
export async function readAndLoadConfig(
  opts: { cwd: string; file?: string; now?: Date }, probe: ConfigProbe = configProbe,
): Promise<ReadConfigResult> {
  const file = opts.file ?? "org.yaml";
  const absFile = resolve(opts.cwd, file);
  let text: string | undefined;
  try {
    text = await readConfigText(opts.cwd, file);
  } catch (error) {
    return {
      problems: [
        `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}) — check that `
          + `it is a readable file`,
      ],
    };
  }
  if (text === undefined) {
    const where = isAbsolute(file) ? "" : ` in ${opts.cwd}`;
    return { problems: [`${file}: not found${where} — run \`org init\` to create one`] };
  }
  const result = await loadConfig({ file, dir: dirname(absFile), text, now: opts.now }, probe);
  return result.ok ? { loaded: result.loaded } : { problems: result.problems };
}

/** org.yaml's repo as written, for an org.yaml that does not load yet: the demo makes the repo it names. */
export async function readRepoSetting(root: string): Promise<string | undefined> {
  // A missing org.yaml fails here as before: the demo has nothing to go on.
  const raw = parse(await readFile(resolve(root, "org.yaml"), "utf8")) as { repo?: unknown } | null;
  return typeof raw?.repo === "string" ? raw.repo : undefined;
}

/** The metric's name and direction from org.yaml; an unreadable org.yaml falls back to minimizing "metric". */
export async function readMetricSetting(root: string): Promise<{
  goal: Goal; metricName: string; org: string | undefined; pricing: Pricing;
}> {
  const read = await readAndLoadConfig({ cwd: root });
  const config = "loaded" in read ? read.loaded.config : undefined;
  return {
    goal: config?.verify?.metric.goal ?? "minimize", metricName: config?.verify?.metric.name ?? "metric",
    org: config?.name, pricing: config?.pricing ?? {},
  };
}
