import { destination, type DestinationStream, pino, type Logger } from "pino";

export type { Logger };

/** JSON logs on stderr, so stdout stays for what commands print (credentials, JSON results). */
export function createLogger(level: string, stream: DestinationStream = destination(2)): Logger {
  return pino({ level, redact: ["req.headers.authorization", "authorization", "token", "secret"] }, stream);
}
