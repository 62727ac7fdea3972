// `herald mcp`: a Model Context Protocol server on stdin/stdout for an agent (Claude Code, Codex,
// opencode, ...). It talks to a running Herald over HTTP as a producer (HERALD_URL,
// HERALD_PRODUCER_KEY, HERALD_PERSON_ID, optionally HERALD_PLUGIN) and never opens a store.
// stdout carries the protocol and nothing else; diagnostics go to stderr.
import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { registerTools } from "./tools.ts";

const { version } = createRequire(import.meta.url)("../../../package.json") as { version: string };

export async function runMcpServer(): Promise<void> {
  // A stray console.log anywhere (a dependency's warning) would corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  // A failure outside a tool call (a stream's late error) is logged; the session goes on.
  process.on("unhandledRejection", (reason) => console.error(`herald mcp: ${reason instanceof Error ? reason.message : String(reason)}`));
  const server = new McpServer(
    { name: "herald", version },
    {
      instructions:
        "Herald delivers notifications to the person you work for: notify them, report progress of long tasks, and ask them questions (ask, then await_answer with the handle if it timed out).",
    },
  );
  registerTools(server);
  const transport = new StdioServerTransport();
  // The agent closing stdin ends the session, and with it any wait in progress.
  process.stdin.once("end", () => void server.close().finally(() => process.exit(0)));
  await server.connect(transport);
}
