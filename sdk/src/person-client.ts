// PersonClient: what a person-facing app needs (lists, counts, seen/read/dismiss, snooze, reader
// controls, live views and streams), typed; it holds a person token (herald_pt_...).
import { ActionResponses } from "./action-responses.ts";
import { DismissalCache } from "./dismissal.ts";
import { HeraldNotFoundError, HeraldValidationError } from "./errors.ts";
import {
  AddNtfyChannelDocument,
  AddWebhookChannelDocument,
  AddWebPushChannelDocument,
  ChannelDeliveryByIdDocument,
  type ChannelFieldsFragment,
  type ChannelDeliveryFieldsFragment,
  type ChannelRulesInput,
  NotificationDeliveriesDocument,
  RemoveChannelDocument,
  SetChannelRulesDocument,
  TestChannelDocument,
  ViewerChannelsDocument,
  WebPushPublicKeyDocument,
  DismissAllDocument,
  DismissNotificationDocument,
  EngagementByIdDocument,
  InvokeNotificationActionDocument,
  MarkAllNotificationsReadDocument,
  MarkAllNotificationsSeenDocument,
  MarkNotificationsReadDocument,
  MarkNotificationsSeenDocument,
  MarkNotificationsUnreadDocument,
  MutePluginDocument,
  NotificationByIdDocument,
  NotificationCountsDocument,
  NotificationEventsCursorDocument,
  NotificationEventsDocument,
  NotificationsPageDocument,
  PreferencesEventsDocument,
  ReaderPreferencesDocument,
  RedeemSignInCodeDocument,
  SessionByIdDocument,
  SetQuietModeDocument,
  SnoozeNotificationDocument,
  UnmutePluginDocument,
  UnsnoozeNotificationDocument,
  UpdatePreferencesDocument,
  ViewerDocument,
} from "./generated/graphql.ts";
import { ClientBase, type ClientOptions } from "./client-base.ts";
import { LiveView, type LiveViewOptions } from "./live.ts";
import { UiEffectsDispatcher } from "./ui-effects.ts";
import { sharedPreferences, type ShareOptions } from "./shared-stream.ts";
import { type Sink, Transport } from "./transport.ts";
import type {
  ActionInvocation,
  Counts,
  DismissResult,
  Notification,
  NotificationEvent,
  NotificationFilter,
  Page,
  Preferences,
  PreferencesInput,
} from "./types.ts";

export type PersonClientOptions = ClientOptions;
export type Channel = ChannelFieldsFragment;
export type ChannelDelivery = ChannelDeliveryFieldsFragment;

export function createPersonClient(options: PersonClientOptions): PersonClient {
  return new PersonClient(new Transport(options));
}

export class PersonClient extends ClientBase {
  /** Exact-revision dismissals that are hidden locally until the server confirms them. */
  readonly dismissals: DismissalCache;
  /**
   * The connection's one ui-effects dispatcher: every live view of this client reports to it, so
   * an effect runs once per (notification, revision) however many views observe it.
   */
  readonly uiEffects = new UiEffectsDispatcher();
  /**
   * Producers' answers to the actions this client ran (invokeAction), each delivered once with
   * its direct display; their effects run through `uiEffects`. Needs a live view to observe them.
   */
  readonly actionResponses = new ActionResponses(this.uiEffects);

  constructor(transport: Transport) {
    super(transport);
    this.dismissals = new DismissalCache((notification) => this.dismiss(notification));
  }

  /** The person, with their reader controls (quiet mode, muted plugins, severity floor, quiet hours). */
  async viewer(): Promise<{ id: string; name: string; quietMode: boolean; preferences: Preferences }> {
    const { viewer } = await this.transport.query(ViewerDocument, {});
    return { id: viewer.id, name: viewer.name, quietMode: viewer.preferences.quietMode, preferences: viewer.preferences };
  }

  /** One page, newest first. `after` is the `nextCursor` of the previous page. */
  async page(options: { first?: number; after?: string | null; filter?: NotificationFilter } = {}): Promise<Page> {
    const { notifications } = await this.transport.query(NotificationsPageDocument, {
      first: options.first ?? 20,
      after: options.after ?? null,
      filter: options.filter ?? null,
    });
    return {
      items: notifications.edges.map((e) => e.node),
      totalCount: notifications.totalCount,
      nextCursor: notifications.pageInfo.hasNextPage ? (notifications.pageInfo.endCursor ?? null) : null,
      hasNextPage: notifications.pageInfo.hasNextPage,
    };
  }

  /** Every notification matching the filter, page after page. */
  async *all(options: { pageSize?: number; filter?: NotificationFilter } = {}): AsyncGenerator<Notification> {
    let after: string | null = null;
    do {
      const page: Page = await this.page({ first: options.pageSize ?? 100, after, filter: options.filter ?? {} });
      yield* page.items;
      after = page.nextCursor;
    } while (after !== null);
  }

  /** Null when absent or not visible to this person. */
  async get(id: string): Promise<Notification | null> {
    return (await this.transport.query(NotificationByIdDocument, { id })).notification;
  }

  /** One of this person's sessions by Herald's id; null when absent or someone else's. */
  async session(id: string): Promise<{ id: string; harness: string; sessionId: string; label: string } | null> {
    return (await this.transport.query(SessionByIdDocument, { id })).sessionById;
  }

  /** An engagement this person is a member of; null when absent or not theirs. */
  async engagement(id: string): Promise<{ id: string; name: string } | null> {
    return (await this.transport.query(EngagementByIdDocument, { id })).engagement;
  }

  async counts(filter?: NotificationFilter): Promise<Counts> {
    const { notificationCounts } = await this.transport.query(NotificationCountsDocument, { filter: filter ?? null });
    return { total: notificationCounts.total, unseen: notificationCounts.unseen, unread: notificationCounts.unread };
  }

  /** Marks a batch seen; returns the ones visible to the person. */
  async markSeen(ids: readonly string[]): Promise<Notification[]> {
    if (ids.length === 0) return [];
    return (await this.transport.mutate(MarkNotificationsSeenDocument, { ids: [...ids] })).markNotificationsSeen;
  }

  /** Returns how many changed. */
  async markAllSeen(filter?: NotificationFilter): Promise<number> {
    return (await this.transport.mutate(MarkAllNotificationsSeenDocument, { filter: filter ?? null })).markAllNotificationsSeen;
  }

  /** Marks a batch read (opened or acted on; read implies seen); returns the ones visible to the person. */
  async markRead(ids: readonly string[]): Promise<Notification[]> {
    if (ids.length === 0) return [];
    return (await this.transport.mutate(MarkNotificationsReadDocument, { ids: [...ids] })).markNotificationsRead;
  }

  /** Marks a batch unread again (seen stays); returns the ones visible to the person. */
  async markUnread(ids: readonly string[]): Promise<Notification[]> {
    if (ids.length === 0) return [];
    return (await this.transport.mutate(MarkNotificationsUnreadDocument, { ids: [...ids] })).markNotificationsUnread;
  }

  /** Marks read whatever the filtered list holds unread; returns how many changed. */
  async markAllRead(filter?: NotificationFilter): Promise<number> {
    return (await this.transport.mutate(MarkAllNotificationsReadDocument, { filter: filter ?? null })).markAllNotificationsRead;
  }

  /**
   * Dismisses the revision the caller saw. If the notification changed meanwhile nothing is
   * dismissed and the result carries the current record (`reason: "conflict"`).
   */
  async dismiss(notification: Pick<Notification, "id" | "revision">, reason?: string): Promise<DismissResult> {
    const { dismissNotification: r } = await this.transport.mutate(DismissNotificationDocument, {
      id: notification.id,
      expectedRevision: notification.revision,
      reason: reason ?? null,
    });
    switch (r.__typename) {
      case "Notification":
        return { ok: true, notification: r };
      case "RevisionConflictError":
        return { ok: false, reason: "conflict", message: r.message, current: r.current };
      case "NotificationTransitionError":
        return { ok: false, reason: "transition", message: r.message, current: r.current };
      case "NotFoundError":
        return { ok: false, reason: "not_found", message: r.message };
      case "ValidationError":
        throw new HeraldValidationError(r.field, r.message);
    }
  }

  async snooze(id: string, until: Date): Promise<Notification> {
    return (await this.transport.mutate(SnoozeNotificationDocument, { id, until: until.toISOString() })).snoozeNotification;
  }

  async unsnooze(id: string): Promise<Notification> {
    return (await this.transport.mutate(UnsnoozeNotificationDocument, { id })).unsnoozeNotification;
  }

  // ---- channels: reaching the person away from the dashboard ----

  /** The person's channels and their latest deliveries (newest first). */
  async channels(): Promise<{ channels: Channel[]; recentDeliveries: ChannelDelivery[] }> {
    const { viewer } = await this.transport.query(ViewerChannelsDocument, {});
    return { channels: viewer.channels, recentDeliveries: viewer.recentDeliveries };
  }

  /** The VAPID public key (base64url) for `pushManager.subscribe({ applicationServerKey })`. */
  async webPushPublicKey(): Promise<string> {
    return (await this.transport.query(WebPushPublicKeyDocument, {})).webPushPublicKey;
  }

  /** Registers a browser push subscription (`subscription.toJSON()`'s endpoint and keys). Bad input throws HeraldValidationError. */
  async addWebPushChannel(input: { endpoint: string; p256dh: string; auth: string; label?: string | null }): Promise<Channel> {
    const { addWebPushChannel: r } = await this.transport.mutate(AddWebPushChannelDocument, { input });
    if (r.__typename === "ValidationError") throw new HeraldValidationError(r.field, r.message);
    return r;
  }

  /** Registers an ntfy topic URL (and its access token, never returned). */
  async addNtfyChannel(input: { url: string; token?: string | null; label?: string | null }): Promise<Channel> {
    const { addNtfyChannel: r } = await this.transport.mutate(AddNtfyChannelDocument, { input });
    if (r.__typename === "ValidationError") throw new HeraldValidationError(r.field, r.message);
    return r;
  }

  /** Registers a webhook; `secret` (whsec_...) is shown this once. */
  async addWebhookChannel(input: { url: string; label?: string | null }): Promise<{ channel: Channel; secret: string }> {
    const { addWebhookChannel: r } = await this.transport.mutate(AddWebhookChannelDocument, { input });
    if (r.__typename === "ValidationError") throw new HeraldValidationError(r.field, r.message);
    return { channel: r.channel, secret: r.secret };
  }

  /** Changes a channel's rules (absent fields stay). */
  async setChannelRules(id: string, rules: ChannelRulesInput): Promise<Channel> {
    const { setChannelRules: r } = await this.transport.mutate(SetChannelRulesDocument, { id, rules });
    if (r.__typename === "ValidationError") throw new HeraldValidationError(r.field, r.message);
    if (r.__typename === "NotFoundError") throw new HeraldNotFoundError(r.message);
    return r;
  }

  /** True when the channel was the person's and is gone now. */
  async removeChannel(id: string): Promise<boolean> {
    return (await this.transport.mutate(RemoveChannelDocument, { id })).removeChannel;
  }

  /** Queues a test send; follow it with `channelDelivery(id)`. */
  async testChannel(id: string): Promise<ChannelDelivery> {
    return (await this.transport.mutate(TestChannelDocument, { id })).testChannel;
  }

  /** One of the person's deliveries (a test send's progress); null when absent. */
  async channelDelivery(id: string): Promise<ChannelDelivery | null> {
    return (await this.transport.query(ChannelDeliveryByIdDocument, { id })).channelDelivery;
  }

  /** Where a notification went for this person. */
  async notificationDeliveries(notificationId: string): Promise<ChannelDelivery[]> {
    return (await this.transport.query(NotificationDeliveriesDocument, { id: notificationId })).notification?.deliveries ?? [];
  }

  async setQuietMode(enabled: boolean): Promise<boolean> {
    return (await this.transport.mutate(SetQuietModeDocument, { enabled })).setQuietMode.quietMode;
  }

  /** The person's reader controls: quiet mode, muted plugins, severity floor, quiet hours. */
  async readerPreferences(): Promise<Preferences> {
    return (await this.transport.query(ReaderPreferencesDocument, {})).viewer.preferences;
  }

  /**
   * Changes the given reader controls (absent fields stay; `quietHours: null` removes the
   * schedule). Muted and below-floor notifications are listed but never pushed; quiet hours hold
   * pushes like quiet mode. Bad input throws HeraldValidationError naming the field.
   */
  async updatePreferences(input: PreferencesInput): Promise<Preferences> {
    return (await this.transport.mutate(UpdatePreferencesDocument, { input })).updatePreferences;
  }

  /**
   * Mutes a source plugin until `until` (absent or null: until unmuted), replacing a mute of it
   * already set. Its new notifications are listed but never pushed live nor sent to channels; a
   * mute with an end stops by itself then. Bad input (an `until` not in the future, more than
   * 100 muted plugins) throws HeraldValidationError naming the field.
   */
  async mutePlugin(plugin: string, until?: Date | null): Promise<Preferences> {
    return (await this.transport.mutate(MutePluginDocument, { plugin, until: until ? until.toISOString() : null })).mutePlugin;
  }

  /** Ends the mute of a source plugin (not muted: nothing changes). */
  async unmutePlugin(plugin: string): Promise<Preferences> {
    return (await this.transport.mutate(UnmutePluginDocument, { plugin })).unmutePlugin;
  }

  /**
   * Dismisses, for this person only, what they have seen at its current revision; how many
   * changed. "Clear all" in an inbox passes `{ unread: false }`: only what was read goes, so an
   * unread record that was only glanced at stays.
   */
  async dismissAll(filter?: NotificationFilter): Promise<number> {
    return (await this.transport.mutate(DismissAllDocument, { filter: filter ?? null })).dismissAll;
  }

  /**
   * The person's preferences now, then after every change (in another tab, on another device,
   * or by a producer such as their companion). Returns an unsubscribe function. With `share`, the
   * tabs of this origin with that key hold one preferences stream between them (shared-stream.ts).
   */
  preferences(sink: Sink<Preferences>, options: { share?: ShareOptions | null } = {}): () => void {
    if (options.share) return sharedPreferences(this, options.share)(sink);
    return this.transport.subscribe(
      PreferencesEventsDocument,
      {},
      {
        next: (data) => sink.next(data.preferencesEvents),
        error: (error) => sink.error(error),
        complete: () => sink.complete(),
      },
    );
  }

  /**
   * Runs a RUN_ACTION follow-up; its producer receives it on `onActionInvocation`. Its answer
   * comes to `actionResponses` listeners once it settles. `invocationId`: the follow-up is one of
   * that earlier invocation's direct display (`ActionResponse.actions`), not the notification's.
   */
  async invokeAction(notificationId: string, actionId: string, values?: unknown, invocationId?: string): Promise<ActionInvocation> {
    const variables = { id: notificationId, actionId, values: values ?? null, invocationId: invocationId ?? null };
    const invocation = (await this.transport.mutate(InvokeNotificationActionDocument, variables)).invokeNotificationAction;
    this.actionResponses.await(notificationId, invocation);
    return invocation;
  }

  /** Where this person's event stream stands now (pass it as `after` to `events`). */
  async eventsCursor(): Promise<string> {
    return (await this.transport.query(NotificationEventsCursorDocument, {})).notificationEventsCursor;
  }

  /** The raw event stream; `after` resumes after a cursor. Returns an unsubscribe function. */
  events(after: string | null, sink: Sink<NotificationEvent>): () => void {
    return this.transport.subscribe(
      NotificationEventsDocument,
      { after },
      {
        next: (data) => sink.next(data.notificationEvents as NotificationEvent),
        error: (error) => sink.error(error),
        complete: () => sink.complete(),
      },
    );
  }

  /** A list and counts kept current from the event stream (see LiveView). */
  live(filter: NotificationFilter = {}, options: Partial<LiveViewOptions> = {}): LiveView {
    return new LiveView(this, filter, { uiEffects: this.uiEffects, actionResponses: this.actionResponses, ...options });
  }

  /** Exchanges a one-time sign-in code for a person token; needs no credential. */
  async redeemSignInCode(code: string): Promise<string> {
    return (await this.transport.mutate(RedeemSignInCodeDocument, { code })).redeemSignInCode.token;
  }
}
