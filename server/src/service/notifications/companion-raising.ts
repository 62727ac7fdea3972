// Notifications Herald raises itself (the scanner, event listeners) at most once per trigger and
// person, and the observations it offers to remember.
import { createHash } from "node:crypto";
import type { Clock } from "../../domain/clock.ts";
import { companionKeyOf, dedupKeyOf } from "../../domain/companion.ts";
import { ValidationError } from "../../domain/errors.ts";
import { type Decision, decidePublish } from "../../domain/lifecycle.ts";
import { activeKeyOf, type NotificationRecord, type Target } from "../../domain/notification.ts";
import { validatePublish } from "../../domain/validation.ts";
import type { HeraldObserver } from "../../events/observer.ts";
import type { Raise } from "../listener-registry.ts";
import type { PluginScope } from "../producer-rights.ts";
import type { ProducerWrites } from "./producer-writes.ts";
import type { NotificationWritePath } from "./write-path.ts";

/** A notification Herald raises itself, on the scanner's or an event listener's behalf. */
export interface RaiseInput extends Raise {
  triggerType: "TIME_BASED" | "EVENT_BASED";
  /** What the ref is unique within (domain/companion.ts): an event type, or a scan. */
  triggerSource: string;
  /** Which part of Herald raised it (source.subsystem; source.plugin is "herald"). */
  subsystem: string;
}

/** The RUN_ACTION target Herald handles itself: an observation's "Remember this". */
export const REMEMBER_FACT_ACTION = "herald.rememberFact";

const MAX_FACT_LENGTH = 2_000;

export interface ObservationInput {
  personId: string;
  fact: unknown;
  title?: string | null;
  body?: string | null;
  key?: string | null;
  engagementId?: string | null;
  source: { plugin: string; subsystem?: string | null };
}

type CreateDecision = Extract<Decision, { kind: "create" }>;

export class CompanionRaising {
  constructor(
    private readonly writes: NotificationWritePath,
    private readonly producers: ProducerWrites,
    private readonly clock: Clock,
    private readonly observer: HeraldObserver,
  ) {}

  /**
   * Raises a notification for a trigger unless that trigger already fired for the person (in
   * any state since): the store's unique dedupKey decides, so parallel calls create one.
   */
  async raise(input: RaiseInput): Promise<{ record: NotificationRecord; created: boolean }> {
    const now = this.clock.now();
    const key = companionKeyOf(input.triggerSource, input.triggerRef);
    const valid = validatePublish(raisedPublish(input, key), now);
    const dedupKey = dedupKeyOf(input.personId, input.triggerSource, input.triggerRef);
    let created = false;
    const record = await this.writes.change(async (tx) => {
      const fired = await tx.findByDedupKey(dedupKey);
      if (fired) {
        created = false;
        return { kind: "none", current: fired };
      }
      const decision = decidePublish(await tx.findActive(valid.target, key), valid.target, key, valid.content, now);
      created = decision.kind === "create";
      return decision.kind === "create" ? { ...decision, dedupKey } : decision;
    });
    if (created) this.observer.published(record.source.plugin);
    return { record, created };
  }

  /**
   * raise() for many triggers at once (the scanner's batches): one transaction writes the new
   * rows and their events with a statement each, instead of a transaction of 8-9 statements per
   * notification; the events are published after it commits. Triggers that fired before (or
   * twice in `inputs`) are skipped. The unique dedupKey still decides races: a batch that
   * collides with another instance's write is retried whole and then skips what the other wrote.
   * Returns how many notifications were created.
   */
  async raiseMany(inputs: readonly RaiseInput[]): Promise<number> {
    const now = this.clock.now();
    const byDedupKey = new Map<string, { input: RaiseInput; target: Target; key: string; content: ReturnType<typeof validatePublish>["content"] }>();
    for (const input of inputs) {
      const dedupKey = dedupKeyOf(input.personId, input.triggerSource, input.triggerRef);
      if (byDedupKey.has(dedupKey)) continue;
      const key = companionKeyOf(input.triggerSource, input.triggerRef);
      const valid = validatePublish(raisedPublish(input, key), now);
      byDedupKey.set(dedupKey, { input, target: valid.target, key, content: valid.content });
    }
    if (byDedupKey.size === 0) return 0;
    // A producer may hold an active record under a companion key (unlikely, but allowed): those
    // are decided one by one by raise(), which revises it like a publish would.
    const oneByOne: RaiseInput[] = [];
    const applied = await this.writes.write(async (tx) => {
      oneByOne.length = 0;
      await tx.claimWriter();
      const fired = await tx.firedDedupKeys([...byDedupKey.keys()]);
      const fresh = [...byDedupKey].filter(([dedupKey]) => !fired.has(dedupKey));
      const active = await tx.activeKeysAmong(fresh.map(([, r]) => activeKeyOf(r.target, r.key)));
      const creates = [];
      for (const [dedupKey, r] of fresh) {
        if (active.has(activeKeyOf(r.target, r.key))) oneByOne.push(r.input);
        else creates.push({ ...(decidePublish(null, r.target, r.key, r.content, now) as CreateDecision), dedupKey });
      }
      return tx.createMany(creates);
    });
    for (const { record } of applied) this.observer.published(record.source.plugin);
    let created = applied.length;
    for (const input of oneByOne) if ((await this.raise(input)).created) created++;
    return created;
  }

  /**
   * An OBSERVATION: Herald noticed something and offers to remember it. "Remember this" stores
   * the fact and resolves the notification (Herald does it, no producer needs to be connected);
   * "Not now" dismisses it. Publishing the same fact again updates the open offer in place.
   */
  async publishObservation(input: ObservationInput, scope: PluginScope = null): Promise<NotificationRecord> {
    const fact = typeof input.fact === "string" ? input.fact.trim() : "";
    if (fact === "" || fact.length > MAX_FACT_LENGTH) {
      throw new ValidationError("fact", `fact: must be 1-${MAX_FACT_LENGTH} characters`);
    }
    const key = input.key ?? `observation:${createHash("sha256").update(fact).digest("hex").slice(0, 24)}`;
    return this.producers.publish(
      {
        scope: "PERSON",
        personId: input.personId,
        key,
        title: input.title ?? "Shall I remember this?",
        body: input.body ?? `I noticed: “${fact}”`,
        source: input.source,
        engagementId: input.engagementId,
        trigger: { type: "OBSERVATION", ref: key },
        actions: [
          { kind: "RUN_ACTION", id: "remember", label: "Remember this", actionId: REMEMBER_FACT_ACTION, fixedParams: { fact } },
          { kind: "DISMISS", id: "not-now", label: "Not now" },
        ],
      },
      scope,
    );
  }
}

/** The publish input of a notification Herald raises itself. */
function raisedPublish(input: RaiseInput, key: string) {
  return {
    scope: "PERSON",
    personId: input.personId,
    key,
    title: input.title,
    body: input.body,
    severity: input.severity ?? "INFO",
    source: { plugin: "herald", subsystem: input.subsystem },
    trigger: { type: input.triggerType, ref: input.triggerRef },
    engagementId: input.engagementId,
  };
}
