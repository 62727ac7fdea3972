// The person's channels (this browser's Web Push subscription, ntfy topics, webhooks) and their
// recent deliveries, read through the SDK: the inbox lists them; the dashboard's Settings adds
// changing them (app/src/lib/dashboard/channel-settings.svelte.ts).
import type { Channel, ChannelDelivery, PersonClient } from "@herald/sdk";
import { sentenceFor } from "../errors.ts";

export type { Channel, ChannelDelivery };

export class ChannelList {
  channels = $state.raw<Channel[]>([]);
  deliveries = $state.raw<ChannelDelivery[]>([]);
  loaded = $state(false);
  loadError = $state<string | null>(null);

  constructor(private readonly client: () => PersonClient | null) {}

  protected get sdk(): PersonClient {
    const client = this.client();
    if (!client) throw new Error("not connected");
    return client;
  }

  async load(): Promise<void> {
    try {
      const { channels, recentDeliveries } = await this.sdk.channels();
      this.channels = channels;
      this.deliveries = recentDeliveries;
      this.loadError = null;
    } catch (error) {
      this.loadError = sentenceFor(error);
    } finally {
      this.loaded = true;
    }
  }
}
