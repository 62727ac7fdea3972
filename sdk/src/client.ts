// HeraldClient: the person and the producer API on one object, for integrations written before
// the split (the dashboard, scripts holding either credential). New code picks PersonClient or
// ProducerClient, which say by their type which credential they expect.
import { PersonClient } from "./person-client.ts";
import { ProducerClient } from "./producer-client.ts";
import { type ClientOptions } from "./client-base.ts";
import { Transport } from "./transport.ts";

export type HeraldClientOptions = ClientOptions;

export function createHeraldClient(options: HeraldClientOptions): HeraldClient {
  return new HeraldClient(new Transport(options));
}

// Declaration merging gives the class ProducerClient's methods in its type; the loop below gives
// them to its prototype (the lint rule's worry, a type promising methods the class lacks, is what
// the loop answers). Both classes extend ClientBase, so `transport` is one declaration.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface HeraldClient extends ProducerClient {}

/** A PersonClient that also has every ProducerClient method (both read `this.transport`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class HeraldClient extends PersonClient {}

for (const name of Object.getOwnPropertyNames(ProducerClient.prototype)) {
  if (name === "constructor" || Object.prototype.hasOwnProperty.call(PersonClient.prototype, name)) continue;
  Object.defineProperty(HeraldClient.prototype, name, Object.getOwnPropertyDescriptor(ProducerClient.prototype, name)!);
}
