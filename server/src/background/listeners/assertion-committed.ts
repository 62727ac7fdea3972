// Someone added to an engagement: every other member hears who added what.
import { engineEventId, type EmittedEvent, payloadText, requireEngagement } from "../../domain/event-input.ts";
import { ValidationError } from "../../domain/errors.ts";
import type { EventListener, ListenerContext, Raise } from "../../service/listener-registry.ts";

export const assertionCommitted: EventListener = {
  name: "contribution-added",
  type: "assertion.committed",
  async notify(event: EmittedEvent, context: ListenerContext): Promise<Raise[]> {
    const triggerRef = engineEventId(event);
    const engagement = await context.engagement(requireEngagement(event));
    if (!engagement) throw new ValidationError("engagementId", "engagementId: no such engagement");
    const actor = event.actorPersonId ? await context.personName(event.actorPersonId) : null;
    const who = actor ?? "Someone";
    const summary = payloadText(event, "summary", "");
    const members = await context.members(engagement.id);
    return members
      .filter((m) => m.personId !== event.actorPersonId)
      .map((m) => ({
        personId: m.personId,
        triggerRef,
        engagementId: engagement.id,
        title: `${who} added something to ${engagement.name}`,
        body: summary ? `${who} added: “${summary}”` : `${who} added a new piece to ${engagement.name}.`,
      }));
  },
};
