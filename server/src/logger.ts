import { destination, type DestinationStream, pino, type Logger } from "pino";
import pretty from "pino-pretty";

export type { Logger };

export type LogFormat = "json" | "pretty";

/**
 * HERALD_LOG_FORMAT when set; otherwise readable lines for a person at a terminal and JSON for
 * programs (a pipe, a file, a log collector).
 */
export function logFormatFrom(setting: string | undefined, isTTY = process.stderr.isTTY === true): LogFormat {
  if (setting === "json" || setting === "pretty") return setting;
  return isTTY ? "pretty" : "json";
}

/** Logs on stderr, so stdout stays for what commands print (credentials, JSON results). */
export function createLogger(level: string, stream?: DestinationStream, format: LogFormat = "json"): Logger {
  const out =
    stream ??
    // pino-pretty as a stream in this thread (no transport worker): the same order as the JSON lines.
    (format === "pretty"
      ? pretty({ destination: 2, colorize: process.stderr.isTTY === true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname", sync: true })
      : destination(2));
  return pino({ level, redact: ["req.headers.authorization", "authorization", "token", "secret"] }, out);
}
