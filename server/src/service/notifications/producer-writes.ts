// What producers do to notifications: keyed publish, patches by id or key, resolve and expire,
// and the retention sweeps that end many records at once.
import type { Clock } from "../../domain/clock.ts";
import { NotFoundError, ValidationError } from "../../domain/errors.ts";
import { isTerminal } from "../../domain/enums.ts";
import { type Decision, decideExpire, decidePublish, decideResolve, decideUpdate } from "../../domain/lifecycle.ts";
import type { NotificationRecord, Target } from "../../domain/notification.ts";
import type { Holder } from "../../domain/server-instances.ts";
import { validatePatch, validatePatchAsNew, validatePatchTarget, validatePublish, validateReason, validateResolution } from "../../domain/validation.ts";
import type { HeraldObserver } from "../../events/observer.ts";
import type { DirectoryStore } from "../../storage/persons/directory-store.ts";
import type { NotificationTx } from "../../storage/notifications/notification-tx.ts";
import { mustHaveEngagement, mustHavePerson } from "../existence.ts";
import { assertKeyFree, assertOwnPlugin, ownOrNone, sessionVisible } from "../plugin-scope.ts";
import type { PluginScope } from "../producer-rights.ts";
import { ignoreEndedMeanwhile, type NotificationWritePath, YIELD_EVERY, yieldToOtherRequests } from "./write-path.ts";

/** Records expired per transaction when a server's records end. */
const EXPIRE_CHUNK = 100;

export class ProducerWrites {
  constructor(
    private readonly writes: NotificationWritePath,
    private readonly directory: DirectoryStore,
    private readonly clock: Clock,
    private readonly observer: HeraldObserver,
  ) {}

  /** Keyed upsert: a new occurrence, or a new revision of the active one with the same key. */
  async publish(input: unknown, scope: PluginScope = null): Promise<NotificationRecord> {
    const now = this.clock.now();
    const valid = validatePublish(input, now);
    assertOwnPlugin(scope, valid.content.source.plugin, "source.plugin");
    const target = await this.resolveTarget(valid.target, scope);
    if (valid.content.engagementId) await mustHaveEngagement(this.directory, valid.content.engagementId, "engagementId");
    const record = await this.writes.changeAsProducer(async (tx) => {
      const existing = await tx.findActive(target, valid.key);
      assertKeyFree(scope, existing);
      return decidePublish(existing, target, valid.key, valid.content, now);
    });
    this.observer.published(record.source.plugin);
    return record;
  }

  async update(id: string, patch: unknown, scope: PluginScope = null): Promise<NotificationRecord> {
    return this.patch((tx) => tx.findById(id), patch, scope);
  }

  /**
   * Patches the active occurrence of a key, so a heartbeat sends only what changed. When the
   * previous occurrence has ended the patch publishes a new occurrence over its content (a new id,
   * revision 1); when there is none, it does so on its own if it carries a title (and a source,
   * which a bound key's plugin supplies), and is otherwise a NotFoundError, as is an unknown target.
   * For a bound key another plugin's active occurrence is a NotFoundError and its ended ones are
   * as good as absent.
   */
  async updateByKey(target: unknown, patch: unknown, scope: PluginScope = null): Promise<NotificationRecord> {
    const valid = validatePatchTarget(target);
    const now = this.clock.now();
    const engagementId = (patch as { engagementId?: string | null } | null)?.engagementId;
    if (engagementId) await mustHaveEngagement(this.directory, engagementId, "patch.engagementId");
    const resolved = await this.existingTarget(valid.target, scope);
    if (!resolved) throw new NotFoundError();
    const record = await this.writes.changeAsProducer(async (tx) => {
      const active = await tx.findActive(valid.target, valid.key);
      if (active) {
        const current = ownOrNone(scope, active);
        if (!current) throw new NotFoundError();
        const content = validatePatch(current, current, patch, now);
        assertOwnPlugin(scope, content.source.plugin, "patch.source.plugin");
        return decideUpdate(current, content, now);
      }
      const ended = ownOrNone(scope, await tx.findLatest(valid.target, valid.key));
      const content = ended ? validatePatch(ended, resolved, patch, now) : validatePatchAsNew(resolved, patch, now, scope);
      if (!content) throw new NotFoundError();
      assertOwnPlugin(scope, content.source.plugin, "patch.source.plugin");
      return decidePublish(null, resolved, valid.key, content, now);
    });
    if (record.revision === 1) this.observer.published(record.source.plugin);
    return record;
  }

  private async patch(find: (tx: NotificationTx) => Promise<NotificationRecord | null>, patch: unknown, scope: PluginScope): Promise<NotificationRecord> {
    const now = this.clock.now();
    const engagementId = (patch as { engagementId?: string | null } | null)?.engagementId;
    if (engagementId) await mustHaveEngagement(this.directory, engagementId, "patch.engagementId");
    return this.writes.changeAsProducer(async (tx) => {
      const current = ownOrNone(scope, await find(tx));
      if (!current) throw new NotFoundError();
      const content = validatePatch(current, current, patch, now);
      assertOwnPlugin(scope, content.source.plugin, "patch.source.plugin");
      return decideUpdate(current, content, now);
    });
  }

  async resolve(id: string, resolution: unknown, operationId: string | null = null, scope: PluginScope = null): Promise<NotificationRecord> {
    const now = this.clock.now();
    const valid = validateResolution(resolution);
    return this.writes.change(async (tx) => decideResolve(await this.writes.mustFind(tx, id, scope), valid, operationId, now));
  }

  async expire(id: string, reason: unknown, operationId: string | null = null, scope: PluginScope = null): Promise<NotificationRecord> {
    const now = this.clock.now();
    const valid = validateReason(reason);
    return this.writes.change(async (tx) => decideExpire(await this.writes.mustFind(tx, id, scope), valid, operationId, now));
  }

  /** Records by id, for a producer replaying an earlier result (missing ones are left out). */
  async byIds(ids: readonly string[]): Promise<NotificationRecord[]> {
    const records = await Promise.all(ids.map((id) => this.writes.store.findById(id)));
    return records.filter((r): r is NotificationRecord => r !== null);
  }

  /** Expires the active UNTIL_REQUEST_COMPLETE records of a request; returns how many. */
  async completeRequest(requestId: string, scope: PluginScope = null): Promise<number> {
    if (requestId.trim() === "") throw new ValidationError("requestId", "requestId: must not be empty");
    const ids = await this.writes.store.activeIdsWithRetention("UNTIL_REQUEST_COMPLETE", requestId, scope);
    return this.expireAll(ids, "request_complete");
  }

  /**
   * Expires server-lifetime records whose holder has ended, as `due` decides it again inside the
   * transaction (a revision on another instance may have moved one meanwhile); returns how many.
   * Chunked: a clean stop must end thousands within its bound. Listing the candidates is
   * service/server-instance-service.ts's.
   */
  async expireServerLifetime(ids: string[], due: (holder: Holder, now: Date) => boolean): Promise<number> {
    let expired = 0;
    for (let i = 0; i < ids.length; i += EXPIRE_CHUNK) {
      const chunk = ids.slice(i, i + EXPIRE_CHUNK);
      const now = this.clock.now();
      const records = await this.writes.changeMany(async (tx) => {
        const decisions: Decision[] = [];
        for (const record of await tx.findManyByIds(chunk)) {
          if (!isTerminal(record.status) && due(await tx.holderOf(record.id), now)) decisions.push(decideExpire(record, "server_restart", null, now));
        }
        return decisions;
      });
      expired += records.filter((r) => r.status === "EXPIRED").length;
      await yieldToOtherRequests();
    }
    return expired;
  }

  private async expireAll(ids: string[], reason: string): Promise<number> {
    const now = this.clock.now();
    let expired = 0;
    for (const [i, id] of ids.entries()) {
      if (i > 0 && i % YIELD_EVERY === 0) await yieldToOtherRequests();
      const record = await this.writes.change(async (tx) => decideExpire(await this.writes.mustFind(tx, id), reason, null, now)).catch(ignoreEndedMeanwhile);
      if (record?.status === "EXPIRED") expired++;
    }
    return expired;
  }

  /** PERSON needs an existing person; SESSION an existing session, whose owner becomes the reader. */
  /** The target as resolveTarget gives it, or null when its person or session does not exist. */
  private async existingTarget(target: Target, scope: PluginScope): Promise<Target | null> {
    return this.resolveTarget(target, scope).catch((error: unknown) => {
      if (error instanceof ValidationError) return null;
      throw error;
    });
  }

  /** For a bound key another harness's session is as absent as one that does not exist. */
  private async resolveTarget(target: Target, scope: PluginScope): Promise<Target> {
    if (target.scope === "PERSON") await mustHavePerson(this.directory, target.personId!, "personId");
    if (target.scope === "SESSION") {
      const session = await this.directory.findSession(target.sessionId!);
      if (!session || !sessionVisible(scope, session)) throw new ValidationError("sessionId", "sessionId: no such session");
      return { ...target, personId: session.ownerPersonId };
    }
    return target;
  }
}
