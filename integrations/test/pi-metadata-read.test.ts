// The Pi extension's one metadata read (metadata-command.ts) against real child processes standing
// in for `herald session-metadata`: the 2,048-byte limit of its answer, the 2 s limit of its run,
// and its cancellation, each ending the helper process; the remote source's choice (HTTP when
// HERALD_URL is set and no local store is); the root-TUI test; and the session-file watch that
// hears a name given by hand.
import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, eventually, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METADATA_MAX_BYTES } from "../pi/label-state.ts";
import { readMetadata } from "../pi/metadata-command.ts";
import { remoteMetadataFrom } from "../pi/metadata-http.ts";
import { isRootTui } from "../pi/index.ts";
import { watchSessionFile } from "../pi/name-watch.ts";

let dir: TempDir;
beforeAll(() => {
  dir = createTempDir("herald-pi-read-");
});
afterAll(() => dir.remove());

let scripts = 0;
/** A stand-in `herald` whose body is `shell`; it records its pid first. */
function helper(shell: string): { bin: string; pidFile: string } {
  const n = ++scripts;
  const bin = join(dir.path, `herald-${n}`);
  const pidFile = join(dir.path, `pid-${n}`);
  writeFileSync(bin, `#!/bin/sh\necho $$ > ${pidFile}\n${shell}\n`);
  chmodSync(bin, 0o755);
  return { bin, pidFile };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const pidOf = (pidFile: string) => Number(readFileSync(pidFile, "utf8").trim());

describe("one metadata read", () => {
  it("returns an answer of exactly 2,048 bytes and refuses one byte more", async () => {
    const exact = helper(`head -c ${METADATA_MAX_BYTES} /dev/zero | tr '\\0' x`);
    const over = helper(`head -c ${METADATA_MAX_BYTES + 1} /dev/zero | tr '\\0' x`);
    const signal = new AbortController().signal;
    expect(await readMetadata({ bin: exact.bin, env: process.env }, "s-1", signal)).toBe("x".repeat(METADATA_MAX_BYTES));
    expect(await readMetadata({ bin: over.bin, env: process.env }, "s-1", signal)).toBeNull();
  });

  it("passes the harness and session id, and reads nothing from a helper that exits non-zero", async () => {
    const args = helper(`printf '%s|' "$@"`);
    const failing = helper(`echo '{"version":1}'; exit 3`);
    const signal = new AbortController().signal;
    expect(await readMetadata({ bin: args.bin, env: process.env }, "s-1", signal)).toBe("session-metadata|--harness|pi|--session-id|s-1|");
    expect(await readMetadata({ bin: failing.bin, env: process.env }, "s-1", signal)).toBeNull();
  });

  it("ends a helper that runs past 2 s, killing it", async () => {
    const slow = helper("exec sleep 60");
    expect(await readMetadata({ bin: slow.bin, env: process.env }, "s-1", new AbortController().signal)).toBeNull();
    const pid = pidOf(slow.pidFile);
    await eventually(() => !alive(pid), 10_000, "the slow helper killed");
  });

  it("cancellation aborts the helper in flight and kills it", async () => {
    const slow = helper("exec sleep 60");
    const controller = new AbortController();
    const read = readMetadata({ bin: slow.bin, env: process.env }, "s-1", controller.signal);
    await eventually(() => existsSync(slow.pidFile) && readFileSync(slow.pidFile, "utf8").endsWith("\n"), 10_000, "the helper started");
    controller.abort();
    expect(await read).toBeNull();
    const pid = pidOf(slow.pidFile);
    await eventually(() => !alive(pid), 10_000, "the cancelled helper killed");
  });

  it("a read asked after cancellation starts no helper", async () => {
    const never = helper("exit 0");
    const controller = new AbortController();
    controller.abort();
    expect(await readMetadata({ bin: never.bin, env: process.env }, "s-1", controller.signal)).toBeNull();
    expect(existsSync(never.pidFile)).toBe(false);
  });
});

describe("where the label is read from", () => {
  it("over HTTP only with HERALD_URL, a producer key and no local store", () => {
    const key = "hk_test";
    expect(remoteMetadataFrom({ HERALD_URL: "https://herald.example/", HERALD_PRODUCER_KEY: key })).toEqual({
      endpoint: "https://herald.example/graphql",
      key,
    });
    expect(remoteMetadataFrom({ HERALD_URL: "https://herald.example/graphql", HERALD_PRODUCER_KEY: key })?.endpoint).toBe("https://herald.example/graphql");
    expect(remoteMetadataFrom({ HERALD_URL: "https://herald.example", HERALD_PRODUCER_KEY: key, DATABASE_URL: "file:/var/herald.db" })).toBeNull();
    expect(remoteMetadataFrom({ HERALD_URL: "https://herald.example" })).toBeNull();
    expect(remoteMetadataFrom({ HERALD_PRODUCER_KEY: key })).toBeNull();
  });
});

describe("the label consumer's place", () => {
  it("is the root TUI only: a UI on a terminal, not RPC (a UI, stdout a pipe) nor print mode", () => {
    expect(isRootTui({ hasUI: true }, { isTTY: true })).toBe(true);
    expect(isRootTui({ hasUI: true }, { isTTY: undefined })).toBe(false);
    expect(isRootTui({ hasUI: false }, { isTTY: true })).toBe(false);
  });

  it("hears each write to the session file until it is stopped", async () => {
    const file = join(dir.path, "session.jsonl");
    writeFileSync(file, "{}\n");
    let heard = 0;
    let wake!: () => void;
    const first = new Promise<void>((resolve) => (wake = resolve));
    const stop = watchSessionFile(file, () => {
      heard++;
      wake();
    });
    appendFileSync(file, `{"type":"session_info","name":"Mine"}\n`);
    await first;
    expect(heard).toBeGreaterThan(0);
    stop();
    expect(watchSessionFile(undefined, () => undefined)).toBeTypeOf("function");
    expect(watchSessionFile(join(dir.path, "absent.jsonl"), () => undefined)).toBeTypeOf("function");
  });
});
