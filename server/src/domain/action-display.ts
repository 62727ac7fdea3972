// A producer's answer to an invocation may carry a direct display (the immediate result of the
// action, shown to the person once, never stored as a notification) and refresh effects. Both
// follow a notification's display and uiEffects rules; only the defaults differ. Pure.
import type { Presentation, Variant } from "./enums.ts";
import { ValidationError } from "./errors.ts";
import type { JsonObject } from "./json.ts";
import type { Display } from "./notification.ts";
import { definedOnly } from "./objects.ts";
import { displaySchema, parse, uiEffectsSchema } from "./validation.ts";

/** A direct display without a presentation opens over the page that ran the action. */
export const directDisplayPresentation: Presentation = "MODAL";

/**
 * The display as the person will see it. Left-out fields: TEXT, the invocation's variant (ERROR
 * for a failure), MODAL, closable. It has no follow-up actions, so one that cannot be closed would
 * be a dead end, and one with neither title nor body would show nothing.
 */
export function validateActionDisplay(input: unknown, failed: boolean, originVariant: Variant): Display | null {
  if (input === undefined || input === null) return null;
  const given = definedOnly(parse(displaySchema, input, "display")) as Partial<Display>;
  if (given.dismissible === false) {
    throw new ValidationError("display.dismissible", "display.dismissible: a direct display has no follow-up actions, so it must be closable");
  }
  const shown: Display = {
    format: "TEXT",
    title: "",
    body: "",
    variant: failed ? "ERROR" : originVariant,
    presentation: directDisplayPresentation,
    dismissible: true,
    ...given,
  };
  if (shown.title.trim() === "" && shown.body.trim() === "") {
    throw new ValidationError("display.body", "display.body: a display needs a title or a body");
  }
  return shown;
}

/** Known refresh fields checked, unknown ones kept, as for a notification's uiEffects. */
export function validateActionEffects(input: unknown): JsonObject | null {
  return (parse(uiEffectsSchema.nullish(), input, "uiEffects") as JsonObject | null | undefined) ?? null;
}
