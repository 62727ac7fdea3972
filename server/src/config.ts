// Everything the server reads from its environment, checked once at start.
import { z } from "zod";

const schema = z.object({
  DATABASE_URL: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
  HOST: z.string().default("127.0.0.1"),
  NODE_ENV: z.string().default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Config = z.infer<typeof schema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`Invalid environment: ${issue.path.join(".")} ${issue.message}`);
  }
  return result.data;
}
