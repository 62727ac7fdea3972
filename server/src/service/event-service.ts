// emitEvent: validate, let the registered listeners decide, record the event, then raise their
// notifications through NotificationService (the one change path). Unknown types are recorded
// and notify no one. Idempotency keys are each producer key's own: a repeated key with the same
// body returns the first result and changes nothing; with another body it is a ValidationError.
import { createHash } from "node:crypto";
import type { Clock } from "../domain/clock.ts";
import { ValidationError } from "../domain/errors.ts";
import { eventBody, validateEmitEvent } from "../domain/event-input.ts";
import type { NotificationRecord } from "../domain/notification.ts";
import { eventTriggerSource } from "../domain/companion.ts";
import type { CompanionStore, RecordedEvent } from "../storage/companion/companion-store.ts";
import type { DirectoryStore } from "../storage/persons/directory-store.ts";
import { mustHaveEngagement, mustHavePerson } from "./existence.ts";
import type { ListenerContext, ListenerRegistry } from "./listener-registry.ts";
import type { NotificationService } from "./notification-service.ts";

export interface EmitResult {
  eventId: string;
  type: string;
  /** Names of the listeners that ran. */
  listeners: string[];
  /** Notifications this event created (none when every trigger had fired before). */
  notifications: NotificationRecord[];
  /** True when the idempotencyKey was seen before: this is the first call's result. */
  duplicate: boolean;
}

export class EventService {
  private readonly context: ListenerContext;

  constructor(
    private readonly store: CompanionStore,
    private readonly directory: DirectoryStore,
    private readonly registry: ListenerRegistry,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
  ) {
    this.context = {
      engagement: (id) => directory.findEngagement(id),
      members: (id) => directory.engagementMembers(id),
      personName: async (id) => (await directory.findPerson(id))?.name ?? null,
    };
  }

  /** `producerId`: the emitting producer key, whose idempotency keys these are. */
  async emit(input: unknown, producerId: string): Promise<EmitResult> {
    const now = this.clock.now();
    const event = validateEmitEvent(input, now);
    const occurredAtGiven = (input as { occurredAt?: unknown } | null)?.occurredAt != null;
    const bodyDigest = createHash("sha256").update(eventBody(event, occurredAtGiven)).digest("hex");
    if (event.engagementId) await mustHaveEngagement(this.directory, event.engagementId, "engagementId");
    if (event.actorPersonId) await mustHavePerson(this.directory, event.actorPersonId, "actorPersonId");
    if (event.idempotencyKey) {
      const prior = await this.store.findEvent(producerId, event.idempotencyKey);
      if (prior) return this.replay(prior, bodyDigest);
    }
    const listeners = this.registry.listenersFor(event.type);
    const raises = (await Promise.all(listeners.map((l) => l.notify(event, this.context)))).flat();
    const recorded = await this.store.recordEvent({
      type: event.type,
      payload: JSON.stringify(event.payload),
      engagementId: event.engagementId,
      actorPersonId: event.actorPersonId,
      occurredAt: event.occurredAt,
      receivedAt: now,
      idempotencyKey: event.idempotencyKey,
      producerId,
      bodyDigest,
    });
    // A parallel call with the same idempotencyKey recorded it first: that call does the work.
    if (!recorded) return this.replay((await this.store.findEvent(producerId, event.idempotencyKey!))!, bodyDigest);
    const created: NotificationRecord[] = [];
    for (const raise of raises) {
      const result = await this.notifications.raise({
        ...raise,
        triggerType: "EVENT_BASED",
        triggerSource: eventTriggerSource(event.type),
        subsystem: "events",
      });
      if (result.created) created.push(result.record);
    }
    const names = listeners.map((l) => l.name);
    await this.store.completeEvent(
      recorded.id,
      names,
      created.map((r) => r.id),
    );
    return { eventId: recorded.id, type: event.type, listeners: names, notifications: created, duplicate: false };
  }

  private async replay(prior: RecordedEvent, bodyDigest: string): Promise<EmitResult> {
    if (prior.bodyDigest !== bodyDigest) {
      throw new ValidationError("idempotencyKey", "idempotencyKey: already used by this producer key for a different event");
    }
    return {
      eventId: prior.id,
      type: prior.type,
      listeners: prior.listeners,
      notifications: await this.notifications.byIds(prior.notificationIds),
      duplicate: true,
    };
  }
}
