import type { Problem } from "./locate.js";
import { SAFE_NAME } from "./schema.js";
import { asMap, type Raw } from "./raw.js";
import { explainUnsafeName } from "./names.js";

/** verify.gates beyond types: each name safe (it becomes a log file's name) and given once (results name the gate). */
export function checkGates(raw: Raw): Problem[] {
  const gates = asMap(raw.verify)?.gates;
  if (!Array.isArray(gates)) return [];
  const problems: Problem[] = [];
  const first = new Map<string, number>();
  gates.forEach((gate: unknown, index) => {
    const name = asMap(gate)?.name;
    if (typeof name !== "string") return;
    const path = ["verify", "gates", index, "name"];
    if (!SAFE_NAME.test(name)) problems.push({ path, ...explainUnsafeName("gate name", name) });
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, index);
    else {
      const message = `gate name "${name}" is used twice (verify.gates[${earlier}] has it too)`;
      problems.push({ path, message, fix: "give each gate a name of its own" });
    }
  });
  return problems;
}
