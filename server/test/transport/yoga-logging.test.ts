// graphql-yoga's logger calls on pino: arguments stay structured, and an error keeps its stack.
import { Writable } from "node:stream";
import { pino } from "pino";
import { expect, it } from "vitest";
import { yogaLogging } from "../../src/util/request-context.ts";

it("keeps Yoga's log arguments as fields and an error as an error", () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = yogaLogging(pino({ level: "debug" }, sink));
  log.debug("Processing", { operationName: "Q" });
  log.error(new Error("broke"));
  log.warn({ odd: true });
  expect(lines[0]).toMatchObject({ level: 20, msg: "Processing", details: [{ operationName: "Q" }] });
  expect(lines[1]).toMatchObject({ level: 50, msg: "broke", err: { message: "broke" } });
  expect(String((lines[1]!.err as { stack: string }).stack)).toContain("yoga-logging.test.ts");
  expect(lines[2]).toMatchObject({ level: 40, msg: "graphql-yoga", details: [{ odd: true }] });
});
