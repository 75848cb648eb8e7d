/**
 * Whether org.yaml's text may set `contracts`: the key's name in it, or an escape (`\x63`, `\u0063`) that could spell
 * it in a quoted key. When neither is there the section is absent for certain, and `org submit` skips loading the
 * whole config (yaml, zod and the schema: most of an unsandboxed submit's own CPU) to learn that no contract gates it.
 */
export function mayNameContracts(text: string): boolean {
  return text.includes("contracts") || /\\[xuU]/.test(text);
}
