import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { asMap, type Raw } from "./raw.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Values end up in argv, env, git pathspecs and file names: a NUL byte fits none, and an env name must be a name. */
export function checkProcessStrings(raw: Raw): Problem[] {
  const problems: Problem[] = findNulBytes(raw, []).map((path) => ({
    path,
    at: "key" as const,
    message: `${formatPath(path)} contains a NUL byte, which no program, git path or file name can hold`,
    fix: "remove the \\0 from the value",
  }));
  for (const [name, value] of Object.entries(asMap(raw.runtimes) ?? {})) {
    for (const key of Object.keys(asMap(asMap(value)?.env) ?? {}).filter((key) => !ENV_NAME.test(key))) {
      problems.push({
        path: ["runtimes", name, "env", key],
        at: "key",
        message: `${formatPath(["runtimes", name, "env"])} has ${JSON.stringify(key)}, `
          + `which is not an environment variable name`,
        fix: "use letters, digits and '_', not starting with a digit, e.g. PYTHONUNBUFFERED",
      });
    }
  }
  return problems;
}

function findNulBytes(value: unknown, path: (string | number)[]): (string | number)[][] {
  if (typeof value === "string") return value.includes("\u0000") ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => findNulBytes(item, [...path, index]));
  const map = asMap(value);
  if (!map) return [];
  return Object.entries(map)
    .flatMap(([key, item]) => (key.includes("\u0000") ? [[...path, key]] : findNulBytes(item, [...path, key])));
}
