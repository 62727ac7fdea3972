// What every Herald client shares, whichever credential it holds: the one transport, and the
// calls a person token and a producer key answer alike.
import { SessionMetadataDocument, SignOutDocument } from "./generated/graphql.ts";
import { HeraldNotFoundError, HeraldValidationError } from "./errors.ts";
import type { Transport, TransportOptions } from "./transport.ts";
import type { PublishResult, SessionMetadata } from "./types.ts";
import type { PublishResultFieldsFragment, ResolveResultFieldsFragment } from "./generated/graphql.ts";

export type ClientOptions = TransportOptions;

export abstract class ClientBase {
  constructor(protected readonly transport: Transport) {}

  /**
   * Revokes this client's credential on the server (sign-out): it stops working at once and its open
   * streams end on every instance. False when it was already revoked.
   */
  async signOut(): Promise<boolean> {
    return (await this.transport.mutate(SignOutDocument, {})).signOut;
  }

  /**
   * A session's label state by its harness and the harness's own session id, or null when absent
   * (or, for a person, not theirs). Generations are decimal strings.
   */
  async sessionMetadata(harness: string, sessionId: string): Promise<SessionMetadata | null> {
    return (await this.transport.query(SessionMetadataDocument, { harness, sessionId })).session;
  }

  close(): void {
    this.transport.close();
  }
}

/** A producer write's union answer as a PublishResult; not-found and bad input throw. */
export function publishResult(r: PublishResultFieldsFragment | ResolveResultFieldsFragment): PublishResult {
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
