// Direct action displays: a producer's answer to an action this page ran, shown once as its
// presentation says (MODAL a dialog, BANNER a banner, INLINE a notice) and closed here only.
// The SDK client delivers each answer once and only to the client that invoked the action, so a
// reload or another tab never shows it again (docs/decisions.md, "Direct action displays"); its
// effects run there too, through the client's ui-effects dispatcher.
import type { ActionResponse, Display, HeraldClient } from "@herald/sdk";
import type { Messages } from "./messages.svelte.ts";

export interface ShownDisplay {
  /** The invocation's id: one display per answer. */
  id: string;
  display: Display;
}

export class ActionDisplays {
  /** MODAL displays waiting their turn, oldest first; the first is open. */
  modals = $state<ShownDisplay[]>([]);
  banners = $state<ShownDisplay[]>([]);

  constructor(private readonly messages: Messages) {}

  /** Browser only: listens to the client's answers; returns the cleanup. */
  start(client: HeraldClient): () => void {
    return client.actionResponses.subscribe((response) => this.show(response));
  }

  show(response: ActionResponse): void {
    const { display } = response;
    if (!display) return;
    const shown = { id: response.invocationId, display };
    if (display.presentation === "MODAL") this.modals = [...this.modals, shown];
    else if (display.presentation === "BANNER") this.banners = [shown, ...this.banners];
    else this.messages.notify([display.title, display.body].filter(Boolean).join(": "), display.variant === "ERROR" ? "error" : "info");
  }

  closeModal(): void {
    this.modals = this.modals.slice(1);
  }

  closeBanner(id: string): void {
    this.banners = this.banners.filter((b) => b.id !== id);
  }
}
