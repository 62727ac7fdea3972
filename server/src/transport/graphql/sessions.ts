// Agent harnesses report completed exchanges; the session's shared label follows from them.
import { requireProducer } from "../../service/producer-rights.ts";
import type { ReportedExchange } from "../../service/session-service.ts";
import { builder } from "./builder.ts";
import { SessionRef } from "./directory.ts";
import { asResult, ReportExchangeResult } from "./errors.ts";
import { NotificationRef } from "./notification.ts";

export const ReportExchangeInput = builder.inputType("ReportExchangeInput", {
  description: "One completed exchange (a user turn and the assistant's answer) of an agent session.",
  fields: (f) => ({
    harness: f.string({ required: true, description: "pi, claude-code, codex or opencode." }),
    sessionId: f.string({ required: true, description: "The harness's own session id: 1-128 characters of A-Za-z0-9._:- not starting with . or -." }),
    completionId: f.string({
      required: false,
      description:
        "The harness's id of this completion. Distinct ids count as exchanges; a retry with the same id changes nothing. Without one the exchange notifies but is not counted.",
    }),
    cwd: f.string({ required: true, description: "The session's working directory; its last component names the session until it has a label." }),
    userText: f.string({ required: true }),
    assistantText: f.string({ required: true, description: "The start of it becomes the notification body." }),
    personId: f.id({ required: false, description: "Creates the session for this person when it does not exist yet." }),
  }),
});

export const ReportedExchangeRef = builder.objectRef<ReportedExchange>("ReportedExchange").implement({
  description: "The exchange was taken. The label is refreshed in the background: read session(...) for it.",
  fields: (t) => ({
    session: t.field({ type: SessionRef, resolve: (r) => r.session }),
    notification: t.field({
      type: NotificationRef,
      nullable: true,
      description: "The session's completion notification (key `exchange`); null when duplicate.",
      resolve: (r) => r.notification,
    }),
    duplicate: t.exposeBoolean("duplicate", { description: "The completion id was reported before; nothing changed." }),
  }),
});

builder.mutationFields((t) => ({
  reportExchange: t.field({
    type: ReportExchangeResult,
    args: { input: t.arg({ type: ReportExchangeInput, required: true }) },
    description: "A harness's completed exchange: counts it, publishes the session's completion notification and refreshes its label.",
    resolve: (_root, args, ctx) => {
      const producer = requireProducer(ctx.caller, "reportExchange");
      const { personId, ...rest } = args.input;
      return asResult(ReportExchangeResult, () =>
        ctx.services.sessions.reportExchange({ ...rest, personId: personId == null ? personId : String(personId) }, producer.plugin),
      );
    },
  }),
}));
