// One committed-event shape: what a write appends, what the log reads back, what the bus carries
// and what a stream sends are all cut from CommittedEvent (events/committed-event.ts). Checked by
// the typecheck, which runs over the tests: a field added or renamed in one of them alone fails.
import { describe, expectTypeOf, it } from "vitest";
import type { ActionInvocationMessage, BusMessage } from "../../src/events/bus.ts";
import type { CommittedEvent, EventToAppend } from "../../src/events/committed-event.ts";
import type { StreamItem } from "../../src/realtime/stream-items.ts";
import type { InvocationRecord } from "../../src/domain/invocation.ts";
import type { NotificationWriteSql } from "../../src/storage/notifications/notification-write-sql.ts";

describe("the committed event's shape", () => {
  it("is what a write appends, less what the log adds", () => {
    expectTypeOf<EventToAppend>().toEqualTypeOf<Omit<CommittedEvent, "seq" | "committedAt">>();
    // Storage's append takes that shape.
    expectTypeOf<Parameters<NotificationWriteSql["appendEvents"]>[0]>().toEqualTypeOf<readonly EventToAppend[]>();
  });

  it("is what the bus carries and what a stream item is numbered and typed by", () => {
    expectTypeOf<Extract<BusMessage, { kind: "event" }>["event"]>().toEqualTypeOf<CommittedEvent>();
    expectTypeOf<Pick<StreamItem, "seq" | "type">>().toEqualTypeOf<Pick<CommittedEvent, "seq" | "type">>();
    expectTypeOf<ActionInvocationMessage>().toEqualTypeOf<Pick<InvocationRecord, "id" | "seq" | "plugin">>();
  });
});
