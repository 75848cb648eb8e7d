import type { IncomingHttpHeaders } from "node:http";

/** Which model API a request came in by. */
export type ApiName = "anthropic" | "responses" | "chat" | "gemini";

/** One turn of the conversation a CLI sent, the same whatever its API. */
export type Turn =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; calls: { name: string; args: unknown }[] }
  | { role: "tool"; output: string };

/** A request as the script sees it: the API's own shape reduced to what a researcher's mind needs. */
export interface ModelRequest {
  api: ApiName;
  path: string;
  headers: IncomingHttpHeaders;
  model: string;
  /** Every system, developer and instructions text, joined by blank lines. */
  system: string;
  turns: Turn[];
  /** Names of the tools the CLI offered; empty for its side requests (titles, routing). */
  tools: string[];
  stream: boolean;
  /** A JSON schema the reply must follow (Gemini's router call), or null. */
  jsonSchema: unknown;
  body: unknown;
}

/** Token counts of one reply: what the server says it spent, the truth org's counts are checked against. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** What the model does next. */
export type Move =
  | { kind: "text"; text: string }
  | { kind: "shell"; command: string; text?: string }
  | { kind: "error"; status: number; message?: string; retryAfterSeconds?: number }
  | { kind: "hang" }
  | { kind: "cut" }
  | { kind: "malformed" };

/** Chooses the next move from what a request holds. */
export type Script = (request: ModelRequest) => Move;

/** One request and what was answered, in arrival order. */
export interface Exchange {
  at: number;
  request: ModelRequest;
  move: Move;
  usage: Usage | null;
}

/** Renders a move in one API's wire format. */
export interface ApiAdapter {
  api: ApiName;
  matches(method: string, path: string): boolean;
  parse(path: string, headers: IncomingHttpHeaders, body: unknown): ModelRequest;
  /** The shell tool's call for a command, given the tools offered. */
  shellCall(request: ModelRequest, command: string): { name: string; args: unknown };
  reply(request: ModelRequest, move: Extract<Move, { kind: "text" | "shell" }>, usage: Usage, ids: IdSource): Reply;
  error(status: number, message: string): unknown;
}

export interface IdSource {
  next(prefix: string): string;
}

/** A whole reply: JSON, or SSE events written one by one. */
export type Reply =
  { kind: "json"; body: unknown } | { kind: "sse"; events: { event?: string; data: unknown }[]; done?: boolean };
