// A saved program read back and checked as a save of org.yaml would be, before anything of the org's is written.
import { join, relative, resolve } from "node:path";
import { loadConfig, type ConfigProbe, type LoadedConfig } from "../../domain/config/index.js";
import { normalizePromptPath } from "../../domain/config-versions/version.js";
import { configProbe } from "../probes/config.js";
import { writeFileAtomic } from "../fs/files.js";
import type { SavedCopy } from "./programs.js";

export type SavedLoad =
  | {
    ok: true; loaded: LoadedConfig; readPrompt: (prompt: string) => Promise<string | undefined>;
    write: () => Promise<string[]>;
  }
  | { ok: false; problems: string[] };

/**
 * Load a saved version as if its org.yaml stood in the org folder: repo and base resolve from there, the
 * prompts it names from the saved copies (so a prompt deleted from the org since is no problem).
 * Problems read `state/programs/<v>/org.yaml:L:C`.
 */
export async function loadSavedProgram(root: string, copy: SavedCopy): Promise<SavedLoad> {
  const label = relative(root, join(copy.dir, "org.yaml"));
  if (copy.orgYaml === undefined) return {
    ok: false,
    problems: [
      `${label}: missing from the saved copy — this version cannot be restored; pick another one (\`org history\`)`,
    ],
  };
  const gone = Object.entries(copy.prompts)
    .filter(([, text]) => text === undefined)
    .map(([path]) => `${relative(root, join(copy.dir, copy.meta.prompts[path]!))}: the saved copy of ${path} is `
      + `missing — this version cannot be restored as it ran; pick another one (\`org history\`)`);
  if (gone.length > 0) return { ok: false, problems: gone };
  const saved = new Map(Object.entries(copy.prompts).map(([path, text]) => [resolve(root, path), text!]));
  const probe: ConfigProbe = { ...configProbe, exists: async (path) => saved.has(path) || configProbe.exists(path) };
  const result = await loadConfig({ file: label, dir: root, text: copy.orgYaml }, probe);
  if (!result.ok) return result;
  const orgYaml = copy.orgYaml;
  return {
    ok: true,
    loaded: result.loaded,
    readPrompt: async (prompt) => copy.prompts[normalizePromptPath(prompt)],
    // org.yaml and every prompt it names, as saved; a prompt deleted since comes back.
    write: async () => {
      for (const [path, text] of saved) await writeFileAtomic(path, text);
      await writeFileAtomic(join(root, "org.yaml"), orgYaml);
      return [...Object.keys(copy.prompts)].sort();
    },
  };
}
