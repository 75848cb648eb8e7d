import { watch, type FSWatcher } from "node:fs";
import { dirname, join } from "node:path";

const DEBOUNCE_MS = 200;

/**
 * Calls `onChange` once per burst of saves to any watched file, `debounceMs` after the last. It watches the
 * files' folders, not the files: editors save by writing a new file and renaming it over the old one.
 */
export class ConfigWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private files = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly onChange: () => void,
    private readonly debounceMs = DEBOUNCE_MS,
  ) {}

  /** Watch exactly these absolute paths from now on. */
  watch(files: string[]): void {
    this.files = new Set(files);
    const dirs = new Set(files.map((file) => dirname(file)));
    for (const [dir, watcher] of this.watchers) {
      if (dirs.has(dir)) continue;
      watcher.close();
      this.watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: false }, (_event, name) => this.notice(dir, name));
        // A folder deleted under us stops its watcher; the next watch() call starts it again.
        watcher.on("error", () => this.watchers.delete(dir));
        this.watchers.set(dir, watcher);
      } catch {
        // A prompt folder that does not exist yet: validation reports the missing prompt.
      }
    }
  }

  close(): void {
    clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private notice(dir: string, name: string | Buffer | null): void {
    // No name (some platforms): assume it was ours.
    if (name !== null && !this.files.has(join(dir, name.toString()))) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onChange, this.debounceMs);
  }
}
