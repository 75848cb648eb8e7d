import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { anthropicApi } from "./anthropic.js";
import { chatApi } from "./chat.js";
import { geminiApi, sampleOf } from "./gemini.js";
import { responsesApi } from "./responses.js";
import type { ApiAdapter, Exchange, ModelRequest, Move, Reply, Script, Usage } from "./types.js";

const APIS: ApiAdapter[] = [anthropicApi, responsesApi, chatApi, geminiApi];

export interface ModelServerOptions {
  /** The next move of a request that offers tools: the agent's mind. */
  script: Script;
  /** Side requests (no tools: titles, Gemini's router): a short title, or the JSON its schema asks for. */
  side?: Script;
  /** Tokens each reply reports; by default distinct per request, with cache reads and writes. */
  usage?: (request: ModelRequest, index: number) => Usage;
}

export interface ModelServer {
  url: string;
  exchanges: Exchange[];
  /** Usage summed over every reply that was sent whole. */
  totalUsage(filter?: (exchange: Exchange) => boolean): Usage;
  close(): Promise<void>;
}

export const answerSide: Script = (request) => ({
  kind: "text",
  text: request.jsonSchema ? JSON.stringify(sampleOf(request.jsonSchema)) : "Scripted research",
});

const defaultUsage = (_request: ModelRequest, index: number): Usage => ({
  input: 1000 + 7 * index,
  output: 40 + index,
  cacheRead: 300 + index,
  cacheWrite: 50,
});

/**
 * A scripted model behind every API the four CLIs speak, on 127.0.0.1: each request recorded, each reply's usage exact.
 */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const exchanges: Exchange[] = [];
  const sockets = new Set<Socket>();
  let counter = 0;
  const ids = { next: (prefix: string) => `${prefix}${(++counter).toString().padStart(6, "0")}` };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? "/";
    const raw = await readBody(req);
    const api = APIS.find((candidate) => candidate.matches(req.method ?? "", path));
    // Claude Code may count tokens before a turn; anything else unknown is a 404 the test can see in the log.
    if (!api) {
      if (path.startsWith("/v1/messages/count_tokens")) return sendJson(res, 200, { input_tokens: 1000 });
      return sendJson(res, 404, { error: { message: `scripted model server: no route for ${req.method} ${path}` } });
    }
    const request = api.parse(path, req.headers, raw.length ? JSON.parse(raw) : {});
    const main = request.tools.length > 0;
    const move = (main ? options.script : (options.side ?? answerSide))(request);
    const index = exchanges.length;
    const exchange: Exchange = { at: Date.now(), request, move, usage: null };
    exchanges.push(exchange);
    if (move.kind === "hang") return; // no bytes until the client gives up or the server closes
    if (move.kind === "error") {
      const headers: Record<string, string> =
        move.retryAfterSeconds === undefined ? {} : { "retry-after": String(move.retryAfterSeconds) };
      return sendJson(res, move.status, api.error(move.status, move.message ?? `scripted ${move.status}`), headers);
    }
    if (move.kind === "malformed") {
      res.writeHead(200, { "content-type": request.stream ? "text/event-stream" : "application/json" });
      return void res.end(request.stream ? "data: {not json\n\n" : "{not json");
    }
    const usage = expressible(api.api, (options.usage ?? defaultUsage)(request, index));
    const reply = api.reply(request, move.kind === "cut" ? { kind: "text", text: "cut" } : move, usage, ids);
    if (move.kind === "cut") return cutMidEvent(res, reply);
    writeReply(res, reply);
    exchange.usage = usage;
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    totalUsage(filter = () => true) {
      const sum: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      for (const exchange of exchanges.filter(filter)) {
        if (!exchange.usage) continue;
        for (const key of Object.keys(sum) as (keyof Usage)[]) sum[key] += exchange.usage[key];
      }
      return sum;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// Only Anthropic's API reports cache writes; the others report cached input within their input count.
function expressible(api: ModelRequest["api"], usage: Usage): Usage {
  return api === "anthropic" ? usage : { ...usage, cacheWrite: 0 };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function formatEvents(reply: Extract<Reply, { kind: "sse" }>): string[] {
  const lines = reply.events.map(
    (event) => `${event.event ? `event: ${event.event}\n` : ""}data: ${JSON.stringify(event.data)}\n\n`,
  );
  return reply.done ? [...lines, "data: [DONE]\n\n"] : lines;
}

function writeReply(res: ServerResponse, reply: Reply): void {
  if (reply.kind === "json") return sendJson(res, 200, reply.body);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.end(formatEvents(reply).join(""));
}

/** The stream closed in the middle of an event: the first event whole, half of the next, then the socket dropped. */
function cutMidEvent(res: ServerResponse, reply: Reply): void {
  const events = reply.kind === "sse" ? formatEvents(reply) : [JSON.stringify(reply.body)];
  res.writeHead(200, { "content-type": reply.kind === "sse" ? "text/event-stream" : "application/json" });
  const second = events[1] ?? events[0]!;
  res.write(
    reply.kind === "sse"
      ? `${events[0]}${second.slice(0, Math.floor(second.length / 2))}`
      : second.slice(0, Math.floor(second.length / 2)),
  );
  res.socket?.destroy();
}

export type { Move };
