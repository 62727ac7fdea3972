import type { ActionInvocationMessage } from "../../../events/bus.ts";
import { builder } from "../builder.ts";

export const ActionInvocationRef = builder.objectRef<ActionInvocationMessage>("ActionInvocation").implement({
  description: "A person ran a RUN_ACTION follow-up of a notification.",
  fields: (t) => ({
    id: t.exposeID("id"),
    notificationId: t.exposeID("notificationId"),
    notificationKey: t.exposeString("notificationKey"),
    actionId: t.exposeString("actionId", { description: "The follow-up's id within the notification." }),
    targetActionId: t.exposeString("targetActionId", { description: "The producer action it asks to run." }),
    fixedParams: t.expose("fixedParams", { type: "JSON", nullable: true }),
    values: t.expose("values", { type: "JSON", nullable: true }),
    personId: t.exposeID("personId"),
    plugin: t.exposeString("sourcePlugin"),
    invokedAt: t.string({ resolve: (i) => i.invokedAt }),
  }),
});
