// Issues, checks and revokes credentials. Secrets are shown once, at creation, and stored as
// digests. Their visible prefix names their kind, so a wrong-kind use gets a precise error.
import { randomBytes } from "node:crypto";
import type { Clock } from "../domain/clock.ts";
import { ForbiddenError, UnauthenticatedError } from "../domain/errors.ts";
import { validateName, validatePluginName } from "../domain/validation.ts";
import type { EventBus } from "../events/bus.ts";
import type { CredentialKind, CredentialStore, SignInCodeStore } from "../storage/persons/credential-store.ts";
import type { DirectoryStore } from "../storage/persons/directory-store.ts";
import type { Caller } from "./caller.ts";
import { CredentialCache } from "./credential-cache.ts";
import { mustHavePerson } from "./existence.ts";

export const credentialPrefix: Record<CredentialKind, string> = {
  PERSON_TOKEN: "herald_pt_",
  PRODUCER_KEY: "herald_pk_",
};
const SIGN_IN_CODE_PREFIX = "herald_sc_";
/** How long a printed sign-in link works (once). */
export const SIGN_IN_CODE_TTL_MS = 24 * 60 * 60 * 1000;

export interface IssuedCredential {
  id: string;
  kind: CredentialKind;
  /** Shown exactly once. */
  secret: string;
}

export class AuthService {
  private readonly cache: CredentialCache;

  constructor(
    private readonly credentials: CredentialStore,
    private readonly signInCodes: SignInCodeStore,
    private readonly directory: DirectoryStore,
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {
    this.cache = new CredentialCache(clock);
    // Revocations on other instances (and this one's own, if the bus echoes them) evict at once.
    bus.subscribe((message) => {
      if (message.kind === "revoked" && Array.isArray(message.credentialIds)) this.cache.evict(message.credentialIds);
    });
  }

  /** A one-time code for a sign-in link; it becomes a person token when redeemed. */
  async issueSignInCode(personId: string): Promise<{ code: string; expiresAt: Date }> {
    await mustHavePerson(this.directory, personId, "personId");
    const code = SIGN_IN_CODE_PREFIX + randomBytes(32).toString("base64url");
    const expiresAt = new Date(this.clock.now().getTime() + SIGN_IN_CODE_TTL_MS);
    await this.signInCodes.create(personId, code, expiresAt);
    return { code, expiresAt };
  }

  /** Exchanges a sign-in code (once, before it expires) for a new person token. */
  async redeemSignInCode(code: string): Promise<IssuedCredential> {
    const personId = code.startsWith(SIGN_IN_CODE_PREFIX) ? await this.signInCodes.redeem(code, this.clock.now()) : null;
    if (!personId) throw new UnauthenticatedError("The sign-in link is unknown, used or expired");
    return this.issue("PERSON_TOKEN", "sign-in link", personId);
  }

  async issuePersonToken(personId: string, name = "person token"): Promise<IssuedCredential> {
    await mustHavePerson(this.directory, personId, "personId");
    return this.issue("PERSON_TOKEN", validateName(name), personId);
  }

  /** Without `plugin` an admin key; with it a key bound to that plugin (service/producer-rights.ts). */
  async issueProducerKey(name: string, plugin: string | null = null): Promise<IssuedCredential> {
    return this.issue("PRODUCER_KEY", validateName(name), null, plugin === null ? null : validatePluginName(plugin));
  }

  /**
   * Revokes by id or visible prefix; returns how many were revoked. Every instance hears of it on
   * the bus and ends the credential's open streams (revokedAmong is the safety net for a lost message).
   */
  async revoke(idOrPrefix: string): Promise<number> {
    const ids = await this.credentials.revoke(idOrPrefix, this.clock.now());
    this.cache.evict(ids);
    if (ids.length > 0) this.bus.publish({ kind: "revoked", credentialIds: ids });
    return ids.length;
  }

  /** Sign-out: the caller's own credential stops working, here and on every instance. */
  async revokeOwn(caller: Caller): Promise<boolean> {
    return (await this.revoke(caller.credentialId)) > 0;
  }

  /** Which of these credentials no longer work. */
  async revokedAmong(credentialIds: readonly string[]): Promise<string[]> {
    const revoked = await this.credentials.revokedAmong(credentialIds);
    this.cache.evict(revoked);
    return revoked;
  }

  /** Turns an Authorization header into a caller, or refuses. */
  async authenticate(authorization: string | null | undefined): Promise<Caller> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) throw new UnauthenticatedError("Send Authorization: Bearer <person token or producer key>");
    const key = CredentialCache.keyOf(match[1]!);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const generation = this.cache.generation;
    const caller = await this.lookUp(match[1]!);
    this.cache.set(key, caller, generation);
    return caller;
  }

  private async lookUp(secret: string): Promise<Caller> {
    const row = await this.credentials.findBySecret(secret);
    if (!row || row.revokedAt) throw new UnauthenticatedError("The credential is unknown or revoked");
    if (row.kind === "PERSON_TOKEN" && row.personId) return { kind: "person", personId: row.personId, credentialId: row.id };
    if (row.kind === "PRODUCER_KEY") return { kind: "producer", credentialId: row.id, name: row.name, plugin: row.plugin };
    // Anything else is a malformed row: never let it fall through to producer rights.
    throw new UnauthenticatedError("The credential is unknown or revoked");
  }

  private async issue(kind: CredentialKind, name: string, personId: string | null, plugin: string | null = null): Promise<IssuedCredential> {
    const secret = credentialPrefix[kind] + randomBytes(32).toString("base64url");
    const prefix = secret.slice(0, credentialPrefix[kind].length + 6);
    const row = await this.credentials.create({ kind, name, secret, prefix, personId, plugin });
    return { id: row.id, kind, secret };
  }
}

/** Any credential will do: a person token or a producer key. */
export function requireCaller(caller: Caller | null): Caller {
  if (!caller) throw new UnauthenticatedError("Send Authorization: Bearer <person token or producer key>");
  return caller;
}

export function requirePerson(caller: Caller | null): Extract<Caller, { kind: "person" }> {
  if (!caller) throw new UnauthenticatedError("Sign in with a person token");
  if (caller.kind !== "person") throw new ForbiddenError("This operation needs a person token; a producer key was given");
  return caller;
}
