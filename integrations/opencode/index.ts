// Herald's opencode plugin: when a session goes idle, its last finished assistant message is
// reported to Herald as one exchange (harness `opencode`, opencode's session id, the message id as
// the completion id). Sub-agent (child) sessions are internal to their parent and report nothing.
// The agent never waits: the report runs beside it, bounded, and opencode's dispose gives reports
// still in flight their bounded time. The module exports only the plugin: opencode calls every
// exported function as one.
import type { Plugin } from "@opencode-ai/plugin";
import { OnceWarner, REPORT_TIMEOUT_MS, reportExchange, reporterConfig } from "../shared/report-exchange.ts";
import { lastExchange, type MessageWithParts } from "./last-exchange.ts";

/** Messages read back from the session: the last answer and the prompt before it are among them. */
const RECENT_MESSAGES = 30;

export const HeraldPlugin: Plugin = async ({ client, directory }) => {
  const warner = new OnceWarner("herald");
  const config = reporterConfig();
  const reports = new Set<Promise<unknown>>();

  const report = async (sessionID: string) => {
    try {
      const signal = AbortSignal.timeout(REPORT_TIMEOUT_MS);
      const session = await client.session.get({ path: { id: sessionID }, signal });
      if (!session.data || session.data.parentID) return;
      const messages = await client.session.messages({ path: { id: sessionID }, query: { limit: RECENT_MESSAGES }, signal });
      const exchange = lastExchange((messages.data ?? []) as MessageWithParts[]);
      if (!exchange) return;
      await reportExchange(
        {
          harness: "opencode",
          sessionId: sessionID,
          completionId: exchange.completionId,
          cwd: exchange.cwd || session.data.directory || directory,
          userText: exchange.userText,
          assistantText: exchange.assistantText,
        },
        config,
        warner,
      );
    } catch (error) {
      warner.warn("session", `could not read the opencode session for Herald (${(error as Error)?.message ?? error})`);
    }
  };

  return {
    event: async ({ event }) => {
      if (event.type !== "session.idle") return;
      const pending = report(event.properties.sessionID);
      reports.add(pending);
      void pending.finally(() => reports.delete(pending));
    },
    dispose: async () => {
      const deadline = new Promise<void>((resolve) => setTimeout(resolve, REPORT_TIMEOUT_MS).unref());
      await Promise.race([Promise.allSettled([...reports]), deadline]);
    },
  };
};
