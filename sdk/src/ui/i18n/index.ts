// The inbox's one accessor for user-facing text: every SDK component and module reads `t`.
// A second language is a file beside en.ts typed `Messages`; choosing it happens here. The
// dashboard's pages read pages.ts, which adds their text to this.
import { en, type Messages } from "./en.ts";

export type { Messages };

export const t: Messages = en;
