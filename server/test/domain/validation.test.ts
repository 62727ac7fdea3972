// Input rules and display defaults without I/O.
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/domain/errors.ts";
import { effectiveFilter } from "../../src/domain/filter.ts";
import { resolveDisplay } from "../../src/domain/presentation.ts";
import { validatePatch, validatePublish, validateSnoozeUntil } from "../../src/domain/validation.ts";

const now = new Date("2026-01-01T00:00:00Z");
const input = (extra: Record<string, unknown> = {}) => ({
  scope: "PERSON",
  personId: "p1",
  key: "k",
  title: "Hello",
  source: { plugin: "p" },
  ...extra,
});

function fieldOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.field;
    throw error;
  }
  throw new Error("expected a ValidationError");
}

describe("publish validation", () => {
  it("normalises a minimal publish with defaults", () => {
    const valid = validatePublish(input(), now);
    expect(valid.content).toMatchObject({ severity: "INFO", body: "", retention: { policy: "UNTIL_RESOLVED" }, trigger: { type: "PRODUCER" } });
    expect(valid.target).toEqual({ scope: "PERSON", personId: "p1", sessionId: null });
  });

  it("names the field of the first problem", () => {
    expect(fieldOf(() => validatePublish(input({ key: "" }), now))).toBe("key");
    expect(fieldOf(() => validatePublish(input({ scope: "APPLICATION", personId: null, display: { presentation: "INLINE" } }), now))).toBe(
      "display.presentation",
    );
    expect(fieldOf(() => validatePublish(input({ scope: "SESSION", personId: null }), now))).toBe("sessionId");
    expect(fieldOf(() => validatePublish(input({ scope: "APPLICATION" }), now))).toBe("personId");
    expect(fieldOf(() => validatePublish(input({ actions: [{ kind: "COPY_TEXT", id: "c", label: "Copy" }] }), now))).toBe("actions.0.text");
  });

  it("keeps unknown ui-effect fields and checks known ones", () => {
    const valid = validatePublish(input({ uiEffects: { reload_application_actions: true, custom: { a: 1 } } }), now);
    expect(valid.content.uiEffects).toEqual({ reload_application_actions: true, custom: { a: 1 } });
    expect(fieldOf(() => validatePublish(input({ uiEffects: { reload_session_ids: "s1" } }), now))).toBe("uiEffects.reload_session_ids");
  });

  it("merges a patch over the current content, dropping ui effects it does not supply", () => {
    const valid = validatePublish(input({ body: "b", uiEffects: { reload_sessions_list: true }, display: { presentation: "MODAL" } }), now);
    const patched = validatePatch(valid.content, valid.target, { title: "New" }, now);
    expect(patched).toMatchObject({ title: "New", body: "b", uiEffects: null, displayOverrides: { presentation: "MODAL" } });
  });

  it("accepts a snooze only in the future", () => {
    expect(fieldOf(() => validateSnoozeUntil(now, now))).toBe("until");
    expect(validateSnoozeUntil(new Date(now.getTime() + 1), now)).toEqual(new Date(now.getTime() + 1));
  });
});

describe("display defaults", () => {
  const content = validatePublish(input({ severity: "WARNING", body: "Body" }), now).content;
  it("derives display from content and scope", () => {
    expect(resolveDisplay("PERSON", content)).toEqual({
      format: "TEXT",
      title: "Hello",
      body: "Body",
      variant: "WARNING",
      presentation: "INLINE",
      dismissible: true,
    });
    expect(resolveDisplay("SESSION", content).presentation).toBe("INLINE");
    expect(resolveDisplay("APPLICATION", content).presentation).toBe("BANNER");
  });
  it("lets explicit display fields win", () => {
    expect(resolveDisplay("PERSON", { ...content, displayOverrides: { title: "Shown", format: "MARKDOWN" } })).toMatchObject({
      title: "Shown",
      format: "MARKDOWN",
      body: "Body",
    });
  });
});

describe("list filters", () => {
  it("shows active records by default and lets explicit statuses win", () => {
    expect(effectiveFilter(undefined).statuses).toEqual(["PENDING", "DELIVERED", "SEEN"]);
    expect(effectiveFilter({ includeTerminal: true }).statuses).toHaveLength(6);
    expect(effectiveFilter({ statuses: ["DISMISSED"], includeTerminal: false }).statuses).toEqual(["DISMISSED"]);
  });
});
