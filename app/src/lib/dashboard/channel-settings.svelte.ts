// Settings, "Notify me elsewhere": the person's channels with their rules, test sends and recent
// deliveries, added, changed and removed through the SDK. A webhook's signing secret comes back
// once, from addWebhookChannel: it is kept here only until the person closes it, and never stored.
import { type Channel, HeraldValidationError } from "@herald/sdk";
import { ChannelList, type ChannelDelivery } from "@herald/sdk/ui/dashboard/channels.svelte.ts";
import { sentenceFor } from "@herald/sdk/ui/errors.ts";

export type { Channel, ChannelDelivery };
export type ChannelRules = Omit<Channel["rules"], "__typename">;

/** A failure to show beside the form that caused it, with the field Herald named. */
export interface FormError {
  field: string | null;
  message: string;
}

export function formError(error: unknown): FormError {
  return error instanceof HeraldValidationError ? { field: error.field, message: error.message } : { field: null, message: sentenceFor(error) };
}

/** How long a test send is followed before the page stops asking (it still shows in deliveries). */
const TEST_FOLLOW_MS = 60_000;
const TEST_POLL_MS = 1_000;

export class ChannelSettings extends ChannelList {
  /** The secret of the webhook just added, until the person has copied it and closed it. */
  secret = $state<{ channelId: string; value: string } | null>(null);
  /** Test sends being followed, by channel id: the delivery as last read. */
  tests = $state<Record<string, ChannelDelivery>>({});

  private put(channel: Channel) {
    const known = this.channels.some((c) => c.id === channel.id);
    this.channels = known ? this.channels.map((c) => (c.id === channel.id ? channel : c)) : [...this.channels, channel];
  }

  /** Throws HeraldValidationError naming the field (url, token, label). */
  async addNtfy(input: { url: string; token: string; label: string }): Promise<Channel> {
    const channel = await this.sdk.addNtfyChannel({ url: input.url.trim(), token: input.token.trim() || null, label: input.label.trim() || null });
    this.put(channel);
    return channel;
  }

  async addWebhook(input: { url: string; label: string }): Promise<Channel> {
    const { channel, secret } = await this.sdk.addWebhookChannel({ url: input.url.trim(), label: input.label.trim() || null });
    this.put(channel);
    this.secret = { channelId: channel.id, value: secret };
    return channel;
  }

  async addWebPush(input: { endpoint: string; p256dh: string; auth: string; label: string }): Promise<Channel> {
    const channel = await this.sdk.addWebPushChannel(input);
    this.put(channel);
    return channel;
  }

  webPushPublicKey(): Promise<string> {
    return this.sdk.webPushPublicKey();
  }

  async setRules(id: string, rules: ChannelRules): Promise<Channel> {
    const channel = await this.sdk.setChannelRules(id, rules);
    this.put(channel);
    return channel;
  }

  async remove(id: string): Promise<void> {
    await this.sdk.removeChannel(id);
    this.channels = this.channels.filter((c) => c.id !== id);
    this.deliveries = this.deliveries.filter((d) => d.channel.id !== id);
    if (this.secret?.channelId === id) this.secret = null;
  }

  forgetSecret(): void {
    this.secret = null;
  }

  /** Queues a test send and follows it until it is sent or failed (or a minute has passed). */
  async test(id: string): Promise<void> {
    let delivery = await this.sdk.testChannel(id);
    this.tests = { ...this.tests, [id]: delivery };
    const until = Date.now() + TEST_FOLLOW_MS;
    while (delivery.status === "PENDING" && Date.now() < until && this.channels.some((c) => c.id === id)) {
      await new Promise((resolve) => setTimeout(resolve, TEST_POLL_MS));
      delivery = (await this.sdk.channelDelivery(delivery.id)) ?? delivery;
      this.tests = { ...this.tests, [id]: delivery };
    }
    // The channel's failing and lastDeliveryAt, and the deliveries list, now include the test.
    await this.load();
  }
}
