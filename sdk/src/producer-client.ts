// ProducerClient: what a producer needs (publish, update, resolve, expire, emit events, uploads,
// action invocations, people and sessions), typed; it holds a producer key (herald_pk_...).
import { HeraldNotFoundError, HeraldValidationError } from "./errors.ts";
import {
  AcknowledgeActionInvocationDocument,
  ActionInvocationPageDocument,
  AddEngagementMemberDocument,
  type AddEngagementMemberInput,
  CompleteRequestDocument,
  CreateEngagementDocument,
  type CreateEngagementInput,
  CreatePersonDocument,
  CreateSessionDocument,
  type CreateSessionInput,
  EmitEventDocument,
  ExpireNotificationDocument,
  IssuePersonTokenDocument,
  IssueSignInCodeDocument,
  PersonPreferencesDocument,
  PublishNotificationDocument,
  PublishObservationDocument,
  RememberFactDocument,
  type RememberFactInput,
  ReportExchangeDocument,
  ResolveNotificationDocument,
  SetPersonQuietModeDocument,
  UpdateNotificationByKeyDocument,
  UpdateNotificationDocument,
  UploadAssetDocument,
} from "./generated/graphql.ts";
import { ClientBase, type ClientOptions, publishResult } from "./client-base.ts";
import { followActionInvocations } from "./invocation-stream.ts";
import { Transport } from "./transport.ts";
import type {
  ActionInvocation,
  ActionInvocationOptions,
  ActionInvocationOutcome,
  AcknowledgeOptions,
  Asset,
  EmitEventInput,
  EmitEventResult,
  NotificationPatch,
  NotificationPatchTarget,
  PublishNotificationInput,
  PublishObservationInput,
  PublishResult,
  ReportedExchange,
  ReportExchangeInput,
  ResolutionInput,
} from "./types.ts";

export type ProducerClientOptions = ClientOptions;

export function createProducerClient(options: ProducerClientOptions): ProducerClient {
  return new ProducerClient(new Transport(options));
}

export class ProducerClient extends ClientBase {
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
    return followActionInvocations(this.transport, handler, options);
  }

  /** A page of invocations for a producer that polls: PENDING ones first, or everything after `after`. */
  async actionInvocations(
    options: { plugin?: string; after?: string | null; first?: number } = {},
  ): Promise<{ items: ActionInvocation[]; cursor: string; hasMore: boolean }> {
    const variables = { plugin: options.plugin ?? null, after: options.after ?? null, first: options.first ?? null };
    return (await this.transport.query(ActionInvocationPageDocument, variables)).actionInvocations;
  }

  /**
   * Tells Herald (and the person's card) how an invocation went, optionally with a direct display
   * of the result (MODAL unless `display.presentation` says otherwise) and refresh effects for the
   * page that ran the action; a string is the message alone. Repeating the same outcome is
   * harmless; an unknown id throws HeraldNotFoundError, bad input or another outcome after the
   * first HeraldValidationError naming the field (e.g. `display.body`).
   */
  async acknowledgeActionInvocation(
    id: string,
    outcome: ActionInvocationOutcome = "ACKNOWLEDGED",
    options: string | AcknowledgeOptions = {},
  ): Promise<ActionInvocation> {
    const { message, display, actions, uiEffects } = typeof options === "string" ? { message: options } : options;
    const variables = { id, outcome, message: message ?? null, display: display ?? null, actions: actions ?? null, uiEffects: uiEffects ?? null };
    const r = (await this.transport.mutate(AcknowledgeActionInvocationDocument, variables)).acknowledgeActionInvocation;
    if (r.__typename === "NotFoundError") throw new HeraldNotFoundError(r.message);
    if (r.__typename === "ValidationError") throw new HeraldValidationError(r.field, r.message);
    return r;
  }
}
