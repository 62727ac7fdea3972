// createHeraldClient: every operation a person-side or producer-side integration needs, typed.
import { DismissalCache } from "./dismissal.ts";
import { HeraldNotFoundError, HeraldValidationError } from "./errors.ts";
import { backoffDelay } from "./backoff.ts";
import {
  AcknowledgeActionInvocationDocument,
  ActionInvocationPageDocument,
  ActionInvocationsDocument,
  AddEngagementMemberDocument,
  type AddEngagementMemberInput,
  CompleteRequestDocument,
  CreateEngagementDocument,
  type CreateEngagementInput,
  CreatePersonDocument,
  CreateSessionDocument,
  type CreateSessionInput,
  DismissAllDocument,
  DismissNotificationDocument,
  EmitEventDocument,
  type EmitEventInput,
  EngagementByIdDocument,
  ExpireNotificationDocument,
  InvokeNotificationActionDocument,
  IssuePersonTokenDocument,
  IssueSignInCodeDocument,
  MarkAllNotificationsReadDocument,
  MarkAllNotificationsSeenDocument,
  MarkNotificationsReadDocument,
  MarkNotificationsSeenDocument,
  MarkNotificationsUnreadDocument,
  NotificationByIdDocument,
  NotificationCountsDocument,
  NotificationEventsCursorDocument,
  NotificationEventsDocument,
  NotificationsPageDocument,
  PersonPreferencesDocument,
  PreferencesEventsDocument,
  PublishNotificationDocument,
  PublishObservationDocument,
  ReaderPreferencesDocument,
  UpdatePreferencesDocument,
  type PublishObservationInput,
  RedeemSignInCodeDocument,
  RememberFactDocument,
  ReportExchangeDocument,
  SessionMetadataDocument,
  type RememberFactInput,
  type PublishResultFieldsFragment,
  ResolveNotificationDocument,
  type ResolveResultFieldsFragment,
  SetPersonQuietModeDocument,
  SessionByIdDocument,
  SetQuietModeDocument,
  SignOutDocument,
  SnoozeNotificationDocument,
  UnsnoozeNotificationDocument,
  UpdateNotificationByKeyDocument,
  UpdateNotificationDocument,
  UploadAssetDocument,
  ViewerDocument,
} from "./generated/graphql.ts";
import { LiveView, type LiveViewOptions } from "./live.ts";
import { UiEffectsDispatcher } from "./ui-effects.ts";
import { sharedPreferences, type ShareOptions } from "./shared-stream.ts";
import { type Sink, Transport, type TransportOptions } from "./transport.ts";
import type {
  ActionInvocation,
  ActionInvocationOptions,
  ActionInvocationOutcome,
  Asset,
  Counts,
  DismissResult,
  EmitEventResult,
  Notification,
  NotificationEvent,
  NotificationFilter,
  NotificationPatch,
  NotificationPatchTarget,
  Page,
  PublishNotificationInput,
  PublishResult,
  ReportedExchange,
  ReportExchangeInput,
  ResolutionInput,
  SessionMetadata,
  Preferences,
  PreferencesInput,
} from "./types.ts";

export type HeraldClientOptions = TransportOptions;

export function createHeraldClient(options: HeraldClientOptions): HeraldClient {
  return new HeraldClient(new Transport(options));
}

export class HeraldClient {
  /** Exact-revision dismissals that are hidden locally until the server confirms them. */
  readonly dismissals: DismissalCache;
  /**
   * The connection's one ui-effects dispatcher: every live view of this client reports to it, so
   * an effect runs once per (notification, revision) however many views observe it.
   */
  readonly uiEffects = new UiEffectsDispatcher();

  constructor(private readonly transport: Transport) {
    this.dismissals = new DismissalCache((notification) => this.dismiss(notification));
  }

  // ---- person side ----------------------------------------------------------------------

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
   * Dismisses, for this person only, what they have seen at its current revision; how many
   * changed. "Clear all" in an inbox passes `{ unread: false }`: only what was read goes, so an
   * unread record that was only glanced at stays.
   */
  async dismissAll(filter?: NotificationFilter): Promise<number> {
    return (await this.transport.mutate(DismissAllDocument, { filter: filter ?? null })).dismissAll;
  }

  /**
   * Revokes this client's credential on the server (sign-out): it stops working at once and its open
   * streams end on every instance. False when it was already revoked.
   */
  async signOut(): Promise<boolean> {
    return (await this.transport.mutate(SignOutDocument, {})).signOut;
  }

  /**
   * The person's preferences now, then after every change (in another tab, on another device,
   * or by a producer such as their companion). Returns an unsubscribe function. With `share`, the
   * tabs of this origin with that key hold one preferences stream between them (shared-stream.ts).
   */
  preferences(sink: Sink<Preferences>, options: { share?: ShareOptions | null } = {}): () => void {
    if (options.share) return sharedPreferences(this, options.share)(sink);
    return this.transport.subscribe(PreferencesEventsDocument, {}, {
      next: (data) => sink.next(data.preferencesEvents),
      error: (error) => sink.error(error),
      complete: () => sink.complete(),
    });
  }

  /** Runs a RUN_ACTION follow-up; its producer receives it on `onActionInvocation`. */
  async invokeAction(notificationId: string, actionId: string, values?: unknown): Promise<ActionInvocation> {
    return (await this.transport.mutate(InvokeNotificationActionDocument, { id: notificationId, actionId, values: values ?? null }))
      .invokeNotificationAction;
  }

  /** Where this person's event stream stands now (pass it as `after` to `events`). */
  async eventsCursor(): Promise<string> {
    return (await this.transport.query(NotificationEventsCursorDocument, {})).notificationEventsCursor;
  }

  /** The raw event stream; `after` resumes after a cursor. Returns an unsubscribe function. */
  events(after: string | null, sink: Sink<NotificationEvent>): () => void {
    return this.transport.subscribe(NotificationEventsDocument, { after }, {
      next: (data) => sink.next(data.notificationEvents as NotificationEvent),
      error: (error) => sink.error(error),
      complete: () => sink.complete(),
    });
  }

  /** A list and counts kept current from the event stream (see LiveView). */
  live(filter: NotificationFilter = {}, options: Partial<LiveViewOptions> = {}): LiveView {
    return new LiveView(this, filter, { uiEffects: this.uiEffects, ...options });
  }

  // ---- producer side ---------------------------------------------------------------------

  /** Keyed upsert: a new notification, or a new revision of the active one with this key. */
  async publish(input: PublishNotificationInput): Promise<PublishResult> {
    return publishResult((await this.transport.mutate(PublishNotificationDocument, { input })).publishNotification);
  }

  async update(id: string, patch: NotificationPatch): Promise<PublishResult> {
    return publishResult((await this.transport.mutate(UpdateNotificationDocument, { id, patch })).updateNotification);
  }

  /** Patches the active occurrence of a key (scope target + key) without knowing its id: a heartbeat sends only what changed. */
  async updateByKey(target: NotificationPatchTarget, patch: NotificationPatch): Promise<PublishResult> {
    return publishResult((await this.transport.mutate(UpdateNotificationByKeyDocument, { target, patch })).updateNotificationByKey);
  }

  async resolve(id: string, resolution?: ResolutionInput, operationId?: string): Promise<PublishResult> {
    const { resolveNotification } = await this.transport.mutate(ResolveNotificationDocument, {
      id,
      resolution: resolution ?? null,
      operationId: operationId ?? null,
    });
    return publishResult(resolveNotification);
  }

  async expire(id: string, reason?: string, operationId?: string): Promise<PublishResult> {
    const { expireNotification } = await this.transport.mutate(ExpireNotificationDocument, {
      id,
      reason: reason ?? null,
      operationId: operationId ?? null,
    });
    return publishResult(expireNotification);
  }

  /**
   * Tells Herald what happened in the engine; its listeners decide whom to notify. Unknown
   * types are recorded and notify no one; the same idempotencyKey again returns the first result.
   */
  async emitEvent(input: EmitEventInput): Promise<EmitEventResult> {
    const r = (await this.transport.mutate(EmitEventDocument, { input })).emitEvent;
    if (r.__typename === "ValidationError") throw new HeraldValidationError(r.field, r.message);
    const { __typename: _, ...result } = r;
    return result;
  }

  /**
   * Uploads an attachment (producer key) for DOWNLOAD_ATTACHMENT_ASSET follow-ups: publish with
   * `{ kind: "DOWNLOAD_ATTACHMENT_ASSET", assetId: asset.id, ... }`. Refused with a
   * HeraldValidationError (`file`, `filename`) when it is too large, of a type not accepted or
   * not what `contentType` says; a body far past the limit is refused before it is read (SERVER, 413).
   */
  async uploadAsset(file: Blob | Uint8Array, filename: string, contentType: string): Promise<Asset> {
    const blob = new Blob([file instanceof Uint8Array ? new Uint8Array(file) : file], { type: contentType });
    const { uploadAsset } = await this.transport.upload(UploadAssetDocument, { file: new File([blob], filename, { type: contentType }), filename });
    if (uploadAsset.__typename === "ValidationError") throw new HeraldValidationError(uploadAsset.field, uploadAsset.message);
    const { __typename: _, ...asset } = uploadAsset;
    return asset;
  }

  /** An OBSERVATION offering to remember a fact; Herald handles its “Remember this” and “Not now”. */
  async publishObservation(input: PublishObservationInput): Promise<PublishResult> {
    return publishResult((await this.transport.mutate(PublishObservationDocument, { input })).publishObservation);
  }

  /** A person's quiet mode, for a producer; null when there is no such person. */
  async personQuietMode(personId: string): Promise<boolean | null> {
    return (await this.transport.query(PersonPreferencesDocument, { personId })).personPreferences?.quietMode ?? null;
  }

  /** Turns a person's quiet mode on or off (the companion does it when asked in conversation). */
  async setPersonQuietMode(personId: string, enabled: boolean): Promise<boolean> {
    return (await this.transport.mutate(SetPersonQuietModeDocument, { personId, enabled })).setPersonQuietMode.quietMode;
  }

  /** Expires the active UNTIL_REQUEST_COMPLETE notifications of a request; returns how many. */
  async completeRequest(requestId: string): Promise<number> {
    return (await this.transport.mutate(CompleteRequestDocument, { requestId })).completeRequest;
  }

  async createPerson(name: string): Promise<{ id: string; name: string }> {
    return (await this.transport.mutate(CreatePersonDocument, { name })).createPerson;
  }

  /** A one-time sign-in code for a person (the dashboard serves /signin/<code>). */
  async issueSignInCode(personId: string): Promise<{ code: string; expiresAt: string }> {
    return (await this.transport.mutate(IssueSignInCodeDocument, { personId })).issueSignInCode;
  }

  /** Exchanges a one-time sign-in code for a person token; needs no credential. */
  async redeemSignInCode(code: string): Promise<string> {
    return (await this.transport.mutate(RedeemSignInCodeDocument, { code })).redeemSignInCode.token;
  }

  /** A sign-in token for a person; shown only here. */
  async issuePersonToken(personId: string, name?: string): Promise<string> {
    return (await this.transport.mutate(IssuePersonTokenDocument, { personId, name: name ?? null })).issuePersonToken.token;
  }

  async createSession(input: CreateSessionInput): Promise<{ id: string; harness: string; sessionId: string; label: string }> {
    return (await this.transport.mutate(CreateSessionDocument, { input })).createSession;
  }

  /**
   * An agent harness's completed exchange: counts it (a retried `completionId` changes nothing),
   * notifies the session's owner and refreshes the session's label in the background.
   * Throws HeraldValidationError naming the field for bad input.
   */
  async reportExchange(input: ReportExchangeInput): Promise<ReportedExchange> {
    const { reportExchange: r } = await this.transport.mutate(ReportExchangeDocument, { input });
    if (r.__typename === "ValidationError") throw new HeraldValidationError(r.field, r.message);
    return { duplicate: r.duplicate, session: r.session, notification: r.notification };
  }

  /**
   * A session's label state by its harness and the harness's own session id, or null when absent
   * (or, for a person, not theirs). Generations are decimal strings.
   */
  async sessionMetadata(harness: string, sessionId: string): Promise<SessionMetadata | null> {
    return (await this.transport.query(SessionMetadataDocument, { harness, sessionId })).session;
  }

  async createEngagement(input: CreateEngagementInput): Promise<{ id: string; name: string; operatorPersonId: string }> {
    return (await this.transport.mutate(CreateEngagementDocument, { input })).createEngagement;
  }

  async addEngagementMember(input: AddEngagementMemberInput): Promise<{ engagementId: string; personId: string; role: string }> {
    return (await this.transport.mutate(AddEngagementMemberDocument, { input })).addEngagementMember;
  }

  /** Stores a remembered fact of a person (free text). */
  async rememberFact(input: RememberFactInput): Promise<{ id: string; content: string }> {
    return (await this.transport.mutate(RememberFactDocument, { input })).rememberFact;
  }

  /**
   * Calls `handler` for every RUN_ACTION follow-up a person invokes (optionally only for
   * notifications of one plugin), one at a time, in order. Invocations are stored, so nothing
   * is lost while no producer listens: the stream starts with what is still PENDING (or, given
   * `options.after`, everything behind that cursor), and after a network drop or a server
   * restart it reconnects by itself and resumes behind the last invocation handled. Returns a
   * function that stops listening.
   */
  onActionInvocation(handler: (invocation: ActionInvocation) => void | Promise<void>, options: ActionInvocationOptions = {}): () => void {
    let cursor = options.after ?? null;
    let stopped = false;
    let attempt = 0;
    let unsubscribe: (() => void) | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let generation = 0;
    // Handled strictly one after the other, so the cursor only moves past finished work.
    let queue: Promise<void> = Promise.resolve();
    const backoff = options.backoff ?? { initialMs: 250, maxMs: 10_000 };
    const connect = () => {
      if (stopped) return;
      const mine = ++generation;
      unsubscribe = this.transport.subscribe(ActionInvocationsDocument, { plugin: options.plugin ?? null, after: cursor }, {
        next: (data) => {
          if (mine !== generation) return;
          attempt = 0;
          const invocation = data.actionInvocations;
          queue = queue.then(async () => {
            if (stopped) return;
            try {
              await handler(invocation);
            } catch (error) {
              options.onError?.(error as Error);
            }
            cursor = invocation.cursor;
            options.onCursor?.(invocation.cursor);
          });
        },
        error: (error) => dropped(mine, error),
        complete: () => dropped(mine, new Error("The invocation stream ended")),
      });
    };
    const dropped = (mine: number, error: Error) => {
      if (mine !== generation || stopped) return;
      generation++;
      unsubscribe?.();
      options.onError?.(error);
      // A refused cursor would be refused again: start over from what is still pending.
      if (error instanceof HeraldValidationError) cursor = null;
      attempt++;
      // Reconnect once the handler caught up, so the cursor sent is the last one handled.
      timer = setTimeout(() => void queue.then(connect), backoffDelay(attempt, backoff));
    };
    connect();
    return () => {
      stopped = true;
      generation++;
      if (timer) clearTimeout(timer);
      unsubscribe?.();
    };
  }

  /** A page of invocations for a producer that polls: PENDING ones first, or everything after `after`. */
  async actionInvocations(options: { plugin?: string; after?: string | null; first?: number } = {}): Promise<{ items: ActionInvocation[]; cursor: string; hasMore: boolean }> {
    const variables = { plugin: options.plugin ?? null, after: options.after ?? null, first: options.first ?? null };
    return (await this.transport.query(ActionInvocationPageDocument, variables)).actionInvocations;
  }

  /**
   * Tells Herald (and the person's card) how an invocation went. Repeating the same outcome is
   * harmless; an unknown id throws HeraldNotFoundError, another outcome after the first
   * HeraldValidationError.
   */
  async acknowledgeActionInvocation(id: string, outcome: ActionInvocationOutcome = "ACKNOWLEDGED", message?: string): Promise<ActionInvocation> {
    const r = (await this.transport.mutate(AcknowledgeActionInvocationDocument, { id, outcome, message: message ?? null })).acknowledgeActionInvocation;
    if (r.__typename === "NotFoundError") throw new HeraldNotFoundError(r.message);
    if (r.__typename === "ValidationError") throw new HeraldValidationError(r.field, r.message);
    return r;
  }

  close(): void {
    this.transport.close();
  }
}

function publishResult(r: PublishResultFieldsFragment | ResolveResultFieldsFragment): PublishResult {
  switch (r.__typename) {
    case "Notification":
      return { ok: true, notification: r };
    case "OperationMismatchError":
      return { ok: false, reason: "operation_mismatch", message: r.message, current: r.current };
    case "NotificationTransitionError":
      return { ok: false, reason: "transition", message: r.message, current: r.current };
    case "NotFoundError":
      throw new HeraldNotFoundError(r.message);
    case "ValidationError":
      throw new HeraldValidationError(r.field, r.message);
  }
}
