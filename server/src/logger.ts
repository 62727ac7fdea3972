import { destination, pino, type Logger } from "pino";

export type { Logger };

/** JSON logs on stderr, so stdout stays for what commands print (credentials, JSON results). */
export function createLogger(level: string): Logger {
  return pino({ level, redact: ["req.headers.authorization", "authorization", "token", "secret"] }, destination(2));
}
