// What "active", "terminal" and "unseen" mean, checked against the table the SDK's status lists
// are checked against (sdk/test/status-cases.ts), so the two cannot drift; and the stored
// `activeKey`, which is "active" as SQL reads it, follows the same rule.
import { describe, expect, it } from "vitest";
import { statusCases } from "../../../sdk/test/status-cases.ts";
import { ActiveStatuses, isTerminal, NotificationStatuses, TerminalStatuses, UnseenStatuses } from "../../src/domain/enums.ts";
import { effectiveFilter } from "../../src/domain/filter.ts";
import { activeKeyOf, storedActiveKey, type Target } from "../../src/domain/notification.ts";

const person: Target = { scope: "PERSON", personId: "p1", sessionId: null };

describe("status phases against the shared status table", () => {
  it.each(statusCases.map((c) => [c.status, c] as const))("places %s as the SDK does", (status, c) => {
    expect({
      active: ActiveStatuses.includes(status),
      terminal: isTerminal(status) && TerminalStatuses.includes(status),
      unseen: UnseenStatuses.includes(status),
    }).toEqual({ active: c.active, terminal: c.terminal, unseen: c.unseen });
  });

  it("places every status of the schema in the table", () => {
    expect([...NotificationStatuses].sort()).toEqual(statusCases.map((c) => c.status).sort());
  });

  it("lists active records by default", () => {
    expect([...effectiveFilter({}).statuses].sort()).toEqual(
      statusCases
        .filter((c) => c.active)
        .map((c) => c.status)
        .sort(),
    );
  });

  it.each(statusCases.map((c) => [c.status, c] as const))("keeps a %s row's activeKey set exactly while it is active", (status, c) => {
    expect(storedActiveKey({ ...person, status, key: "k" })).toBe(c.active ? activeKeyOf(person, "k") : null);
  });
});
