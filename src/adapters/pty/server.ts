import { chmod, unlink } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { OrgError } from "../../domain/errors.js";
import type { PtyHost } from "./host.js";
import { LineReader, MAX_REQUEST_BYTES } from "./lines.js";
import { parseRequest, type PtyReply, type PtyRequest } from "./protocol.js";

/** What the socket may ask of the host. */
export type PtyControl = Pick<
  PtyHost,
  "listPanes" | "open" | "remove" | "setOptions" | "screen" | "cursor" | "history" | "write" | "paste" | "resize"
  | "respawn"
>;

export interface PtyServer {
  readonly path: string;
  close(): Promise<void>;
}

// Linux's sun_path holds 107 bytes plus the terminating NUL.
const MAX_SOCKET_PATH = 107;
const MAX_CLIENTS = 32;
// A client that sends without reading its replies is cut off rather than buffered without end.
const MAX_UNREAD_REPLY_BYTES = 16 * 1024 * 1024;
const MAX_QUEUED_REQUESTS = 1000;

/** Serves `host` on a unix socket only this user may open (mode 0600); a stale socket file is replaced. */
export async function startPtyServer(host: PtyControl, path: string, onShutdown?: () => void): Promise<PtyServer> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH)
    throw new OrgError(
      `the pty socket path ${path} is longer than ${MAX_SOCKET_PATH} bytes — move the org to a shorter folder`,
      "pty",
    );
  await removeStaleSocket(path);
  const clients = new Set<Socket>();
  const server = createServer((socket) => {
    if (clients.size >= MAX_CLIENTS) {
      socket.end(
        `${JSON.stringify({ ok: false, error: `too many clients (${MAX_CLIENTS}) — close another org watch` })}\n`,
      );
      return;
    }
    clients.add(socket);
    socket.on("close", () => clients.delete(socket));
    serveConnection(host, socket, onShutdown);
  });
  const listening = new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.once("listening", resolve);
  });
  // Node binds synchronously inside listen(): the owner-only umask covers the bind and nothing else of ours.
  const umask = process.umask(0o177);
  try {
    server.listen(path);
  } finally {
    process.umask(umask);
  }
  await listening;
  await chmod(path, 0o600);
  return {
    path,
    close: () => closeServer(server, clients, path),
  };
}

function serveConnection(host: PtyControl, socket: Socket, onShutdown: (() => void) | undefined): void {
  socket.setEncoding("utf8");
  // Replies go in request order even when a slow respawn is answered after a quick screen.
  let queue = Promise.resolve();
  let queued = 0;
  const send = (reply: PtyReply) => {
    if (socket.destroyed) return;
    if (socket.writableLength > MAX_UNREAD_REPLY_BYTES) return void socket.destroy();
    socket.write(`${JSON.stringify(reply)}\n`);
  };
  const reader = new LineReader(MAX_REQUEST_BYTES, (line) => {
    if (++queued > MAX_QUEUED_REQUESTS) return void socket.destroy();
    const parsed = parseRequest(line);
    queue = queue.then(async () => {
      queued--;
      if (!("request" in parsed))
        return send({ ok: false, error: parsed.error, ...(parsed.id === undefined ? {} : { id: parsed.id }) });
      if (parsed.request.op !== "shutdown") return send(await answer(host, parsed.request));
      const id = parsed.request.id === undefined ? {} : { id: parsed.request.id };
      if (!onShutdown)
        return send({
          ...id,
          ok: false,
          error: "this pty host is not shut down over its socket — stop the process that runs it",
        });
      // Answered first: the caller then waits for the connection to close, which the shutdown does last.
      send({ ...id, ok: true });
      onShutdown();
    });
  }, () => {
    send({ ok: false, error: `request longer than ${MAX_REQUEST_BYTES} bytes — split the keys into smaller writes` });
    socket.end();
  });
  socket.on("data", (chunk: string) => reader.push(chunk));
  socket.on("error", () => socket.destroy());
}

/** Runs one request; a failure is a reply, never a crash of the host. */
export async function answer(host: PtyControl, request: Exclude<PtyRequest, { op: "shutdown" }>): Promise<PtyReply> {
  const id = request.id === undefined ? {} : { id: request.id };
  try {
    switch (request.op) {
      case "list":
        return { ...id, ok: true, panes: await host.listPanes() };
      case "screen":
        return {
          ...id,
          ok: true,
          lines: host.screen(request.pane, { attributes: request.attributes ?? false }),
          cursor: host.cursor(request.pane),
          history: host.history(request.pane),
        };
      case "keys":
        if (request.paste) host.paste(request.pane, request.data);
        else host.write(request.pane, request.data);
        return { ...id, ok: true };
      case "resize":
        host.resize(request.pane, request.cols, request.rows);
        return { ...id, ok: true };
      case "respawn":
        await host.respawn(request.pane, request.launch);
        return { ...id, ok: true };
      case "open": {
        const ids: string[] = [];
        for (const pane of request.panes) ids.push(await host.open(pane));
        return { ...id, ok: true, ids };
      }
      case "kill":
        await Promise.all(request.panes.map((pane) => host.remove(pane)));
        return { ...id, ok: true };
      case "options":
        host.setOptions(request.pane, request.options);
        return { ...id, ok: true };
    }
  } catch (error) {
    return { ...id, ok: false, error: (error as Error).message };
  }
}

async function removeStaleSocket(path: string): Promise<void> {
  const live = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once("connect", () => (probe.destroy(), resolve(true)));
    probe.once("error", () => resolve(false));
  });
  if (live) throw new OrgError(`another pty host is serving ${path} — stop that org first (org down)`, "pty");
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

async function closeServer(server: Server, clients: Set<Socket>, path: string): Promise<void> {
  for (const client of clients) client.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await unlink(path).catch(() => undefined);
}
