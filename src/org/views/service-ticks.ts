import type { FilesPort } from "../ports.js";

/** When one daemon service last ticked and how late that tick ran against its period; null until its first tick. */
export interface ServiceTick {
  name: string;
  lastTickAt: string | null;
  lagMs: number | null;
}

/** The services daemon.json lists: none while the daemon has not beaten yet, or when the file does not parse. */
export async function readServiceTicks(files: Pick<FilesPort, "readText">, daemonFile: string): Promise<ServiceTick[]> {
  const text = await files.readText(daemonFile).catch(() => undefined);
  return parseServiceTicks(text);
}

function parseServiceTicks(text: string | undefined): ServiceTick[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text) as { services?: unknown } | null;
    return Array.isArray(value?.services) ? value.services.filter(isServiceTick) : [];
  } catch {
    return [];
  }
}

function isServiceTick(value: unknown): value is ServiceTick {
  const tick = value as Partial<ServiceTick> | null;
  return typeof tick?.name === "string" && (tick.lastTickAt === null || typeof tick.lastTickAt === "string") && (tick.lagMs === null || typeof tick.lagMs === "number");
}
