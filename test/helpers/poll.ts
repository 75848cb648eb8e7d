/** Poll until `check` returns a truthy value or the timeout passes; never a bare sleep. */
export async function pollUntil<T>(
  check: () => T | Promise<T>,
  options: {
    timeoutMs?: number;
    intervalMs?: number;
    what?: string;
    /** What to show on a timeout besides the last value: the screen, the events. */
    explain?: () => string;
  } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${options.what ?? "condition"} (last: ` +
          `${JSON.stringify(last)})${options.explain ? `\n${options.explain()}` : ""}`,
      );
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
