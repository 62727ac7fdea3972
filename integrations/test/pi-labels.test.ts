// The Pi label consumer's pure rules: the metadata line, generation order, which snapshot may be
// applied, who owns the session's name, and the bounded read schedule (on a fake clock: the
// schedule's offsets are its contract, so the test drives them instead of waiting them out).
import { describe, expect, it } from "vitest";
import { terminalAssistant } from "../pi/branch.ts";
import {
  compareGenerations,
  decideSnapshot,
  type EntryLike,
  isGeneration,
  namingOwnership,
  ownAppendedRow,
  parseMetadata,
  PROVENANCE_TYPE,
} from "../pi/label-state.ts";
import { READ_OFFSETS_MS, ReadSchedule, type Timers } from "../pi/read-schedule.ts";

const line = (fields: Record<string, unknown>) =>
  `${JSON.stringify({ version: 1, status: "known", harness: "pi", session_id: "s-1", label: "Fix Login Redirect", completion_id: "a1b2c3d4", source_generation: "9", label_generation: "5", ...fields })}\n`;

describe("the session-metadata line", () => {
  it("reads a known record with its generations as exact strings", () => {
    expect(parseMetadata(line({ source_generation: "18446744073709551615", label_generation: "18446744073709551614" }))).toEqual({
      status: "known",
      sessionId: "s-1",
      label: "Fix Login Redirect",
      completionId: "a1b2c3d4",
      sourceGeneration: "18446744073709551615",
      labelGeneration: "18446744073709551614",
    });
    expect(parseMetadata(line({ status: "missing", label: "", completion_id: "", source_generation: "0", label_generation: "0" }))?.status).toBe("missing");
  });

  it("refuses anything but the documented shape", () => {
    const refused = [
      line({}).trimEnd(), // not newline-terminated
      line({ extra: 1 }),
      line({ harness: "codex" }),
      line({ version: 2 }),
      line({ source_generation: 9 }), // a number, not a decimal string
      line({ source_generation: "09" }),
      line({ source_generation: "18446744073709551616" }), // past uint64
      line({ label_generation: "10" }), // label newer than source
      line({ label: "", label_generation: "5" }),
      line({ label: "Two Words" }),
      line({ label: "Fix  Login Redirect" }),
      line({ completion_id: "" }),
      line({ status: "pending" }),
      `${"x".repeat(2048)}\n`,
      "not json\n",
    ];
    for (const text of refused) expect(parseMetadata(text), text).toBeNull();
  });

  it("orders generations as decimal strings, beyond what a number holds", () => {
    expect(compareGenerations("9", "10")).toBe(-1);
    expect(compareGenerations("18446744073709551615", "18446744073709551614")).toBe(1);
    // As numbers these two are equal (2^53 + 1 rounds to 2^53).
    expect(Number("9007199254740993")).toBe(Number("9007199254740992"));
    expect(compareGenerations("9007199254740993", "9007199254740992")).toBe(1);
    expect(isGeneration("0")).toBe(true);
    expect(isGeneration("-1")).toBe(false);
  });
});

describe("which snapshot names the session", () => {
  const source = { sessionId: "s-1", completionId: "a1b2c3d4" };
  const metadata = parseMetadata(line({}))!;

  it("applies a known label for this session and this assistant entry, a prior label included", () => {
    expect(decideSnapshot(metadata, source, null)).toEqual({
      kind: "apply",
      label: "Fix Login Redirect",
      generations: { sourceGeneration: "9", labelGeneration: "5" },
    });
    // Equal generations apply again: the read goes on, nothing is older.
    expect(decideSnapshot(metadata, source, { sourceGeneration: "9", labelGeneration: "5" }).kind).toBe("apply");
  });

  it("skips other sessions, other sources, unlabelled and older snapshots", () => {
    expect(decideSnapshot(metadata, { ...source, sessionId: "s-2" }, null).kind).toBe("skip");
    expect(decideSnapshot(metadata, { ...source, completionId: "ffffffff" }, null).kind).toBe("skip");
    expect(decideSnapshot(parseMetadata(line({ label: "", label_generation: "0" }))!, source, null)).toEqual({ kind: "skip", reason: "not labelled yet" });
    expect(
      decideSnapshot(parseMetadata(line({ status: "unavailable", label: "", completion_id: "", source_generation: "0", label_generation: "0" }))!, source, null)
        .kind,
    ).toBe("skip");
    expect(decideSnapshot(metadata, source, { sourceGeneration: "10", labelGeneration: "5" })).toEqual({ kind: "skip", reason: "older source" });
    expect(decideSnapshot(metadata, source, { sourceGeneration: "9", labelGeneration: "6" })).toEqual({ kind: "skip", reason: "older label" });
  });
});

describe("who owns the session's name", () => {
  const info = (id: string, name: string): EntryLike => ({ type: "session_info", id, name });
  const record = (id: string, data: Record<string, unknown>): EntryLike => ({
    type: "custom",
    id,
    customType: PROVENANCE_TYPE,
    data: { v: 1, sessionId: "s-1", sessionInfoId: "i1", label: "Fix Login Redirect", sourceGeneration: "1", labelGeneration: "1", ...data },
  });

  it("an unnamed session is the extension's to name", () => {
    expect(namingOwnership([{ type: "message", id: "m1" }], "s-1")).toEqual({ kind: "unnamed" });
  });

  it("a name with a matching provenance record is automatic, with this session's baseline", () => {
    const owned = namingOwnership([info("i1", "Fix Login Redirect"), record("c1", {})], "s-1");
    expect(owned).toMatchObject({ kind: "automatic", baseline: { sourceGeneration: "1", labelGeneration: "1" } });
  });

  it("a fork recognises the copied record but not the old session's generations", () => {
    expect(namingOwnership([info("i1", "Fix Login Redirect"), record("c1", {})], "s-fork")).toMatchObject({ kind: "automatic", baseline: null });
  });

  it("a later row, a cleared name, the same text without a record or a corrupt record is manual", () => {
    expect(namingOwnership([info("i1", "Fix Login Redirect"), record("c1", {}), info("i2", "My Own Name")], "s-1").kind).toBe("manual");
    expect(namingOwnership([info("i1", "Fix Login Redirect"), record("c1", {}), info("i2", "")], "s-1").kind).toBe("manual");
    expect(namingOwnership([info("i1", "Fix Login Redirect"), record("c1", {}), info("i2", "Fix Login Redirect")], "s-1").kind).toBe("manual");
    expect(namingOwnership([info("i1", "Fix Login Redirect"), record("c1", { v: 2 })], "s-1").kind).toBe("manual");
    expect(namingOwnership([info("i1", "Fix Login Redirect"), record("c1", { sourceGeneration: 1 })], "s-1").kind).toBe("manual");
    expect(namingOwnership([info("i1", "Other Words Here"), record("c1", {})], "s-1").kind).toBe("manual");
  });

  it("claims only exactly one appended row with the expected text", () => {
    const before = [info("i1", "Old Name Here")];
    expect(ownAppendedRow(before, [...before, info("i2", "Fix Login Redirect")], "Fix Login Redirect")?.id).toBe("i2");
    expect(ownAppendedRow(before, before, "Fix Login Redirect")).toBeNull();
    // A reentrant /name during the setter: two rows, the person's last.
    expect(ownAppendedRow(before, [...before, info("i2", "Fix Login Redirect"), info("i3", "Fix Login Redirect")], "Fix Login Redirect")).toBeNull();
    expect(ownAppendedRow(before, [...before, info("i2", "Mine Not Yours")], "Fix Login Redirect")).toBeNull();
  });
});

describe("the terminal assistant entry", () => {
  const user = (id: string, text: string) => ({ type: "message", id, message: { role: "user", content: text } });
  const assistant = (id: string, text: string, stopReason = "stop") => ({
    type: "message",
    id,
    message: {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hm" },
        { type: "text", text },
      ],
      stopReason,
    },
  });

  it("is the last message of the branch when it is a finished answer, whatever entries follow", () => {
    const branch = [user("u1", "Fix it"), assistant("a1", "Fixed."), { type: "session_info", id: "i1" }, { type: "custom", id: "c1" }];
    expect(terminalAssistant(branch)).toEqual({ entryId: "a1", userText: "Fix it", assistantText: "Fixed." });
  });

  it("is none after a failed or aborted answer or a pending prompt", () => {
    expect(terminalAssistant([user("u1", "Fix it"), assistant("a1", "", "error")])).toBeNull();
    expect(terminalAssistant([user("u1", "Fix it"), assistant("a1", "Fi", "aborted")])).toBeNull();
    expect(terminalAssistant([user("u1", "Fix it"), assistant("a1", "Fixed."), user("u2", "And now?")])).toBeNull();
  });
});

/** A clock the test advances by hand. */
class FakeClock implements Timers {
  now = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private next = 0;
  setTimeout(callback: () => void, ms: number) {
    const id = ++this.next;
    this.timers.push({ at: this.now + ms, callback, id });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  get pending() {
    return this.timers.length;
  }
  /** Moves time to `ms`, firing due timers in order. */
  async advanceTo(ms: number) {
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const due = this.timers[0];
      if (!due || due.at > ms) break;
      this.timers.shift();
      this.now = due.at;
      due.callback();
      await flush();
    }
    this.now = ms;
    await flush();
  }
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** A read the test finishes by hand, recording when each started. */
function manualReads(clock: FakeClock) {
  const started: number[] = [];
  const open: { finish(verdict: "continue" | "stop"): void; signal: AbortSignal }[] = [];
  const read = (signal: AbortSignal) =>
    new Promise<"continue" | "stop">((resolve) => {
      started.push(clock.now);
      open.push({ finish: resolve, signal });
    });
  return { started, open, read };
}

describe("the read schedule", () => {
  it("reads at 0, 250 ms, 1 s, 3 s, 8 s and 16 s, then never again", async () => {
    const clock = new FakeClock();
    const schedule = new ReadSchedule(clock);
    const reads: number[] = [];
    schedule.start(async () => {
      reads.push(clock.now);
      return "continue";
    });
    await clock.advanceTo(60_000);
    expect(reads).toEqual([...READ_OFFSETS_MS]);
    expect(schedule.active).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it("serializes reads and coalesces the ticks that fall due during one into one read", async () => {
    const clock = new FakeClock();
    const schedule = new ReadSchedule(clock);
    const { started, open, read } = manualReads(clock);
    schedule.start(read);
    await clock.advanceTo(0);
    // The first read hangs past the 250 ms and 1 s ticks: no second read starts meanwhile.
    await clock.advanceTo(1_500);
    expect(started).toEqual([0]);
    open[0]!.finish("continue");
    await flush();
    // The two missed ticks became one read, right after the first.
    expect(started).toEqual([0, 1_500]);
    open[1]!.finish("continue");
    for (const [index, at] of [
      [2, 3_000],
      [3, 8_000],
      [4, 16_000],
    ] as const) {
      await clock.advanceTo(at);
      open[index]!.finish("continue");
    }
    await clock.advanceTo(60_000);
    expect(started).toEqual([0, 1_500, 3_000, 8_000, 16_000]);
    expect(schedule.reads).toBe(5);
  });

  it("cancelling clears the timers and aborts the read in flight", async () => {
    const clock = new FakeClock();
    const schedule = new ReadSchedule(clock);
    const { started, open, read } = manualReads(clock);
    schedule.start(read);
    await clock.advanceTo(0);
    schedule.cancel();
    expect(open[0]!.signal.aborted).toBe(true);
    expect(clock.pending).toBe(0);
    open[0]!.finish("continue");
    await clock.advanceTo(60_000);
    expect(started).toEqual([0]);
    expect(schedule.active).toBe(false);
  });

  it("a read that says stop ends the schedule", async () => {
    const clock = new FakeClock();
    const schedule = new ReadSchedule(clock);
    let reads = 0;
    schedule.start(async () => (++reads === 2 ? "stop" : "continue"));
    await clock.advanceTo(60_000);
    expect(reads).toBe(2);
    expect(clock.pending).toBe(0);
  });

  it("a new source replaces the old schedule; its first read waits for the aborted one to end", async () => {
    const clock = new FakeClock();
    const schedule = new ReadSchedule(clock);
    const first = manualReads(clock);
    schedule.start(first.read);
    await clock.advanceTo(0);
    const second = manualReads(clock);
    schedule.start(second.read);
    await clock.advanceTo(100);
    expect(first.open[0]!.signal.aborted).toBe(true);
    expect(second.started).toEqual([]);
    first.open[0]!.finish("continue");
    await flush();
    expect(second.started).toEqual([100]);
    expect(first.started).toEqual([0]);
  });

  it("a read that throws uses up its slot and the schedule goes on", async () => {
    const clock = new FakeClock();
    const schedule = new ReadSchedule(clock);
    let reads = 0;
    schedule.start(async () => {
      reads++;
      throw new Error("helper crashed");
    });
    await clock.advanceTo(60_000);
    expect(reads).toBe(6);
  });
});
