/** Poll until `check` returns a truthy value or the timeout passes; never a bare sleep. */
export async function pollUntil<T>(check: () => T | Promise<T>, options: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? "condition"} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
