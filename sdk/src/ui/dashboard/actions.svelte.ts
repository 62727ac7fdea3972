// What the person does to notifications: each request disables the record's buttons while it
// runs, lays its result over every list, and says what happened (or why not).
import { type PersonClient, HeraldValidationError, type Notification } from "@herald/sdk";
import { sentenceFor } from "../errors.ts";
import { absoluteTime } from "../format.ts";
import type { Connection } from "./connection.svelte.ts";
import type { Messages } from "./messages.svelte.ts";
import type { Overrides } from "./overrides.svelte.ts";
import type { UndoQueue } from "./undo.svelte.ts";
import { t } from "../i18n/index.ts";

type Action = Notification["actions"][number];

/** An observation's “Remember this”: Herald itself stores the fact, no producer is involved. */
const REMEMBER_FACT_ACTION = "herald.rememberFact";

export class PersonActions {
  /** "Waiting for <producer>" notices by notification id: they go once the producer answers. */
  private readonly waiting = new Map<string, number>();

  constructor(
    private readonly connection: Connection,
    private readonly overrides: Overrides,
    private readonly messages: Messages,
    private readonly undo: UndoQueue,
  ) {}

  async markSeen(ids: readonly string[]): Promise<void> {
    const client = this.connection.client;
    if (!client || ids.length === 0) return;
    try {
      for (const n of await client.markSeen(ids)) this.overrides.record(n);
    } catch (error) {
      // Not worth a message: they stay unseen and are marked the next time they are shown.
      this.connection.noteFailure(error);
    }
  }

  /**
   * The person opened or acted on them (a follow-up link, a copy, a download): read, quietly. A
   * failure is not worth a message; they stay unread and can be marked by hand.
   */
  async markRead(ids: readonly string[]): Promise<void> {
    const client = this.connection.client;
    if (!client || ids.length === 0) return;
    try {
      for (const n of await client.markRead(ids)) this.overrides.record(n);
    } catch (error) {
      this.connection.noteFailure(error);
    }
  }

  /** "Mark as read" / "Mark as unread" on a card. */
  async setRead(n: Notification, read: boolean): Promise<void> {
    await this.act(n, async (client) => {
      const [changed] = read ? await client.markRead([n.id]) : await client.markUnread([n.id]);
      if (changed) this.overrides.record(changed);
      else {
        this.overrides.gone.add(n.id);
        this.messages.notify(t.actions.gone(n.display.title));
      }
    });
  }

  /**
   * Gone from every list at once, with Undo; sent (revision-checked) when the undo window closes,
   * since a dismissal is terminal on the server.
   */
  dismiss(n: Notification): void {
    const { overrides } = this;
    if (overrides.busy.has(n.id) || overrides.hidden.has(n.id)) return;
    overrides.hidden.add(n.id);
    this.undo.offer(
      t.actions.dismissed(n.display.title),
      () => {
        overrides.hidden.delete(n.id);
        this.messages.announce(t.actions.restored(n.display.title));
      },
      async () => {
        await this.sendDismissal(n);
        overrides.hidden.delete(n.id);
      },
    );
  }

  /**
   * Mutes a source plugin until `until` (null: until unmuted), with Undo; sent when the undo
   * window closes, as a dismissal is. The preferences stream then takes its notifications out of
   * the lists (viewer.svelte.ts).
   */
  mute(plugin: string, until: Date | null): void {
    this.undo.offer(
      t.actions.muted(plugin, until ? absoluteTime(until) : null),
      () => this.messages.announce(t.actions.muteUndone(plugin)),
      async () => {
        const client = this.connection.client;
        if (!client) return;
        try {
          await client.mutePlugin(plugin, until);
        } catch (error) {
          this.messages.notify(sentenceFor(error), "error");
        }
      },
    );
  }

  /**
   * "Clear all": what the person has read leaves the lists at once, with Undo; the server
   * dismisses it (for this person, what they read) when the window closes.
   */
  clearRead(listed: readonly Notification[]): void {
    const client = this.connection.client;
    if (!client) return;
    const ids = listed.filter((n) => n.readAt !== null && !this.overrides.hidden.has(n.id)).map((n) => n.id);
    if (ids.length === 0) {
      this.messages.notify(t.bulk.nothingToClear);
      return;
    }
    for (const id of ids) this.overrides.hidden.add(id);
    const filter = { ...this.connection.filter, unread: false };
    this.undo.offer(
      t.bulk.cleared(ids.length),
      () => {
        for (const id of ids) this.overrides.hidden.delete(id);
        this.messages.announce(t.bulk.restored(ids.length));
      },
      async () => {
        try {
          await client.dismissAll(filter);
          await this.connection.main?.view.refresh();
        } catch (error) {
          this.fail(error);
        } finally {
          for (const id of ids) this.overrides.hidden.delete(id);
        }
      },
    );
  }

  /** Revision-checked: a record that changed meanwhile is shown, not dismissed. */
  private async sendDismissal(n: Notification): Promise<void> {
    const { overrides, messages } = this;
    await this.act(n, async (client) => {
      const result = await client.dismiss(n);
      if (result.ok) {
        overrides.record(result.notification);
        overrides.conflicts.delete(n.id);
      } else if (result.reason === "conflict") {
        overrides.record(result.current);
        const changedTitle = result.current.display.title !== n.display.title ? t.actions.renamed(result.current.display.title) : "";
        const message = t.actions.conflict(n.display.title, n.revision, result.current.revision, changedTitle);
        overrides.conflicts.set(n.id, { revision: result.current.revision, message });
        messages.announce(message);
      } else if (result.reason === "transition") {
        overrides.record(result.current);
        messages.notify(t.actions.alreadyTerminal(n.display.title, result.current.status));
      } else {
        overrides.gone.add(n.id);
        messages.notify(t.actions.gone(n.display.title));
      }
    });
  }

  async snooze(n: Notification, until: Date): Promise<void> {
    if (until.getTime() <= Date.now()) {
      this.messages.notify(t.actions.snoozeInPast, "error");
      return;
    }
    await this.act(n, async (client) => {
      this.overrides.record(await client.snooze(n.id, until));
      this.messages.notify(t.actions.snoozed(n.display.title, absoluteTime(until)));
    });
  }

  async unsnooze(n: Notification): Promise<void> {
    await this.act(n, async (client) => {
      this.overrides.record(await client.unsnooze(n.id));
      this.messages.notify(t.actions.unsnoozed(n.display.title));
    });
  }

  /**
   * A RUN_ACTION follow-up (Cancel included), with its form's values. The invocation is stored
   * and its card shows it pending until the producer acknowledges it. A value the server refuses
   * comes back as { field, message } (field: the form field's name) for the form to show.
   */
  async invoke(n: Notification, action: Action, values?: Record<string, unknown>): Promise<{ field: string; message: string } | null> {
    let refused: { field: string; message: string } | null = null;
    const client = this.connection.client;
    if (!client) return null;
    this.overrides.busy.add(n.id);
    try {
      const invocation = await client.invokeAction(n.id, action.id, values);
      const { id, state, outcomeMessage, display, actions, uiEffects } = invocation;
      this.overrides.record({ ...n, lastInvocation: { __typename: "ActionInvocation", id, state, outcomeMessage, display, actions, uiEffects } });
      if (action.actionId === REMEMBER_FACT_ACTION) this.messages.notify(t.actions.remembered);
      else if (state === "PENDING") this.waiting.set(n.id, this.messages.notify(t.actions.waiting(action.label, n.source.plugin)));
    } catch (error) {
      if (error instanceof HeraldValidationError && error.field.startsWith("values.")) {
        refused = { field: error.field.slice("values.".length), message: error.message.replace(/^values\.[^:]+: /, "") };
      } else this.fail(error);
    } finally {
      this.overrides.busy.delete(n.id);
    }
    return refused;
  }

  /**
   * A RUN_ACTION follow-up of a direct display (`invocationId`: the answer that offered it), run
   * on the display's notification; its answer arrives as a display of its own. A value the server
   * refuses comes back as { field, message } as for a notification's form.
   */
  async invokeFromDisplay(
    notificationId: string,
    invocationId: string,
    action: Action,
    values?: Record<string, unknown>,
  ): Promise<{ field: string; message: string } | null> {
    const client = this.connection.client;
    if (!client) return null;
    try {
      const invocation = await client.invokeAction(notificationId, action.id, values, invocationId);
      if (invocation.state === "PENDING") this.waiting.set(notificationId, this.messages.notify(t.actions.waiting(action.label, invocation.plugin)));
      return null;
    } catch (error) {
      if (error instanceof HeraldValidationError && error.field.startsWith("values.")) {
        return { field: error.field.slice("values.".length), message: error.message.replace(/^values\.[^:]+: /, "") };
      }
      this.fail(error);
      return null;
    }
  }

  /** A producer answered one of this page's follow-ups (or it ended): its waiting notice goes. */
  answered(notificationId: string): void {
    const notice = this.waiting.get(notificationId);
    if (notice === undefined) return;
    this.waiting.delete(notificationId);
    this.messages.close(notice);
  }

  async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.messages.notify(t.actions.copied);
    } catch {
      // Clipboard API refused (e.g. plain http on another host): fall back to a selection copy.
      const area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.append(area);
      area.select();
      const copied = document.execCommand("copy");
      area.remove();
      if (copied) this.messages.notify(t.actions.copied);
      else this.messages.notify(t.actions.copyRefused, "error");
    }
  }

  /** A failed request the person should hear about. */
  fail(error: unknown): void {
    this.connection.noteFailure(error);
    this.messages.notify(sentenceFor(error), "error");
  }

  /** One request about `n`: its buttons are disabled meanwhile, and a failure is shown. */
  private async act(n: Notification, request: (client: PersonClient) => Promise<void>): Promise<void> {
    const client = this.connection.client;
    if (!client) return;
    this.overrides.busy.add(n.id);
    try {
      await request(client);
    } catch (error) {
      this.fail(error);
    } finally {
      this.overrides.busy.delete(n.id);
    }
  }
}
