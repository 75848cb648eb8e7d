import type { ApiAdapter, ModelRequest, Turn } from "./types.js";

// The Anthropic Messages API as Claude Code 2.1.328 calls it: POST /v1/messages?beta=true, SSE.
interface Block {
  type: string;
  id?: string;
  text?: string;
  name?: string;
  input?: unknown;
  content?: string | Block[];
}
interface Body {
  model?: string;
  system?: string | Block[];
  messages?: { role: string; content: string | Block[] }[];
  tools?: { name: string }[];
  stream?: boolean;
}

const textOf = (content: string | Block[] | undefined): string =>
  typeof content === "string"
    ? content
    : (content ?? []).map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("\n");

function toTurns(messages: Body["messages"]): { turns: Turn[]; system: string[] } {
  const turns: Turn[] = [];
  const system: string[] = [];
  for (const message of messages ?? []) {
    const blocks: Block[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    // Claude Code may put a system message among the messages.
    if (message.role === "system") system.push(textOf(blocks));
    else if (message.role === "assistant") {
      const calls = blocks
        .filter((block) => block.type === "tool_use")
        .map((block) => ({ name: block.name ?? "", args: block.input }));
      turns.push({ role: "assistant", text: textOf(blocks), calls });
    } else {
      const results = blocks.filter((block) => block.type === "tool_result");
      for (const block of results) turns.push({ role: "tool", output: textOf(block.content) });
      // Text beside a tool result is Claude Code's own system reminder, not a person's turn.
      const text = results.length ? "" : textOf(blocks.filter((block) => block.type === "text"));
      if (text) turns.push({ role: "user", text });
    }
  }
  return { turns, system };
}

export const anthropicApi: ApiAdapter = {
  api: "anthropic",
  matches: (method, path) => method === "POST" && /^\/v1\/messages(\?|$)/.test(path),
  parse(path, headers, raw): ModelRequest {
    const body = raw as Body;
    const { turns, system } = toTurns(body.messages);
    return {
      api: "anthropic",
      path,
      headers,
      model: body.model ?? "",
      system: [textOf(typeof body.system === "string" ? body.system : body.system), ...system].join("\n\n"),
      turns,
      tools: (body.tools ?? []).map((tool) => tool.name),
      stream: body.stream === true,
      jsonSchema: null,
      body,
    };
  },
  shellCall: (_request, command) => ({ name: "Bash", args: { command, description: "Run an org command" } }),
  reply(request, move, usage, ids) {
    const id = ids.next("msg_");
    const call = move.kind === "shell" ? this.shellCall(request, move.command) : null;
    const text = move.kind === "text" ? move.text : (move.text ?? "");
    const content: Block[] = [
      ...(text ? [{ type: "text", text }] : []),
      ...(call ? [{ type: "tool_use", id: ids.next("toolu_"), name: call.name, input: call.args }] : []),
    ];
    const stopReason = move.kind === "shell" ? "tool_use" : "end_turn";
    const startUsage = {
      input_tokens: usage.input,
      output_tokens: 1,
      cache_creation_input_tokens: usage.cacheWrite,
      cache_read_input_tokens: usage.cacheRead,
    };
    if (!request.stream) {
      return {
        kind: "json",
        body: {
          id,
          type: "message",
          role: "assistant",
          model: request.model,
          content,
          stop_reason: stopReason,
          stop_sequence: null,
          usage: { ...startUsage, output_tokens: usage.output },
        },
      };
    }
    const events: { event: string; data: unknown }[] = [
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id,
            type: "message",
            role: "assistant",
            model: request.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: startUsage,
          },
        },
      },
    ];
    content.forEach((block, index) => {
      if (block.type === "text") {
        events.push({
          event: "content_block_start",
          data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
        });
        events.push({
          event: "content_block_delta",
          data: { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } },
        });
      } else {
        const { input, ...start } = block;
        events.push({
          event: "content_block_start",
          data: { type: "content_block_start", index, content_block: { ...start, input: {} } },
        });
        events.push({
          event: "content_block_delta",
          data: {
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: JSON.stringify(input) },
          },
        });
      }
      events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    });
    events.push({
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
    });
    events.push({ event: "message_stop", data: { type: "message_stop" } });
    return { kind: "sse", events };
  },
  error(status, message) {
    const type =
      status === 429
        ? "rate_limit_error"
        : status === 401
          ? "authentication_error"
          : status === 529
            ? "overloaded_error"
            : "api_error";
    return { type: "error", error: { type, message } };
  },
};
