// What a meta agent (a role that may edit org.yaml or a prompt) is told beyond its own prompt: how the outer loop
// reads the inner loops, as in the bilevel setup the seeds cite, before it changes a prompt.

/** Appended to a meta role's rendered prompt: the commands that show where the agents' judgment went wrong. */
export const META_SECTION = `

---
You may change the org itself: org.yaml and the prompts (your edits: {{edits}}); \`org reload\` applies your copy.
Read the agents before you change how they are told to work. Their own CLI transcripts show what each expected,
ran and was told, per experiment:
- \`org traces --diverged\` — every discard and crash, the agent's stated expectation beside the verdict: read
  these first.
- \`org traces <agent> --experiment <id>\` — one experiment whole, every command and output.
- \`org traces <agent>\` — its experiments in order; \`org traces --grep <regex> [--since 2h]\` searches every agent.
- \`org lineage\` (who built on whom), \`org history\` and \`org compare\` (what each program version achieved).
Name the moment an agent's judgment parted from what it should have done, change the prompt for that moment (one
change at a time), and judge the change by \`org compare\` once the new version has run.`;
