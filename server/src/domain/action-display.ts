// A producer's answer to an invocation may carry a direct display (the immediate result of the
// action, shown to the person once, never stored as a notification) and refresh effects. Both
// follow a notification's display and uiEffects rules; only the defaults differ. Pure.
import type { Presentation, Variant } from "./enums.ts";
import { ValidationError } from "./errors.ts";
import type { JsonObject } from "./json.ts";
import type { Display, FollowUpAction } from "./notification.ts";
import { definedOnly } from "./objects.ts";
import { displaySchema, parse, uiEffectsSchema, validateFollowUps } from "./validation.ts";

/** A direct display without a presentation opens over the page that ran the action. */
export const directDisplayPresentation: Presentation = "MODAL";

/**
 * The display as the person will see it. Left-out fields: TEXT, the invocation's variant (ERROR
 * for a failure), MODAL, closable. One that cannot be closed needs a follow-up that leads on (it
 * would be a dead end), and one with neither title nor body would show nothing.
 */
export function validateActionDisplay(input: unknown, failed: boolean, originVariant: Variant, actions: readonly FollowUpAction[] = []): Display | null {
  if (input === undefined || input === null) return null;
  const given = definedOnly(parse(displaySchema, input, "display")) as Partial<Display>;
  if (given.dismissible === false && !actions.some((a) => a.kind !== "DISMISS")) {
    throw new ValidationError(
      "display.dismissible",
      "display.dismissible: a direct display that cannot be closed needs a follow-up action (other than DISMISS) so it is never a dead end",
    );
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

/**
 * The follow-ups a direct display carries, so a producer's answer can ask the next question:
 * a notification's rules (kinds, forms, limits). They live only on the display: without one there
 * is nowhere to show them. An attachment is not offered, as a download is checked against the
 * notifications that name the asset and a display is none.
 */
export function validateDisplayActions(input: unknown, display: unknown): FollowUpAction[] {
  const actions = validateFollowUps(input, "actions");
  if (actions.length > 0 && (display === undefined || display === null)) {
    throw new ValidationError("actions", "actions: follow-ups are shown on a direct display; send a display with them");
  }
  const asset = actions.findIndex((a) => a.kind === "DOWNLOAD_ATTACHMENT_ASSET");
  if (asset >= 0) {
    throw new ValidationError(`actions.${asset}.kind`, `actions.${asset}.kind: a direct display cannot offer an attachment; publish a notification with it`);
  }
  return actions;
}

/** Known refresh fields checked, unknown ones kept, as for a notification's uiEffects. */
export function validateActionEffects(input: unknown): JsonObject | null {
  return (parse(uiEffectsSchema.nullish(), input, "uiEffects") as JsonObject | null | undefined) ?? null;
}
