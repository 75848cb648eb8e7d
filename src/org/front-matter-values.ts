/** One front-matter value as written: plain when YAML and a person read it back the same; anything else in JSON quotes. */
export function quoteValue(value: string): string {
  return /^[\w.:+-]+$/.test(value) ? value : JSON.stringify(value);
}

/** One front-matter value as read: plain, or JSON-quoted; undefined when the quotes do not parse. */
export function unquote(raw: string): string | undefined {
  const value = raw.trim();
  if (!value.startsWith('"')) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}
