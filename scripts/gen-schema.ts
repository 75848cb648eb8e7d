// Regenerates org.schema.json from the zod schema: npx tsx scripts/gen-schema.ts
import { writeFileSync } from "node:fs";
import { renderJsonSchema } from "../src/domain/config/json-schema.js";

writeFileSync(new URL("../org.schema.json", import.meta.url), renderJsonSchema());
