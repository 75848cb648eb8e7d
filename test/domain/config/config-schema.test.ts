import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildJsonSchema } from "../../../src/domain/config/index.js";
import { renderJsonSchema } from "../../../src/domain/config/json-schema.js";

describe("org.schema.json", () => {
  it("is the committed output of buildJsonSchema()", () => {
    const committed = readFileSync(new URL("../../../org.schema.json", import.meta.url), "utf8");
    expect(committed, "org.schema.json is stale: regenerate it with `npx tsx scripts/gen-schema.ts`").toBe(
      `${JSON.stringify(buildJsonSchema(), null, 2)}\n`,
    );
    expect(renderJsonSchema()).toBe(committed);
  });

  it("describes the input side: defaults optional, unknown keys refused, documented", () => {
    const schema = buildJsonSchema() as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { description?: string }>;
    };
    expect(schema.required).toEqual(["roles"]);
    expect(schema.additionalProperties).toBe(false);
    for (const [key, property] of Object.entries(schema.properties)) expect(property.description, key).toBeTruthy();
  });
});
