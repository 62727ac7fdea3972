// Cancel and "finished" come from typed fields: operation.cancellable, operation.id matched in
// the action's fixedParams, the record's status and the documented final states.
import { describe, expect, it } from "vitest";
import { cancelActionOf, isOperationFinished } from "../../src/index.ts";
import { action, notification } from "./fixtures.ts";

const operation = (fields: { id?: string; state?: string | null; cancellable?: boolean } = {}) => ({
  __typename: "NotificationOperation" as const,
  id: fields.id ?? "op-2",
  type: "export",
  state: fields.state === undefined ? "running" : fields.state,
  phase: "copying",
  elapsedSeconds: 5,
  cancellable: fields.cancellable ?? true,
});

const cancel = action({ kind: "RUN_ACTION", id: "stop", label: "Stop the export", actionId: "export.cancel", fixedParams: { operationId: "op-2" } });

describe("cancelActionOf", () => {
  it("is the RUN_ACTION naming this operation occurrence, whatever its label", () => {
    const other = action({ kind: "RUN_ACTION", id: "cancel", label: "Cancel", actionId: "export.cancel", fixedParams: { operationId: "op-1" } });
    const link = action({ kind: "OPEN_URL", id: "logs", url: "https://example.com", fixedParams: { operationId: "op-2" } });
    expect(cancelActionOf(notification({ operation: operation(), actions: [other, link, cancel] }))).toBe(cancel);
  });

  it("is absent when the operation is not cancellable, the record has ended, or no action names the operation", () => {
    expect(cancelActionOf(notification({ operation: operation({ cancellable: false }), actions: [cancel] }))).toBeUndefined();
    expect(cancelActionOf(notification({ status: "RESOLVED", operation: operation(), actions: [cancel] }))).toBeUndefined();
    const labelledCancel = action({ kind: "RUN_ACTION", id: "cancel", label: "Cancel", fixedParams: null });
    expect(cancelActionOf(notification({ operation: operation(), actions: [labelledCancel] }))).toBeUndefined();
    expect(cancelActionOf(notification({ operation: null, actions: [cancel] }))).toBeUndefined();
  });
});

describe("isOperationFinished", () => {
  it("is true for a terminal record or a documented final state, compared exactly", () => {
    expect(isOperationFinished(notification({ status: "EXPIRED", operation: operation() }))).toBe(true);
    for (const state of ["done", "completed", "succeeded", "failed", "cancelled"])
      expect(isOperationFinished(notification({ operation: operation({ state }) }))).toBe(true);
  });

  it("is false while running, for free text that merely mentions an end, and without a state", () => {
    for (const state of ["running", "Done soon", "not failed yet", "cancelling", null]) {
      expect(isOperationFinished(notification({ operation: operation({ state }) })), String(state)).toBe(false);
    }
  });
});
