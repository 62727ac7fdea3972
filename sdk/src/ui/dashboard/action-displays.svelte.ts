// Direct action displays: a producer's answer to an action this page ran, shown once as its
// presentation says (MODAL a dialog, BANNER a banner, INLINE a notice) and closed here only.
// The SDK client delivers each answer once and only to the client that invoked the action, so a
// reload or another tab never shows it again (docs/decisions.md, "Direct action displays"); its
// effects run there too, through the client's ui-effects dispatcher.
import type { ActionResponse, Display, PersonClient } from "@herald/sdk";
import type { Messages } from "./messages.svelte.ts";

export interface ShownDisplay {
  /** The invocation's id: one display per answer. */
  id: string;
  /** The notification the action ran on: a follow-up of the display runs on it too. */
  notificationId: string;
  display: Display;
  /** The display's follow-ups: a producer's answer asking the next question. */
  actions: ActionResponse["actions"];
}

export class ActionDisplays {
  /** MODAL displays waiting their turn, oldest first; the first is open. */
  modals = $state<ShownDisplay[]>([]);
  banners = $state<ShownDisplay[]>([]);

  constructor(private readonly messages: Messages) {}

  /** Browser only: listens to the client's answers; returns the cleanup. */
  start(client: PersonClient): () => void {
    return client.actionResponses.subscribe((response) => this.show(response));
  }

  show(response: ActionResponse): void {
    const { display } = response;
    if (!display) return;
    const shown = { id: response.invocationId, notificationId: response.notificationId, display, actions: response.actions };
    if (display.presentation === "MODAL") this.modals = [...this.modals, shown];
    else if (display.presentation === "BANNER") this.banners = [shown, ...this.banners];
    else this.messages.notify([display.title, display.body].filter(Boolean).join(": "), display.variant === "ERROR" ? "error" : "info");
  }

  closeModal(): void {
    this.modals = this.modals.slice(1);
  }

  /** Closes whichever display this is (a follow-up was run from it: its answer comes as a display of its own). */
  close(id: string): void {
    if (this.modals[0]?.id === id) this.closeModal();
    else this.closeBanner(id);
  }

  closeBanner(id: string): void {
    this.banners = this.banners.filter((b) => b.id !== id);
  }
}
