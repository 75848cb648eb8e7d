import * as z from "zod";
import { ConfigSchema } from "./schema.js";

/**
 * org.schema.json for editors: the input side of the schema, so keys with defaults are optional.
 * Draft-07 because yaml-language-server and VS Code understand it best.
 */
export function buildJsonSchema(): object {
  return z.toJSONSchema(ConfigSchema, { io: "input", target: "draft-7" });
}

/** The committed file's exact text: two-space JSON and a final newline. */
export function renderJsonSchema(): string {
  return `${JSON.stringify(buildJsonSchema(), null, 2)}\n`;
}
