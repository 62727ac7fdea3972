// Action URLs (`POST /actions/<token>`): a follow-up of a delivered notification, acted on from a
// lock screen or a chat app without signing in. The token is the credential: single-use, bound
// to its person, notification, revision and follow-up, valid for 24 hours. It is used up first
// (one statement), so two concurrent uses cannot both act.
import { isTerminal } from "../domain/enums.ts";
import { DomainError, NotFoundError, NotificationTransitionError, RevisionConflictError, ValidationError } from "../domain/errors.ts";
import type { Clock } from "../domain/clock.ts";
import type { DeliveryOutbox } from "../storage/channels/delivery-outbox.ts";
import type { NotificationStore } from "../storage/notifications/notification-store.ts";
import type { InvocationService } from "./invocation-service.ts";
import type { NotificationService } from "./notification-service.ts";

export type ActionLinkResult =
  | { status: 200; outcome: "invoked" | "dismissed"; notificationId: string; invocationId?: string }
  | { status: 400 | 404 | 409 | 410; error: string; field?: string };

/** Tokens look like this; anything else is not looked up. */
const TOKEN_FORM = /^hat_[A-Za-z0-9_-]{43}$/;

export class ActionLinkService {
  constructor(
    private readonly outbox: DeliveryOutbox,
    private readonly notifications: NotificationStore,
    private readonly writes: NotificationService,
    private readonly invocations: InvocationService,
    private readonly clock: Clock,
  ) {}

  async use(token: string, values: unknown): Promise<ActionLinkResult> {
    if (!TOKEN_FORM.test(token)) return { status: 404, error: "unknown action link" };
    const used = await this.outbox.useToken(token, this.clock.now());
    if (!used.ok) {
      if (used.reason === "unknown") return { status: 404, error: "unknown action link" };
      return used.reason === "used" ? { status: 409, error: "this action link was already used" } : { status: 410, error: "this action link has expired" };
    }
    const { personId, notificationId, revision, actionId } = used.token;
    const found = await this.notifications.viewFor(notificationId, personId);
    if (!found) return { status: 410, error: "the notification is gone" };
    const { record, view } = found;
    if (isTerminal(view.status)) return { status: 410, error: "the notification has ended" };
    if (record.revision !== revision) return { status: 409, error: `the notification changed (revision ${record.revision}); open it to act` };
    const action = view.actions.find((a) => a.id === actionId);
    if (!action) return { status: 409, error: "the follow-up is no longer offered" };
    try {
      if (action.kind === "DISMISS") {
        await this.writes.dismiss(personId, notificationId, revision, null);
        return { status: 200, outcome: "dismissed", notificationId };
      }
      const invocation = await this.invocations.invoke(personId, notificationId, actionId, values ?? null, revision);
      return { status: 200, outcome: "invoked", notificationId, invocationId: invocation.id };
    } catch (error) {
      if (error instanceof RevisionConflictError) return { status: 409, error: "the notification changed; open it to act" };
      if (error instanceof NotificationTransitionError) return { status: 410, error: "the notification has ended" };
      if (error instanceof NotFoundError) return { status: 410, error: "the notification is gone" };
      if (error instanceof ValidationError) return { status: 400, error: error.message, field: error.field };
      if (error instanceof DomainError) return { status: 409, error: error.message };
      throw error;
    }
  }
}
