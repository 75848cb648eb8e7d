import { PtyClient } from "./client.js";

// While the host is down, a connection is tried at most this often rather than on every look.
const RETRY_MS = 1000;

/**
 * One standing connection to an org's pty host (state/pty.sock), made on first use and made again after it
 * drops: the daemon's supervisor, screen watch and notifier, and the dashboard, each hold one.
 */
export class PtyConnection {
  private client: PtyClient | undefined;
  private connecting: Promise<PtyClient | undefined> | undefined;
  private failedAt = -Infinity;
  private generation = 0;

  constructor(readonly path: string) {}

  /** The connected client, or undefined while the host cannot be reached. */
  get(): Promise<PtyClient | undefined> {
    if (this.client && !this.client.isClosed) return Promise.resolve(this.client);
    this.client = undefined;
    if (this.connecting) return this.connecting;
    if (Date.now() - this.failedAt < RETRY_MS) return Promise.resolve(undefined);
    const generation = this.generation;
    // Callers that overlap share one attempt: two connections would each hold one of the host's client slots.
    const attempt = PtyClient.connect(this.path).then(
      (client) => {
        // Closed while connecting: a socket kept open here would keep its process from exiting.
        if (generation !== this.generation) return void client.close();
        return (this.client = client);
      },
      () => ((this.failedAt = Date.now()), undefined),
    );
    this.connecting = attempt;
    void attempt.then(() => this.connecting === attempt && (this.connecting = undefined));
    return attempt;
  }

  /** Lets go of the connection; a later get() connects again. */
  close(): void {
    this.generation++;
    this.connecting = undefined;
    this.client?.close();
    this.client = undefined;
  }
}
