// emitEvent: a producer tells Herald what happened in its engine; the listener registry decides
// who hears of it (server/src/background/listeners/).
import type { EmitResult } from "../../service/event-service.ts";
import { requireProducer } from "../../service/producer-rights.ts";
import { builder } from "./builder.ts";
import { asResult, resultUnion } from "./errors.ts";
import { NotificationRef } from "./notification.ts";

const EmitEventInput = builder.inputType("EmitEventInput", {
  fields: (t) => ({
    type: t.string({ required: true, description: "The engine's event type, e.g. render.produced. Unknown types are recorded and notify no one." }),
    payload: t.field({ type: "JSON", required: false, description: "A JSON object; `id` is the engine event id (the notifications' trigger.ref)." }),
    engagementId: t.id({ required: false }),
    actorPersonId: t.id({ required: false, description: "Who caused it: never notified of their own doing." }),
    occurredAt: t.field({ type: "DateTime", required: false, description: "Defaults to when Herald received it." }),
    idempotencyKey: t.string({
      required: false,
      description:
        "This producer key's own: the same key with the same event again returns the first result and changes nothing; with a different event it is a ValidationError on idempotencyKey.",
    }),
  }),
});

const EmitEventSuccessRef = builder.objectRef<EmitResult>("EmitEventSuccess").implement({
  description: "The event was recorded; which listeners ran and which notifications they created.",
  fields: (t) => ({
    eventId: t.exposeID("eventId"),
    type: t.exposeString("type"),
    listeners: t.exposeStringList("listeners"),
    notifications: t.field({
      type: [NotificationRef],
      description: "Created by this event; a trigger that already fired for a person creates nothing.",
      resolve: (r) => r.notifications,
    }),
    duplicate: t.exposeBoolean("duplicate", { description: "True when the idempotencyKey was seen before: the first call's result." }),
  }),
});

const EmitEventResult = resultUnion("EmitEventResult", () => EmitEventSuccessRef, ["ValidationError"]);

builder.mutationFields((t) => ({
  emitEvent: t.field({
    type: EmitEventResult,
    args: { input: t.arg({ type: EmitEventInput, required: true }) },
    resolve: (_root, args, ctx) => {
      const producer = requireProducer(ctx.caller, "emitEvent");
      return asResult(EmitEventResult, () => ctx.services.events.emit(args.input, producer.credentialId));
    },
  }),
}));
