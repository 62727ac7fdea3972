// The shape of the listeners that tell an engagement's operator about their own work.
import { engineEventId, type EmittedEvent, payloadText, requireEngagement } from "../../domain/event-input.ts";
import { ValidationError } from "../../domain/errors.ts";
import type { EventListener, ListenerContext, Raise } from "../../service/listener-registry.ts";

export function operatorListener(name: string, type: string, message: (subject: string, engagement: string) => { title: string; body: string }): EventListener {
  return {
    name,
    type,
    async notify(event: EmittedEvent, context: ListenerContext): Promise<Raise[]> {
      const triggerRef = engineEventId(event);
      const engagement = await context.engagement(requireEngagement(event));
      if (!engagement) throw new ValidationError("engagementId", "engagementId: no such engagement");
      const text = message(payloadText(event, "name", "your work"), engagement.name);
      return [{ personId: engagement.operatorPersonId, triggerRef, engagementId: engagement.id, severity: "SUCCESS", ...text }];
    },
  };
}
