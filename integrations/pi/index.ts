// Herald's Pi extension (`pi -e integrations/pi/index.ts`, or listed in Pi's settings). It reports
// each finished exchange to Herald and, in the root TUI, shows the session's shared label as the
// terminal title. The rules live in label-state.ts, branch.ts and read-schedule.ts; this file only
// wires them to Pi's events.
//
// Pi runs sub-agents and scripts in print or JSON mode, where `ctx.hasUI` is false: their turns are
// internal to the session that started them, so only a UI (the interactive TUI, or an RPC client
// such as an editor) reports. The label consumer (the metadata reads, the session's name and the
// terminal title) runs only in the root TUI: RPC mode has `hasUI` too, but no terminal of its own
// to title; the TUI is the one mode where Pi's stdout is the terminal.
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { OnceWarner, REPORT_TIMEOUT_MS, reportExchange, reporterConfig } from "../shared/report-exchange.ts";
import { type AssistantSource, terminalAssistant } from "./branch.ts";
import {
  decideSnapshot,
  type Generations,
  namingOwnership,
  ownAppendedRow,
  parseMetadata,
  type Provenance,
  PROVENANCE_TYPE,
  PROVENANCE_VERSION,
  sessionInfoRows,
} from "./label-state.ts";
import { metadataCommandFrom, readMetadata } from "./metadata-command.ts";
import { readRemoteMetadata, remoteMetadataFrom } from "./metadata-http.ts";
import { watchSessionFile } from "./name-watch.ts";
import { ReadSchedule, type Timers } from "./read-schedule.ts";

// A pending read never keeps Pi alive on exit.
const unrefTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Whether this is Pi's interactive TUI on a terminal (not RPC, print or JSON mode). */
export function isRootTui(ctx: Pick<ExtensionContext, "hasUI">, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return ctx.hasUI && stdout.isTTY === true;
}

export default function herald(pi: ExtensionAPI): void {
  const warner = new OnceWarner("herald");
  // Said once for the process: nothing resets a missing command or a store Pi cannot write to.
  const localWarner = new OnceWarner("herald");
  const config = reporterConfig();
  const command = metadataCommandFrom();
  // A remote Herald (no local store for `herald session-metadata`) is asked over HTTP instead.
  const remote = remoteMetadataFrom();
  const schedule = new ReadSchedule(unrefTimers);
  const reports = new Set<Promise<unknown>>();
  // Bumped by every cancellation, so a report that settles later starts no stale schedule.
  let epoch = 0;
  let shownTitle: string | null = null;

  let stopWatching = () => undefined as void;

  const cancel = () => {
    epoch++;
    schedule.cancel();
    stopWatching();
  };

  const sameSource = (ctx: ExtensionContext, sessionId: string, source: AssistantSource) =>
    ctx.sessionManager.getSessionId() === sessionId && terminalAssistant(ctx.sessionManager.getBranch())?.entryId === source.entryId;

  const persist = (record: Provenance): boolean => {
    try {
      pi.appendEntry(PROVENANCE_TYPE, record);
      return true;
    } catch (error) {
      localWarner.warn("provenance", `could not record the session label's provenance (${(error as Error).message})`);
      return false;
    }
  };

  /** Names the session and titles the terminal; "stop" when the name is not ours to set. */
  const apply = (ctx: ExtensionContext, sessionId: string, label: string, generations: Generations): "continue" | "stop" => {
    const ownership = namingOwnership(ctx.sessionManager.getEntries(), sessionId);
    if (ownership.kind === "manual") return "stop";
    if (ownership.kind === "automatic" && ownership.provenance.label === label) {
      // Same name: a fork records its own session on its first result; newer generations move the baseline.
      const base = ownership.baseline;
      if (!base || base.sourceGeneration !== generations.sourceGeneration || base.labelGeneration !== generations.labelGeneration) {
        if (!persist({ ...ownership.provenance, sessionId, ...generations })) return "stop";
      }
    } else {
      const before = sessionInfoRows(ctx.sessionManager.getEntries());
      pi.setSessionName(label);
      const row = ownAppendedRow(before, sessionInfoRows(ctx.sessionManager.getEntries()), label);
      // Anything but our one row (a reentrant /name, even with the same text) stays manual.
      if (!row) return "stop";
      if (!persist({ v: PROVENANCE_VERSION, sessionId, sessionInfoId: row.id, label, ...generations })) return "stop";
    }
    if (shownTitle !== label) {
      ctx.ui.setTitle(label);
      shownTitle = label;
    }
    return "continue";
  };

  const consume = (ctx: ExtensionContext, source: AssistantSource) => {
    const sessionId = ctx.sessionManager.getSessionId();
    stopWatching();
    // A name given by hand meanwhile ends the schedule at once, the helper in flight included.
    stopWatching = watchSessionFile(ctx.sessionManager.getSessionFile(), () => {
      try {
        if (namingOwnership(ctx.sessionManager.getEntries(), sessionId).kind === "manual") cancel();
      } catch {
        cancel();
      }
    });
    schedule.start(async (signal) => {
      try {
        if (!sameSource(ctx, sessionId, source) || namingOwnership(ctx.sessionManager.getEntries(), sessionId).kind === "manual") return "stop";
        const stdout = remote
          ? await readRemoteMetadata(remote, sessionId, signal)
          : await readMetadata(command, sessionId, signal, (error) =>
              localWarner.warn("metadata", `could not run \`${command.bin} session-metadata\` for the session label (${error.message}); set HERALD_BIN`),
            );
        const metadata = stdout === null ? null : parseMetadata(stdout);
        if (signal.aborted || !metadata) return "continue";
        // The helper took time: the session, the branch or the name may have changed meanwhile.
        if (!sameSource(ctx, sessionId, source)) return "stop";
        const ownership = namingOwnership(ctx.sessionManager.getEntries(), sessionId);
        if (ownership.kind === "manual") return "stop";
        const decision = decideSnapshot(metadata, { sessionId, completionId: source.entryId }, ownership.kind === "automatic" ? ownership.baseline : null);
        if (decision.kind === "skip") return "continue";
        return apply(ctx, sessionId, decision.label, decision.generations);
      } catch {
        // A context made stale by a session replacement throws: this schedule is over.
        return "stop";
      }
    });
  };

  pi.on("session_start", (_event, ctx) => {
    cancel();
    shownTitle = null;
    if (!isRootTui(ctx)) return;
    // A resumed or forked session shows its label again; nothing is reported for it.
    const source = terminalAssistant(ctx.sessionManager.getBranch());
    if (source) consume(ctx, source);
  });

  pi.on("agent_start", () => cancel());
  pi.on("session_before_switch", () => cancel());
  pi.on("session_before_fork", () => cancel());
  pi.on("session_before_tree", () => cancel());
  pi.on("session_tree", () => cancel());

  pi.on("agent_end", (_event, ctx) => {
    cancel();
    if (!ctx.hasUI) return;
    const source = terminalAssistant(ctx.sessionManager.getBranch());
    if (!source) return;
    const started = epoch;
    const report = reportExchange(
      {
        harness: "pi",
        sessionId: ctx.sessionManager.getSessionId(),
        completionId: source.entryId,
        cwd: ctx.cwd,
        userText: source.userText,
        assistantText: source.assistantText,
      },
      config,
      warner,
    );
    reports.add(report);
    // Not awaited: the agent is free at once. The reads start once the report has landed.
    void report.finally(() => {
      reports.delete(report);
      if (epoch === started && isRootTui(ctx)) consume(ctx, source);
    });
  });

  pi.on("session_shutdown", async () => {
    cancel();
    // Give reports in flight their bounded time so a quick exit does not lose the last turn.
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, REPORT_TIMEOUT_MS).unref());
    await Promise.race([Promise.allSettled([...reports, schedule.settled()]), deadline]);
  });
}
