/** A port call started early; a failure surfaces where the experiment awaits it, never as an unhandled rejection. */
export function startEarly<T>(call: Promise<T>): Promise<T> {
  call.catch(() => undefined);
  return call;
}
