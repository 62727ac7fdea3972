// Naming cadence and generation rules, driven step by step with a scripted labeler.
import { describe, expect, it } from "vitest";
import {
  boundedMaterial,
  completionNotification,
  decideExchange,
  decideLabelResult,
  isValidSessionId,
  type LabelAnswer,
  type LabelState,
  MAX_GENERATION,
  noLabelState,
  normalizeLabel,
  parseGeneration,
  projectOf,
  readLabelState,
} from "../../src/domain/session-labels.ts";

type Answer = string | "KEEP" | "FAIL";
interface Step {
  completion: string;
  /** The user text; the assistant text is derived, so equal text means equal material. */
  text: string;
  /** What the scripted labeler answers if it is asked. */
  answer?: Answer;
  expect: { asked: boolean; source: bigint; labelGeneration: bigint; label: string };
}

/** Runs the steps as the service does: decide the exchange, ask the labeler when due, apply. */
function run(steps: Step[], initial: LabelState = noLabelState) {
  let state = initial;
  for (const [i, step] of steps.entries()) {
    const material = boundedMaterial(step.text, `answer to ${step.text}`);
    const decision = decideExchange(state, step.completion, step.completion === "c-retry-of-previous", material);
    let asked = false;
    if (decision.kind === "accepted") {
      state = decision.next;
      if (decision.naming) {
        asked = true;
        const answer = step.answer ?? "FAIL";
        if (answer !== "FAIL") {
          const labelAnswer: LabelAnswer = answer === "KEEP" ? { kind: "keep" } : { kind: "label", text: answer };
          const outcome = decideLabelResult(state, decision.naming.generation, labelAnswer);
          if (outcome.kind === "write") state = { ...state, label: outcome.label, labelGeneration: outcome.labelGeneration };
        }
      }
    }
    expect({ step: i + 1, asked, source: state.sourceGeneration, labelGeneration: state.labelGeneration, label: state.label }).toEqual({
      step: i + 1,
      ...step.expect,
    });
  }
  return state;
}

const ok = (n: number, label = "Fix Login Redirect") => ({ completion: `c${n}`, text: `change ${n}`, answer: label });

describe("naming cadence", () => {
  it.each([
    {
      name: "uninterrupted success asks at exchanges 1, 5 and 9",
      steps: Array.from({ length: 10 }, (_, i) => {
        const n = i + 1;
        const asked = n === 1 || n === 5 || n === 9;
        const labelGeneration = n >= 9 ? 9n : n >= 5 ? 5n : 1n;
        return { ...ok(n, `Label Number ${n}`), expect: { asked, source: BigInt(n), labelGeneration, label: `Label Number ${labelGeneration}` } };
      }),
    },
    {
      name: "a KEEP counts as a successful refresh and keeps the text",
      steps: [
        { ...ok(1, "Tidy Build Scripts"), expect: { asked: true, source: 1n, labelGeneration: 1n, label: "Tidy Build Scripts" } },
        ...[2, 3, 4].map((n) => ({ ...ok(n), expect: { asked: false, source: BigInt(n), labelGeneration: 1n, label: "Tidy Build Scripts" } })),
        { ...ok(5), answer: "KEEP", expect: { asked: true, source: 5n, labelGeneration: 5n, label: "Tidy Build Scripts" } },
        { ...ok(6), expect: { asked: false, source: 6n, labelGeneration: 5n, label: "Tidy Build Scripts" } },
      ],
    },
    {
      name: "a failed first naming keeps no label and retries at the next exchange with changed material",
      steps: [
        { ...ok(1), answer: "FAIL", expect: { asked: true, source: 1n, labelGeneration: 0n, label: "" } },
        { ...ok(2, "Port Parser Tests"), expect: { asked: true, source: 2n, labelGeneration: 2n, label: "Port Parser Tests" } },
        { ...ok(3), expect: { asked: false, source: 3n, labelGeneration: 2n, label: "Port Parser Tests" } },
      ],
    },
    {
      name: "a failed refresh keeps the prior label and retries at the next changed exchange",
      steps: [
        { ...ok(1, "Old Label Here"), expect: { asked: true, source: 1n, labelGeneration: 1n, label: "Old Label Here" } },
        ...[2, 3, 4].map((n) => ({ ...ok(n), expect: { asked: false, source: BigInt(n), labelGeneration: 1n, label: "Old Label Here" } })),
        { ...ok(5), answer: "FAIL", expect: { asked: true, source: 5n, labelGeneration: 1n, label: "Old Label Here" } },
        { ...ok(6, "New Label Here"), expect: { asked: true, source: 6n, labelGeneration: 6n, label: "New Label Here" } },
      ],
    },
    {
      name: "an invalid answer (too many words, too long, control characters) is a failed refresh",
      steps: [
        { ...ok(1, "one two three four five"), expect: { asked: true, source: 1n, labelGeneration: 0n, label: "" } },
        { ...ok(2, "Two Words"), expect: { asked: true, source: 2n, labelGeneration: 0n, label: "" } },
        { ...ok(3, "Bad\u0007 Bell Label"), expect: { asked: true, source: 3n, labelGeneration: 0n, label: "" } },
        { ...ok(4, `${"x".repeat(30)} ${"y".repeat(30)} z`), expect: { asked: true, source: 4n, labelGeneration: 0n, label: "" } },
        { ...ok(5, "KEEP"), answer: "KEEP", expect: { asked: true, source: 5n, labelGeneration: 0n, label: "" } },
        { ...ok(6, "  Fine   Label  Finally "), expect: { asked: true, source: 6n, labelGeneration: 6n, label: "Fine Label Finally" } },
      ],
    },
    {
      name: "identical material still counts but does not ask again",
      steps: [
        { completion: "a", text: "same", answer: "FAIL", expect: { asked: true, source: 1n, labelGeneration: 0n, label: "" } },
        { completion: "b", text: "same", answer: "Never Asked Label", expect: { asked: false, source: 2n, labelGeneration: 0n, label: "" } },
        { completion: "c", text: "other", answer: "Asked This Time", expect: { asked: true, source: 3n, labelGeneration: 3n, label: "Asked This Time" } },
      ],
    },
    {
      name: "a retried completion id changes nothing",
      steps: [
        { ...ok(1, "First Real Label"), expect: { asked: true, source: 1n, labelGeneration: 1n, label: "First Real Label" } },
        {
          completion: "c-retry-of-previous",
          text: "changed",
          answer: "Other Label Now",
          expect: { asked: false, source: 1n, labelGeneration: 1n, label: "First Real Label" },
        },
      ],
    },
  ])("$name", ({ steps }) => {
    run(steps);
  });

  it("a retry leaves the state itself untouched", () => {
    const state = run([{ ...ok(1, "Some Good Label"), expect: { asked: true, source: 1n, labelGeneration: 1n, label: "Some Good Label" } }]);
    expect(decideExchange(state, "c1", true, boundedMaterial("x", "y"))).toEqual({ kind: "duplicate" });
  });
});

describe("generations", () => {
  const at = (source: bigint, labelGeneration: bigint, label = "Current Label Text"): LabelState => ({
    label,
    completionId: "c",
    sourceGeneration: source,
    labelGeneration,
    namingFingerprint: "",
  });

  it.each([
    { name: "a late result for an older exchange after a newer refresh", state: at(3n, 3n), generation: 2n, outcome: { kind: "late" } },
    { name: "a result for the exchange of the current refresh again", state: at(3n, 3n), generation: 3n, outcome: { kind: "late" } },
    { name: "a result for an exchange not accepted yet", state: at(3n, 1n), generation: 4n, outcome: { kind: "late" } },
    {
      name: "an older result while no newer refresh landed (the source moved on)",
      state: at(4n, 0n, ""),
      generation: 2n,
      outcome: { kind: "write", label: "Late But Useful", labelGeneration: 2n },
    },
  ])("$name", ({ state, generation, outcome }) => {
    expect(decideLabelResult(state, generation, { kind: "label", text: "Late But Useful" })).toEqual(outcome);
  });

  it("counts up to 2^64-1 exactly and then stops counting", () => {
    const near = at(MAX_GENERATION - 1n, 1n);
    const last = decideExchange(near, "c-last", false, boundedMaterial("a", "b"));
    expect(last.kind === "accepted" && last.next.sourceGeneration).toBe(18446744073709551615n);
    expect(decideExchange(at(MAX_GENERATION, 1n), "c-more", false, boundedMaterial("a", "b"))).toEqual({ kind: "exhausted" });
  });

  it("reads canonical unsigned decimal text only", () => {
    expect(parseGeneration("18446744073709551615")).toBe(MAX_GENERATION);
    for (const bad of ["18446744073709551616", "-1", "01", "", "1e3", " 1", "1.0", "0x10"]) expect(parseGeneration(bad)).toBeNull();
  });
});

describe("stored label state", () => {
  const row = (over: Partial<Record<string, string>> = {}) => ({
    label: "Fix Login Redirect",
    completionId: "msg_01",
    sourceGeneration: "7",
    labelGeneration: "5",
    namingFingerprint: "a".repeat(64),
    ...over,
  });

  it("accepts a valid record and a session that has not counted an exchange", () => {
    expect(readLabelState(row())).toMatchObject({ sourceGeneration: 7n, labelGeneration: 5n });
    expect(readLabelState(row({ label: "", labelGeneration: "0" }))).toMatchObject({ labelGeneration: 0n });
    expect(readLabelState(row({ label: "", completionId: "", sourceGeneration: "0", labelGeneration: "0", namingFingerprint: "" }))).toBe("none");
  });

  it.each([
    ["label generation ahead of the source", { labelGeneration: "8" }],
    ["a label without a label generation", { labelGeneration: "0" }],
    ["a label generation without a label", { label: "" }],
    ["an invalid label", { label: "two words" }],
    ["a non-canonical generation", { sourceGeneration: "007" }],
    ["an out-of-range generation", { sourceGeneration: "18446744073709551616" }],
    ["no completion id on a counted session", { completionId: "" }],
    ["a corrupt fingerprint", { namingFingerprint: "zz" }],
    ["an uncounted session with a label", { sourceGeneration: "0", labelGeneration: "0", completionId: "" }],
  ])("rejects %s", (_name, over) => {
    expect(readLabelState(row(over))).toBe("invalid");
  });
});

describe("inputs and presentation", () => {
  it("checks session ids", () => {
    for (const good of ["a", "A.b_c:d-e", "_x", ":y", "9".repeat(128)]) expect(isValidSessionId(good)).toBe(true);
    for (const bad of ["", ".a", "-a", "a b", "a/b", "é", "9".repeat(129)]) expect(isValidSessionId(bad)).toBe(false);
  });

  it("normalizes labels and counts UTF-8 bytes", () => {
    expect(normalizeLabel(" Fix\tthe  login ")).toBe("Fix the login");
    expect(normalizeLabel("Résumé Parser Fixes")).toBe("Résumé Parser Fixes");
    expect(normalizeLabel("ééééééééééééééé ééééééééééééééé x")).toBeNull(); // 61 bytes
    expect(normalizeLabel("Zero\u200bWidth Join Here")).toBeNull();
  });

  it("names the notification by label, else by the cwd's project", () => {
    expect(projectOf("/home/ada/src/herald/")).toBe("herald");
    expect(projectOf("C:\\work\\site")).toBe("site");
    expect(completionNotification({ harness: "pi", label: "", cwd: "/src/herald", assistantText: "Done." }).title).toBe("herald · pi finished");
    const named = completionNotification({ harness: "codex", label: "Fix Login Redirect", cwd: "/src/herald", assistantText: `  ${"word ".repeat(200)}` });
    expect(named.title).toBe("Fix Login Redirect · codex finished");
    expect(Array.from(named.body)).toHaveLength(500);
    expect(named.body.endsWith("…")).toBe(true);
  });
});
