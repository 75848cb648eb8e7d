import type { ApiAdapter, ModelRequest, Turn } from "./types.js";

// The Gemini API as Gemini CLI 0.61.0 calls it: a JSON-mode router
// call (generateContent), then streamGenerateContent?alt=sse.
interface Part {
  text?: string;
  thought?: boolean;
  functionCall?: { name: string; args?: unknown };
  functionResponse?: { name: string; response?: unknown };
}
interface Body {
  contents?: { role?: string; parts?: Part[] }[];
  systemInstruction?: { parts?: Part[] } | string;
  tools?: { functionDeclarations?: { name: string }[] }[];
  generationConfig?: { responseJsonSchema?: unknown; responseSchema?: unknown };
}

const textOf = (parts: Part[] | undefined): string =>
  (parts ?? [])
    .filter((part) => part.text !== undefined && !part.thought)
    .map((part) => part.text)
    .join("\n");

function responseText(response: unknown): string {
  const value = response as { output?: unknown; error?: unknown } | undefined;
  const out = value?.output ?? value?.error ?? value;
  return typeof out === "string" ? out : JSON.stringify(out);
}

// Gemini CLI 0.61 sends GEMINI.md and its environment as a part
// of the first user turn: context, not the person's words.
const CONTEXT_PART = /^<session_context>/;

function toTurns(contents: Body["contents"], context: string[]): Turn[] {
  const turns: Turn[] = [];
  for (const content of contents ?? []) {
    const parts = content.parts ?? [];
    if (content.role === "model") {
      turns.push({
        role: "assistant",
        text: textOf(parts),
        calls: parts.flatMap((part) =>
          part.functionCall ? [{ name: part.functionCall.name, args: part.functionCall.args }] : [],
        ),
      });
      continue;
    }
    for (const part of parts)
      if (part.functionResponse) turns.push({ role: "tool", output: responseText(part.functionResponse.response) });
    context.push(...parts.filter((part) => CONTEXT_PART.test(part.text ?? "")).map((part) => part.text!));
    const text = textOf(parts.filter((part) => !CONTEXT_PART.test(part.text ?? "")));
    if (text) turns.push({ role: "user", text });
  }
  return turns;
}

/**
 * The smallest value a JSON schema accepts: the router's answer
 * ({reasoning, model_choice}) without knowing it in advance.
 */
export function sampleOf(schema: unknown): unknown {
  const node = (schema ?? {}) as {
    type?: string | string[];
    enum?: unknown[];
    properties?: Record<string, unknown>;
    items?: unknown;
    anyOf?: unknown[];
  };
  if (node.enum?.length) return node.enum[0];
  if (node.anyOf?.length) return sampleOf(node.anyOf[0]);
  // Gemini's own schemas spell types in capitals (OBJECT, INTEGER).
  const type = (Array.isArray(node.type) ? node.type[0] : node.type)?.toLowerCase();
  if (type === "object" || node.properties)
    return Object.fromEntries(Object.entries(node.properties ?? {}).map(([key, value]) => [key, sampleOf(value)]));
  if (type === "array") return [];
  if (type === "number" || type === "integer") return 0;
  if (type === "boolean") return false;
  return "scripted";
}

export const geminiApi: ApiAdapter = {
  api: "gemini",
  matches: (method, path) =>
    method === "POST" && /^\/v1(beta|alpha)?\/models\/[^/:]+:(stream)?[gG]enerateContent/.test(path),
  parse(path, headers, raw): ModelRequest {
    const body = raw as Body;
    const instruction = body.systemInstruction;
    const context: string[] = [];
    const turns = toTurns(body.contents, context);
    return {
      api: "gemini",
      path,
      headers,
      model: /models\/([^/:]+):/.exec(path)?.[1] ?? "",
      system: [typeof instruction === "string" ? instruction : textOf(instruction?.parts), ...context].join("\n\n"),
      turns,
      tools: (body.tools ?? []).flatMap((tool) =>
        (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
      ),
      stream: path.includes(":streamGenerateContent"),
      jsonSchema: body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema ?? null,
      body,
    };
  },
  shellCall: (_request, command) => ({
    name: "run_shell_command",
    args: { command, description: "Run an org command" },
  }),
  reply(request, move, usage, _ids) {
    const text = move.kind === "text" ? move.text : (move.text ?? "");
    const call = move.kind === "shell" ? this.shellCall(request, move.command) : null;
    const parts: Part[] = [
      ...(text ? [{ text }] : []),
      ...(call ? [{ functionCall: { name: call.name, args: call.args } }] : []),
    ];
    const body = {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: {
        promptTokenCount: usage.input + usage.cacheRead,
        candidatesTokenCount: usage.output,
        totalTokenCount: usage.input + usage.cacheRead + usage.output,
        ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}),
      },
      modelVersion: request.model,
    };
    return request.stream ? { kind: "sse", events: [{ data: body }] } : { kind: "json", body };
  },
  error(status, message) {
    const known: Record<number, string> = {
      429: "RESOURCE_EXHAUSTED",
      401: "UNAUTHENTICATED",
      403: "PERMISSION_DENIED",
      500: "INTERNAL",
      503: "UNAVAILABLE",
    };
    return { error: { code: status, message, status: known[status] ?? "UNKNOWN" } };
  },
};
