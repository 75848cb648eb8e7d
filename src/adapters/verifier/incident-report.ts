import type { MessageSettings } from "../../domain/config/index.js";
import { formatIncidentMessage, type Incident } from "../../domain/experiments/incident.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import { readMessageSettings } from "../../domain/messages/mail-port.js";
import { logPath } from "../../domain/paths.js";
import { appendLines, readText } from "../fs/files.js";
import { sendMessage } from "../store/inbox-files.js";

/**
 * Tell each incident once: a log.md entry (searched for by its title, so the daemon and a command that both find it
 * tell it once), a message to every agent for tampering, and a line for the person. Returns those newly told.
 */
export async function reportIncidents(
  opts: {
    state: string; agents: string[]; incidents: Incident[]; say: (line: string) => void; messages?: MessageSettings;
  },
): Promise<Incident[]> {
  if (opts.incidents.length === 0) return [];
  const log = (await readText(logPath(opts.state))) ?? "";
  const told: Incident[] = [];
  for (const incident of opts.incidents) {
    const op = incident.kind === "tampered" ? "tamper" : "recover";
    const entry = formatLogEntry({ date: new Date(), op, title: incident.title, body: incident.body });
    // The heading after its date, to its newline: the same finding on another day is still the same finding.
    if (log.includes(entry.slice(entry.indexOf("] ") + 2, entry.indexOf("\n") + 1))) continue;
    await appendLines(logPath(opts.state), [entry]);
    opts.say(`${op}: ${incident.title}: ${incident.body}`);
    if (incident.kind === "tampered" && opts.agents.length > 0) {
      await sendMessage(
        opts.state,
        { from: "verifier", to: opts.agents, kind: "incident", body: formatIncidentMessage(incident, new Date()) },
        opts.messages ?? readMessageSettings(undefined),
      );
    }
    told.push(incident);
  }
  return told;
}
