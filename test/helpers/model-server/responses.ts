import type { ApiAdapter, ModelRequest, Turn } from "./types.js";

// The OpenAI Responses API as Codex 0.169.0 calls it: POST /v1/responses, SSE.
interface Item {
  type?: string;
  role?: string;
  content?: string | { type: string; text?: string }[];
  name?: string;
  arguments?: string;
  output?: string | { content?: { text?: string }[] } | { text?: string }[];
}
interface Body {
  model?: string;
  instructions?: string;
  input?: Item[] | string;
  tools?: { type: string; name?: string }[];
  stream?: boolean;
}

const textOf = (content: Item["content"]): string =>
  typeof content === "string" ? content : (content ?? []).map((part) => part.text ?? "").join("\n");

function outputText(output: Item["output"]): string {
  if (typeof output === "string") return output;
  const parts = Array.isArray(output) ? output : (output?.content ?? []);
  return parts.map((part) => part.text ?? "").join("\n");
}

function toTurns(input: Body["input"]): { turns: Turn[]; system: string[] } {
  const turns: Turn[] = [];
  const system: string[] = [];
  for (const item of typeof input === "string" ? [{ type: "message", role: "user", content: input }] : (input ?? [])) {
    if (item.type === "function_call" || item.type === "custom_tool_call") {
      const last = turns.at(-1);
      const call = { name: item.name ?? "", args: safeJson(item.arguments) };
      if (last?.role === "assistant") last.calls.push(call);
      else turns.push({ role: "assistant", text: "", calls: [call] });
    } else if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
      turns.push({ role: "tool", output: outputText(item.output) });
    } else if (item.type === "message" || item.role) {
      // Codex sends AGENTS.md and its environment as user messages; it treats them as context, not as a person's turn.
      const context =
        item.role === "user" &&
        /^(# AGENTS\.md instructions for |<environment_context>|<user_instructions>)/.test(textOf(item.content));
      if (item.role === "developer" || item.role === "system" || context) system.push(textOf(item.content));
      else if (item.role === "assistant") turns.push({ role: "assistant", text: textOf(item.content), calls: [] });
      else turns.push({ role: "user", text: textOf(item.content) });
    }
  }
  return { turns, system };
}

function safeJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? "null");
  } catch {
    return text;
  }
}

export const responsesApi: ApiAdapter = {
  api: "responses",
  matches: (method, path) => method === "POST" && /^\/v1\/responses(\?|$)/.test(path),
  parse(path, headers, raw): ModelRequest {
    const body = raw as Body;
    const { turns, system } = toTurns(body.input);
    return {
      api: "responses",
      path,
      headers,
      model: body.model ?? "",
      system: [body.instructions ?? "", ...system].filter(Boolean).join("\n\n"),
      turns,
      tools: (body.tools ?? []).map((tool) => tool.name ?? tool.type),
      stream: body.stream !== false,
      jsonSchema: null,
      body,
    };
  },
  // 0.169's unified exec tool takes one command line; an older `shell` tool takes an argv.
  shellCall: (request, command) =>
    request.tools.includes("exec_command")
      ? { name: "exec_command", args: { cmd: command } }
      : { name: "shell", args: { command: ["bash", "-lc", command] } },
  reply(request, move, usage, ids) {
    const id = ids.next("resp_");
    const items: Record<string, unknown>[] = [];
    const text = move.kind === "text" ? move.text : (move.text ?? "");
    if (text)
      items.push({
        type: "message",
        id: ids.next("msg_"),
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text, annotations: [] }],
      });
    if (move.kind === "shell") {
      const call = this.shellCall(request, move.command);
      items.push({
        type: "function_call",
        id: ids.next("fc_"),
        call_id: ids.next("call_"),
        name: call.name,
        arguments: JSON.stringify(call.args),
        status: "completed",
      });
    }
    const usageBody = {
      input_tokens: usage.input + usage.cacheRead,
      input_tokens_details: { cached_tokens: usage.cacheRead },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input + usage.cacheRead + usage.output,
    };
    const response = {
      id,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      model: request.model,
      status: "completed",
      output: items,
      usage: usageBody,
    };
    if (!request.stream) return { kind: "json", body: response };
    const events: { event: string; data: unknown }[] = [
      {
        event: "response.created",
        data: { type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } },
      },
    ];
    items.forEach((item, index) => {
      const started =
        item.type === "message"
          ? { ...item, status: "in_progress", content: [] }
          : { ...item, status: "in_progress", arguments: "" };
      events.push({
        event: "response.output_item.added",
        data: { type: "response.output_item.added", output_index: index, item: started },
      });
      if (item.type === "message")
        events.push({
          event: "response.output_text.delta",
          data: {
            type: "response.output_text.delta",
            item_id: item.id,
            output_index: index,
            content_index: 0,
            delta: text,
          },
        });
      else
        events.push({
          event: "response.function_call_arguments.delta",
          data: {
            type: "response.function_call_arguments.delta",
            item_id: item.id,
            output_index: index,
            delta: item.arguments,
          },
        });
      events.push({
        event: "response.output_item.done",
        data: { type: "response.output_item.done", output_index: index, item },
      });
    });
    events.push({ event: "response.completed", data: { type: "response.completed", response } });
    return { kind: "sse", events };
  },
  error(status, message) {
    const type = status === 429 ? "rate_limit_exceeded" : status === 401 ? "invalid_api_key" : "server_error";
    return { error: { message, type, code: type, param: null } };
  },
};
