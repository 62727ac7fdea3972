// The SDK's list rules, checked against the table the server's list query is checked against.
import { describe, expect, it } from "vitest";
import {
  ACTIVE_STATUSES,
  isSnoozed,
  isTerminal,
  isUnseen,
  matchesFilter,
  newestFirst,
  type NotificationFilter,
  supersedes,
  TERMINAL_STATUSES,
  UNSEEN_STATUSES,
} from "../../src/index.ts";
import { type CaseFilter, type CaseRecord, filterCases } from "../filter-cases.ts";
import { statusCases } from "../status-cases.ts";
import { notification } from "./fixtures.ts";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const HOUR = 3_600_000;

function fromCase(record: CaseRecord) {
  return notification({
    scope: record.scope,
    status: record.status,
    severity: record.severity ?? "INFO",
    source: { __typename: "NotificationSource", plugin: record.plugin ?? "tests", subsystem: null },
    sessionId: record.session ? `session-${record.session}` : null,
    personId: record.scope === "PERSON" ? "p1" : null,
    engagement: record.engagement ? { __typename: "Engagement", id: `engagement-${record.engagement}`, name: "E" } : null,
    snoozedUntil: record.snoozed ? at(record.snoozed === "future" ? HOUR : -HOUR) : null,
    readAt: record.read ? at(-HOUR) : null,
    retention: record.ttl
      ? { __typename: "NotificationRetention", policy: "TTL", expiresAt: at(record.ttl === "future" ? HOUR : -HOUR), requestId: null }
      : { __typename: "NotificationRetention", policy: "UNTIL_RESOLVED", expiresAt: null, requestId: null },
  });
}

function toFilter(f: CaseFilter): NotificationFilter {
  return {
    statuses: f.statuses ?? null,
    scope: f.scope ?? null,
    sessionId: f.session ? `session-${f.session}` : null,
    engagementId: f.engagement ? `engagement-${f.engagement}` : null,
    includeTerminal: f.includeTerminal ?? null,
    includeSnoozed: f.includeSnoozed ?? null,
    severities: f.severities ?? null,
    plugins: f.plugins ?? null,
    excludePlugins: f.excludePlugins ?? null,
    unread: f.unread ?? null,
  };
}

describe("matchesFilter against the shared case table", () => {
  it.each(filterCases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(matchesFilter(fromCase(c.record), toFilter(c.filter), NOW)).toBe(c.visible);
  });
});

describe("record helpers", () => {
  it.each(statusCases.map((c) => [c.status, c] as const))("places %s as the shared status table does", (status, c) => {
    expect({
      active: ACTIVE_STATUSES.includes(status),
      terminal: isTerminal({ status }) && TERMINAL_STATUSES.includes(status),
      unseen: isUnseen({ status }) && UNSEEN_STATUSES.includes(status),
    }).toEqual({ active: c.active, terminal: c.terminal, unseen: c.unseen });
  });

  it("places every status the schema has", () => {
    expect([...ACTIVE_STATUSES, ...TERMINAL_STATUSES].sort()).toEqual(statusCases.map((c) => c.status).sort());
  });

  it("counts a snooze only while it lies ahead, given a Date or epoch milliseconds", () => {
    expect(isSnoozed({ snoozedUntil: at(1) }, NOW)).toBe(true);
    expect(isSnoozed({ snoozedUntil: at(0) }, NOW.getTime())).toBe(false);
    expect(isSnoozed({ snoozedUntil: null }, NOW)).toBe(false);
  });

  it("orders newest first by createdAt, then by id, as the server does", () => {
    const a = notification({ id: "a", createdAt: "2026-01-01T10:00:00.000Z" });
    const b = notification({ id: "b", createdAt: "2026-01-01T10:00:00.000Z" });
    const c = notification({ id: "c", createdAt: "2026-01-01T09:00:00.000Z" });
    expect([c, a, b].sort(newestFirst).map((n) => n.id)).toEqual(["b", "a", "c"]);
  });

  it("lets a newer revision, or a later change within a revision, supersede; never an older one", () => {
    const base = notification({ id: "x", revision: 2, updatedAt: "2026-01-01T10:00:00.000Z" });
    expect(supersedes(base, undefined)).toBe(true);
    expect(supersedes({ ...base, revision: 3 }, base)).toBe(true);
    expect(supersedes({ ...base, revision: 1, updatedAt: "2027-01-01T00:00:00.000Z" }, base)).toBe(false);
    expect(supersedes({ ...base, updatedAt: "2026-01-01T10:00:01.000Z", status: "SEEN" }, base)).toBe(true);
    expect(supersedes({ ...base, updatedAt: "2026-01-01T09:59:59.000Z", status: "SEEN" }, base)).toBe(false);
    // Same revision and time: only a different reader state counts as news.
    expect(supersedes({ ...base }, base)).toBe(false);
    expect(supersedes({ ...base, status: "SEEN", seenAt: base.updatedAt }, base)).toBe(true);
  });

  it("orders a notification's invocation state, which changes without a new revision", () => {
    const base = notification({ revision: 2 });
    const inv = (id: string, state: "PENDING" | "ACKNOWLEDGED" | "FAILED") => ({
      __typename: "ActionInvocation" as const,
      id,
      state,
      outcomeMessage: null,
      display: null,
      actions: [],
      uiEffects: null,
    });
    const pending = { ...base, lastInvocation: inv("c1", "PENDING") };
    const acked = { ...base, lastInvocation: inv("c1", "ACKNOWLEDGED") };
    expect(supersedes(pending, base)).toBe(true);
    expect(supersedes(acked, pending)).toBe(true);
    // A pending result laid over the list never hides the settled state the stream brought.
    expect(supersedes(pending, acked)).toBe(false);
    expect(supersedes({ ...base, lastInvocation: inv("c2", "PENDING") }, acked)).toBe(true);
    expect(supersedes(base, pending)).toBe(false);
  });
});
