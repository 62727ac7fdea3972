// The dashboard's accessor for user-facing text: the inbox's messages (index.ts) with its own
// pages' (en-pages.ts). A section both have (header, channels, ...) is joined key by key.
import { enPages, type PageMessages } from "./en-pages.ts";
import { t as inbox, type Messages } from "./index.ts";

type Shared = keyof Messages & keyof PageMessages;

export type AllMessages = Omit<Messages, Shared> & Omit<PageMessages, Shared> & { [K in Shared]: Messages[K] & PageMessages[K] };

function joined(a: Messages, b: PageMessages): AllMessages {
  const all: Record<string, unknown> = { ...a, ...b };
  for (const key of Object.keys(b)) if (key in a) all[key] = { ...(a[key as Shared] as object), ...(b[key as Shared] as object) };
  return all as AllMessages;
}

export const t: AllMessages = joined(inbox, enPages);
