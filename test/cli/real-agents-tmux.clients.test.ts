import { describeRealAgents } from "../helpers/real-agents-suite.js";

// One file per pane mode (the other is real-agents-pty.clients), so the two run side by side; this one's CLIs are
// rate-limited (429) at their start, which the same starts then cover.
describeRealAgents("tmux", true);
