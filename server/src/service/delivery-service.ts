// Sends the outbox (docs/channels.md): claims due deliveries under a lease, decides at send time
// whether each is still wanted (seen, ended, replaced, snoozed, quiet), sends it once through its
// channel's sender, and records the outcome: sent, tried again later with backoff, failed, or the
// push subscription removed. Only the delivery worker (background/delivery-worker.ts) calls run().
import { createHmac, randomUUID } from "node:crypto";
import {
  ACTION_TOKEN_TTL_MS,
  actionableFollowUps,
  type AttemptOutcome,
  type Channel,
  type ChannelDelivery,
  type ChannelPayload,
  type ChannelSecret,
  retryDelayMs,
} from "../domain/channels.ts";
import type { Clock } from "../domain/clock.ts";
import { isTerminal } from "../domain/enums.ts";
import type { NotificationRecord } from "../domain/notification.ts";
import { pushVerdict } from "../domain/preferences.ts";
import type { ChannelStore } from "../storage/channels/channel-store.ts";
import type { DeliveryOutbox, DeliveryUpdate } from "../storage/channels/delivery-outbox.ts";
import type { NotificationStore } from "../storage/notifications/notification-store.ts";
import { personView, type ViewReads } from "../storage/notifications/person-view.ts";
import type { DirectoryService } from "./directory-service.ts";
import type { GuardOptions } from "./channels/guarded-request.ts";
import { attempt, type SendContext } from "./channels/senders.ts";
import type { VapidKeys } from "./channels/vapid.ts";
import { VapidAuthorizations } from "./channels/vapid-authorization.ts";

export interface DeliveryOptions {
  maxAttempts: number;
  retryBaseMs: number;
  /** Deliveries sent at once (and claimed per batch). */
  concurrency: number;
  /** How long a claim is this instance's; past it another instance may take the delivery over. */
  leaseMs: number;
  /** How long a delivery held by quiet hours waits before it is looked at again. */
  holdRecheckMs: number;
  dashboardUrl: string;
  vapid: VapidKeys;
  vapidSubject: string;
  guard: GuardOptions;
  /** Key the action tokens are derived from (a server setting). */
  actionKey: Buffer;
  /** Random in [0, 1) for the retry jitter (tests fix it). */
  random?: () => number;
}

/** Logs what a delivery did, without its URL or secrets. */
export type DeliveryLog = (event: { deliveryId: string; channelId: string; kind: string; outcome: string; error?: string }) => void;

export class DeliveryService {
  /** This instance as a lease holder. */
  readonly holder = randomUUID();
  /** Where action URLs point: the server's public base URL (set when it starts serving). */
  private actionBaseUrl = "";
  private readonly random: () => number;
  private readonly vapid: VapidAuthorizations;

  constructor(
    private readonly outbox: DeliveryOutbox,
    private readonly channels: ChannelStore,
    private readonly notifications: NotificationStore,
    private readonly directory: DirectoryService,
    private readonly clock: Clock,
    private readonly options: DeliveryOptions,
    private readonly log: DeliveryLog = () => undefined,
  ) {
    this.random = options.random ?? Math.random;
    this.vapid = new VapidAuthorizations(options.vapid, options.vapidSubject);
  }

  setActionBaseUrl(url: string): void {
    this.actionBaseUrl = url.replace(/\/+$/, "");
  }

  /** Claims one batch of due deliveries and settles each; how many it claimed. */
  async run(): Promise<number> {
    const now = this.clock.now().getTime();
    const claimed = await this.outbox.claim(this.holder, now, now + this.options.leaseMs, this.options.concurrency);
    if (claimed.length === 0) return 0;
    const channels = await this.channels.findMany(claimed.map((d) => d.channelId));
    // A fan-out's batch is many persons' deliveries of one notification: read it once per batch.
    const records = new Map<string, Promise<NotificationRecord | null>>();
    const reads: ViewReads = {
      findById: (id) => records.get(id) ?? records.set(id, this.notifications.findById(id)).get(id)!,
      findReceipt: (id, personId) => this.notifications.findReceipt(id, personId),
    };
    await Promise.all(claimed.map((d) => this.deliver(d, channels.get(d.channelId), reads)));
    return claimed.length;
  }

  /** Runs batches until nothing is due (tests and the benchmark; the worker loops on run()). */
  async drain(): Promise<number> {
    let total = 0;
    for (let n = await this.run(); n > 0; n = await this.run()) total += n;
    return total;
  }

  /** Quiet mode ended: what it held is due now. */
  releaseHeld(personId: string): Promise<number> {
    return this.outbox.releaseHeld(personId, this.clock.now().getTime());
  }

  /** Finished deliveries past `retentionMs` and expired action tokens go. */
  async prune(retentionMs: number): Promise<void> {
    const now = this.clock.now();
    await this.outbox.prune(new Date(now.getTime() - retentionMs), 1_000);
    await this.outbox.pruneTokens(now);
  }

  private async deliver(delivery: ChannelDelivery, found: { channel: Channel; secret: ChannelSecret } | undefined, reads: ViewReads): Promise<void> {
    try {
      if (!found) return void (await this.settle(delivery, { status: "SKIPPED", attempts: delivery.attempts, lastError: "the channel was removed" }));
      const now = this.clock.now();
      const decided = await this.decide(delivery, found.channel, now, reads);
      if ("status" in decided) return void (await this.settle(delivery, decided));
      const outcome = await attempt(found.channel, found.secret, delivery.id, decided.payload, this.sendContext(now));
      await this.record(delivery, found.channel, outcome);
    } catch (error) {
      // A store hiccup: the lease runs out and the delivery is taken up again.
      this.log({ deliveryId: delivery.id, channelId: delivery.channelId, kind: found?.channel.kind ?? "?", outcome: "error", error: (error as Error).message });
    }
  }

  /** Whether the delivery is still wanted now, and its payload if so (tokens for its action URLs stored first). */
  private async decide(delivery: ChannelDelivery, channel: Channel, now: Date, reads: ViewReads): Promise<DeliveryUpdate | { payload: ChannelPayload }> {
    const skip = (reason: string): DeliveryUpdate => ({ status: "SKIPPED", attempts: delivery.attempts, lastError: reason });
    const hold = (until: number, reason: string): DeliveryUpdate => ({
      status: "PENDING",
      attempts: delivery.attempts,
      lastError: `held: ${reason}`,
      dueAt: until,
    });
    if (delivery.type === "channel.test" || delivery.notificationId === null) return { payload: this.testPayload(channel) };
    const found = await personView(reads, delivery.notificationId, delivery.personId);
    if (!found) return skip("the notification is gone");
    const { record, view } = found;
    if (isTerminal(view.status)) return skip(`${view.status.toLowerCase()} before it was sent`);
    if (record.revision !== delivery.revision) return skip(`replaced by revision ${record.revision}`);
    if (view.status === "SEEN") return skip("seen before it was sent");
    if (view.snoozedUntil && view.snoozedUntil.getTime() > now.getTime()) return hold(view.snoozedUntil.getTime(), "snoozed");
    const verdict = pushVerdict(await this.directory.preferences(delivery.personId), view, now);
    if (verdict === "mute") return skip("muted by the person's reader controls");
    if (verdict === "hold") return hold(now.getTime() + this.options.holdRecheckMs, "quiet");
    return { payload: await this.payloadOf(delivery, view, now) };
  }

  private async payloadOf(delivery: ChannelDelivery, record: NotificationRecord, now: Date): Promise<ChannelPayload> {
    const followUps = actionableFollowUps(record.actions);
    const expiresAt = new Date(now.getTime() + ACTION_TOKEN_TTL_MS);
    const tokens = followUps.map((f) => ({ ...f, token: this.actionToken(delivery.id, f.id) }));
    await this.outbox.rememberTokens(
      tokens.map((t) => ({ token: t.token, personId: delivery.personId, notificationId: record.id, revision: record.revision, actionId: t.id, expiresAt })),
      now,
    );
    return {
      type: delivery.type,
      notificationId: record.id,
      revision: record.revision,
      title: record.title,
      body: record.body,
      severity: record.severity,
      scope: record.scope,
      url: `${this.options.dashboardUrl}/?notification=${encodeURIComponent(record.id)}`,
      actions: tokens.map((t) => ({ id: t.id, label: t.label, url: `${this.actionBaseUrl}/actions/${t.token}` })),
    };
  }

  private testPayload(channel: Channel): ChannelPayload {
    return {
      type: "channel.test",
      notificationId: null,
      revision: 0,
      title: "Herald test",
      body: `This is how Herald reaches you on "${channel.label}".`,
      severity: "INFO",
      scope: null,
      url: `${this.options.dashboardUrl}/settings`,
      actions: [],
    };
  }

  /**
   * A follow-up's action token: derived from the delivery with the server's key, so a retried
   * delivery carries the same token (stored once, as a digest) and nobody without the key can make one.
   */
  private actionToken(deliveryId: string, actionId: string): string {
    return `hat_${createHmac("sha256", this.options.actionKey).update(`${deliveryId}\n${actionId}`).digest("base64url")}`;
  }

  private async record(delivery: ChannelDelivery, channel: Channel, outcome: AttemptOutcome): Promise<void> {
    const attempts = delivery.attempts + 1;
    const now = this.clock.now();
    this.log({
      deliveryId: delivery.id,
      channelId: channel.id,
      kind: channel.kind,
      outcome: outcome.kind,
      ...(outcome.kind === "sent" ? {} : { error: outcome.error }),
    });
    switch (outcome.kind) {
      case "sent":
        if (await this.settle(delivery, { status: "SENT", attempts, sentAt: now })) await this.channels.markSent(channel.id, now);
        return;
      case "retry":
        if (attempts >= this.options.maxAttempts) {
          await this.settle(delivery, { status: "FAILED", attempts, lastError: `${outcome.error} (gave up after ${attempts} attempts)` });
          await this.channels.markFailing(channel.id);
          return;
        }
        await this.settle(delivery, {
          status: "PENDING",
          attempts,
          lastError: outcome.error,
          dueAt: now.getTime() + retryDelayMs(attempts, this.options.retryBaseMs, outcome.retryAfterMs, this.random()),
        });
        return;
      case "gone":
        await this.settle(delivery, { status: "FAILED", attempts, lastError: outcome.error });
        await this.channels.removeGone(channel.id);
        return;
      case "failed":
        await this.settle(delivery, { status: "FAILED", attempts, lastError: outcome.error });
        await this.channels.markFailing(channel.id);
        return;
    }
  }

  private settle(delivery: ChannelDelivery, update: DeliveryUpdate): Promise<boolean> {
    return this.outbox.settle(delivery.id, this.holder, update);
  }

  private sendContext(now: Date): SendContext {
    return { guard: this.options.guard, vapid: this.vapid, now };
  }
}
