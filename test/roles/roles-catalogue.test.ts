import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { ConfigSchema } from "../../src/domain/config/schema.js";
import { checkMetaEdit, isMetaRole } from "../../src/domain/reconcile/index.js";
import {
  findKindByPrompt, listRoles, readRole, readTopology, renderTemplate, ROLE_KINDS, TEMPLATES,
} from "../../src/roles/index.js";
import { PACKAGE_ROOT } from "../helpers/org-cli.js";

const PROMPT_FILES = readdirSync(join(PACKAGE_ROOT, "prompts")).sort();

describe("the role catalogue", () => {
  test("every file in prompts/ belongs to exactly one kind, and every kind's prompt file exists", () => {
    for (const file of PROMPT_FILES) {
      expect(listRoles().filter((role) => role.prompt === file).map((role) => role.kind), file).toHaveLength(1);
      expect(findKindByPrompt(file), file).toBeDefined();
    }
    const named = listRoles().flatMap((role) => (role.prompt === undefined ? [] : [role.prompt]));
    expect(named.sort()).toEqual(PROMPT_FILES);
  });

  test("one entry per kind, each under its own name; only meta has no prompt or wiring", () => {
    expect(listRoles().map((role) => role.kind)).toEqual([...ROLE_KINDS]);
    for (const role of listRoles()) {
      expect(role.summary.length, role.kind).toBeGreaterThan(0);
      expect(role.prompt === undefined, role.kind).toBe(role.kind === "meta");
      if (role.wiring !== undefined) expect(role.wiring, role.kind).toContain(`    prompt: prompts/${role.prompt}\n`);
    }
  });

  test.each(TEMPLATES)("%s ships exactly the prompt files of its kinds, the ones its org.yaml names", (name) => {
    const template = renderTemplate(name, { schema: "org.schema.json", gpus: 2 });
    const kinds = readTopology(name).kinds;
    expect(template.prompts).toEqual(kinds.map((kind) => readRole(kind).prompt));
    const roles = (parse(template.orgYaml) as { roles: Record<string, { prompt: string }> }).roles;
    expect(Object.values(roles).map((role) => role.prompt)).toEqual(template.prompts.map((file) => `prompts/${file}`));
    expect(template.prompts.map(findKindByPrompt)).toEqual(kinds);
  });
});

describe("the meta kind", () => {
  const config = ConfigSchema.parse({
    runtimes: { idle: { command: ["forever"] } },
    roles: {
      researcher: { prompt: "prompts/researcher.md", runtime: "idle", edits: ["train.py"] },
      meta: { prompt: "prompts/meta.md", runtime: "idle", edits: [...readRole("meta").edits] },
    },
  });

  test("its edits default makes a role meta", () => {
    expect(isMetaRole(config, "meta")).toBe(true);
    expect(
      checkMetaEdit({
        agent: "meta-1",
        role: "meta",
        config,
        changed: ["org.yaml", "prompts/researcher.md"],
        verifyChanged: false,
      }),
    ).toEqual({ ok: true });
  });

  test("the fix a non-meta role is shown names the catalogue's edits, word for word as before", () => {
    expect(
      checkMetaEdit({ agent: "researcher-1", role: "researcher", config, changed: [], verifyChanged: false }),
    ).toEqual({
      ok: false,
      reason: `researcher-1's role researcher may not change the org: its edits [train.py] name neither org.yaml nor ` +
        `a prompt — a meta role lists them, e.g. edits: [org.yaml, "prompts/**"]`,
    });
  });
});
