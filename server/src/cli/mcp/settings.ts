// What `herald mcp` reads from its environment, checked when a tool runs rather than at start: an
// agent lists the tools even when Herald is not configured yet, and each call says what is missing.
import { connectionFromEnv, ProducerFailure, type ProducerConnection } from "../producer-client.ts";

export interface McpSettings {
  connection: ProducerConnection;
  /** The person the notifications are for, and who answers the questions. */
  personId: string;
  /** The notifications' source plugin (a plugin-bound key must name its own). */
  plugin: string;
}

export const DEFAULT_PLUGIN = "mcp";

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): McpSettings {
  const connection = connectionFromEnv(env);
  const personId = env.HERALD_PERSON_ID?.trim();
  if (!personId) throw ProducerFailure.invalid("HERALD_PERSON_ID", "set it to the id of the person to notify (herald person create prints it)");
  const plugin = env.HERALD_PLUGIN?.trim() || DEFAULT_PLUGIN;
  return { connection, personId, plugin };
}
