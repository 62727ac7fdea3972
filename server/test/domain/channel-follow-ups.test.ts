// Which follow-ups become buttons with action URLs on a phone: RUN_ACTION and DISMISS, but not a
// RUN_ACTION whose form needs values a button cannot give (the dashboard takes those).
import { describe, expect, it } from "vitest";
import { actionableFollowUps } from "../../src/domain/channels.ts";

describe("actionableFollowUps", () => {
  it("offers RUN_ACTION and DISMISS, and leaves a RUN_ACTION with a form to the dashboard", () => {
    const actions = [
      { kind: "RUN_ACTION", id: "approve", label: "Approve", form: null },
      { kind: "RUN_ACTION", id: "reply", label: "Reply", form: [{ name: "text", label: "Text", type: "TEXT" }] },
      { kind: "RUN_ACTION", id: "retry", label: "Retry", form: [] },
      { kind: "OPEN_URL", id: "logs", label: "Logs" },
      { kind: "DISMISS", id: "dismiss", label: "Dismiss" },
    ];
    expect(actionableFollowUps(actions)).toEqual([
      { id: "approve", label: "Approve" },
      { id: "retry", label: "Retry" },
      { id: "dismiss", label: "Dismiss" },
    ]);
  });
});
