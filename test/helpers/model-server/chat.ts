import type { ApiAdapter, ModelRequest, Turn } from "./types.js";

// OpenAI Chat Completions as opencode 1.18.33 calls it through @ai-sdk/openai-compatible: SSE with stream_options.
interface Message {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
}
interface Body {
  model?: string;
  messages?: Message[];
  tools?: { function?: { name: string } }[];
  stream?: boolean;
}

const textOf = (content: Message["content"]): string =>
  typeof content === "string" ? content : (content ?? []).map((part) => part.text ?? "").join("\n");

function toTurns(messages: Message[]): { turns: Turn[]; system: string[] } {
  const turns: Turn[] = [];
  const system: string[] = [];
  for (const message of messages) {
    if (message.role === "system" || message.role === "developer") system.push(textOf(message.content));
    else if (message.role === "assistant") {
      const calls = (message.tool_calls ?? []).map((call) => ({
        name: call.function.name,
        args: parseArgs(call.function.arguments),
      }));
      turns.push({ role: "assistant", text: textOf(message.content), calls });
    } else if (message.role === "tool") turns.push({ role: "tool", output: textOf(message.content) });
    else turns.push({ role: "user", text: textOf(message.content) });
  }
  return { turns, system };
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const chatApi: ApiAdapter = {
  api: "chat",
  matches: (method, path) => method === "POST" && /^\/v1\/chat\/completions(\?|$)/.test(path),
  parse(path, headers, raw): ModelRequest {
    const body = raw as Body;
    const { turns, system } = toTurns(body.messages ?? []);
    return {
      api: "chat",
      path,
      headers,
      model: body.model ?? "",
      system: system.join("\n\n"),
      turns,
      tools: (body.tools ?? []).map((tool) => tool.function?.name ?? ""),
      stream: body.stream === true,
      jsonSchema: null,
      body,
    };
  },
  shellCall: (_request, command) => ({ name: "bash", args: { command, description: "Run an org command" } }),
  reply(request, move, usage, ids) {
    const id = ids.next("chatcmpl-");
    const created = Math.floor(Date.now() / 1000);
    const text = move.kind === "text" ? move.text : (move.text ?? "");
    const call = move.kind === "shell" ? this.shellCall(request, move.command) : null;
    const toolCalls = call
      ? [
          {
            index: 0,
            id: ids.next("call_"),
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          },
        ]
      : undefined;
    const finish = call ? "tool_calls" : "stop";
    const usageBody = {
      prompt_tokens: usage.input + usage.cacheRead,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.cacheRead + usage.output,
      prompt_tokens_details: { cached_tokens: usage.cacheRead },
    };
    if (!request.stream) {
      const message = {
        role: "assistant",
        content: text || null,
        ...(toolCalls ? { tool_calls: toolCalls.map(({ index: _index, ...rest }) => rest) } : {}),
      };
      return {
        kind: "json",
        body: {
          id,
          object: "chat.completion",
          created,
          model: request.model,
          choices: [{ index: 0, message, finish_reason: finish }],
          usage: usageBody,
        },
      };
    }
    const chunk = (choices: unknown[], extra: object = {}) => ({
      data: { id, object: "chat.completion.chunk", created, model: request.model, choices, ...extra },
    });
    const events = [chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
    if (text) events.push(chunk([{ index: 0, delta: { content: text }, finish_reason: null }]));
    if (toolCalls) events.push(chunk([{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: null }]));
    events.push(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
    events.push(chunk([], { usage: usageBody }));
    return { kind: "sse", events, done: true };
  },
  error(status, message) {
    const type = status === 429 ? "rate_limit_exceeded" : status === 401 ? "invalid_api_key" : "server_error";
    return { error: { message, type, code: type, param: null } };
  },
};
