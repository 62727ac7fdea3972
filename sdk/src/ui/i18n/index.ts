// The dashboard's one accessor for user-facing text: every component and module reads `t`.
// A second language is a file beside en.ts typed `Messages`; choosing it happens here.
import { en, type Messages } from "./en.ts";

export type { Messages };

export const t: Messages = en;
