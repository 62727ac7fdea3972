// What a person does with their channels: register one (a browser push subscription, an ntfy
// topic, a signed webhook), list, change its rules, remove it, send a test; and read the
// deliveries of a notification they see. Every call is bound to the person: another person's
// channel is "not found", never touched.
import { randomBytes, randomUUID } from "node:crypto";
import {
  type Channel,
  type ChannelDelivery,
  type ChannelSecret,
  changedRules,
  checkedChannelUrl,
  checkedKey,
  checkedLabel,
  DEFAULT_RULES,
  MAX_CHANNELS_PER_PERSON,
  MAX_TOKEN_LENGTH,
} from "../domain/channels.ts";
import type { Clock } from "../domain/clock.ts";
import type { NotificationScope, Severity } from "../domain/enums.ts";
import { NotFoundError, ValidationError } from "../domain/errors.ts";
import { visibleTo } from "../domain/notification.ts";
import { ChannelLimitReached, type ChannelStore, DuplicateChannel } from "../storage/channels/channel-store.ts";
import type { DeliveryOutbox, DeliveryWithChannel } from "../storage/channels/delivery-outbox.ts";
import type { NotificationStore } from "../storage/notifications/notification-store.ts";

export interface RulesPatch {
  minSeverity?: Severity | null;
  scopes?: NotificationScope[] | null;
  delaySeconds?: number | null;
}

/** Rings when there is something to send now (a test send): the delivery worker listens. */
export class DeliveryBell {
  private readonly listeners = new Set<() => void>();
  ring(): void {
    for (const listener of this.listeners) listener();
  }
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class ChannelService {
  private readonly allowHosts: ReadonlySet<string>;

  constructor(
    private readonly channels: ChannelStore,
    private readonly outbox: DeliveryOutbox,
    private readonly notifications: NotificationStore,
    private readonly clock: Clock,
    private readonly bell: DeliveryBell,
    options: { allowHosts: readonly string[]; vapidPublicKey: string },
  ) {
    this.allowHosts = new Set(options.allowHosts);
    this.webPushPublicKey = options.vapidPublicKey;
  }

  /** The VAPID public key (base64url, uncompressed P-256) a browser subscribes with. */
  readonly webPushPublicKey: string;

  list(personId: string): Promise<Channel[]> {
    return this.channels.listOf(personId);
  }

  async addWebPush(personId: string, input: { endpoint: string; p256dh: string; auth: string; label?: string | null }): Promise<Channel> {
    const url = checkedChannelUrl(input.endpoint, "input.endpoint", this.allowHosts).href;
    const secret = { kind: "WEB_PUSH" as const, p256dh: checkedKey(input.p256dh, "input.p256dh", 65), auth: checkedKey(input.auth, "input.auth", 16) };
    const label = checkedLabel(input.label, "This device");
    const renewed = await this.channels.renewPushKeys(personId, url, secret, label);
    if (renewed) return renewed;
    return this.add(personId, "WEB_PUSH", label, url, secret, "input.endpoint");
  }

  async addNtfy(personId: string, input: { url: string; token?: string | null; label?: string | null }): Promise<Channel> {
    const url = checkedChannelUrl(input.url, "input.url", this.allowHosts);
    if (url.pathname.split("/").filter(Boolean).length !== 1)
      throw new ValidationError("input.url", "the ntfy URL must be the full topic URL, e.g. https://ntfy.sh/my-topic");
    const token = input.token?.trim() || null;
    if (token !== null && (token.length > MAX_TOKEN_LENGTH || /[\s\r\n]/.test(token)))
      throw new ValidationError("input.token", "token must be a single word of at most 512 characters");
    return this.add(personId, "NTFY", checkedLabel(input.label, `ntfy ${url.pathname.slice(1)}`), url.href, { kind: "NTFY", token }, "input.url");
  }

  async addWebhook(personId: string, input: { url: string; label?: string | null }): Promise<{ channel: Channel; secret: string }> {
    const url = checkedChannelUrl(input.url, "input.url", this.allowHosts);
    // The Standard Webhooks form: whsec_ + base64 of 24 random bytes.
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const channel = await this.add(personId, "WEBHOOK", checkedLabel(input.label, `Webhook ${url.host}`), url.href, { kind: "WEBHOOK", secret }, "input.url");
    return { channel, secret };
  }

  private async add(personId: string, kind: Channel["kind"], label: string, url: string, secret: ChannelSecret, field: string): Promise<Channel> {
    try {
      return await this.channels.add(MAX_CHANNELS_PER_PERSON, { personId, kind, label, url, secret, rules: DEFAULT_RULES, now: this.clock.now() });
    } catch (error) {
      if (error instanceof ChannelLimitReached) throw new ValidationError(field, `a person may register at most ${MAX_CHANNELS_PER_PERSON} channels`);
      if (error instanceof DuplicateChannel) throw new ValidationError(field, "this URL is already one of your channels");
      throw error;
    }
  }

  async setRules(personId: string, id: string, patch: RulesPatch): Promise<Channel> {
    const changed = await this.channels.changeRules(personId, id, (rules) => changedRules(rules, patch));
    if (!changed) throw new NotFoundError("Channel not found");
    return changed;
  }

  remove(personId: string, id: string): Promise<boolean> {
    return this.channels.remove(personId, id);
  }

  /** Queues a `channel.test` delivery, sent at once by the worker; the delivery record says how it went. */
  async test(personId: string, id: string): Promise<ChannelDelivery> {
    const channel = await this.mustOwn(personId, id);
    const delivery = await this.outbox.insertTest(channel, `test.${randomUUID()}`, this.clock.now());
    this.bell.ring();
    return delivery;
  }

  /** One delivery of this person's (a test's progress). */
  async delivery(personId: string, id: string): Promise<ChannelDelivery | null> {
    const delivery = await this.outbox.findById(id);
    return delivery && delivery.personId === personId ? delivery : null;
  }

  /** The person's deliveries of a notification they see; none for one they do not. */
  async deliveriesOf(personId: string, notificationId: string): Promise<DeliveryWithChannel[]> {
    const record = await this.notifications.findById(notificationId);
    if (!record || !visibleTo(personId, record)) return [];
    return this.outbox.ofNotification(notificationId, personId);
  }

  recent(personId: string, limit: number): Promise<ChannelDelivery[]> {
    return this.outbox.recentOf(personId, Math.max(1, Math.min(limit, 100)));
  }

  async findOwn(personId: string, id: string): Promise<Channel | null> {
    return this.channels.findOwn(personId, id);
  }

  private async mustOwn(personId: string, id: string): Promise<Channel> {
    const channel = await this.channels.findOwn(personId, id);
    if (!channel) throw new NotFoundError("Channel not found");
    return channel;
  }
}
