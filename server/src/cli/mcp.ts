// `herald mcp` on its own: the launcher's light entry point for it (bin/herald.js), so an agent's
// MCP server loads the protocol and an HTTP client, not the server or a store.
import { runMcpServer } from "./mcp/server.ts";

await runMcpServer().catch((error: unknown) => {
  process.stderr.write(`herald mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
