// The channels benchmark's receivers in a process of their own (bench/channels.ts forks it): the
// Web Push service decrypting and VAPID-checking every push, the ntfy receiver and the webhook
// receiver verifying every signature, all the strict test receivers of
// server/test/support/channel-receivers.ts. Kept out of the server's process so that their work
// (a decryption and a TLS record per push) is not counted as the server's, nor competes with its
// event loop. Talks to the parent over the IPC channel (ReceiverRequest / ReceiverEvent).
import type { IncomingMessage } from "node:http";
import { Webhook } from "standardwebhooks";
import { NtfyServer, PushService, type Received, testTls, WebhookReceiver } from "../server/test/support/channel-receivers.ts";

export type ReceiverRequest =
  { op: "subscribe"; count: number } | { op: "webhook-secret"; path: string; secret: string } | { op: "delay"; ms: number } | { op: "reset" } | { op: "close" };

export type ReceiverEvent =
  | { op: "ready"; cert: string; push: string; ntfy: string; hooks: string }
  | { op: "subscriptions"; subscriptions: { endpoint: string; p256dh: string; auth: string }[] }
  /** Pushes received since the last batch: notification id and receipt time (epoch ms), or the check that failed. */
  | { op: "received"; pushes: [string, number][]; problems: string[]; others: number }
  | { op: "done" };

/** One webhook receiver for every person's endpoint, each path with the secret its channel was given. */
class PerPathWebhookReceiver extends WebhookReceiver {
  readonly secrets = new Map<string, string>();
  protected override check(req: IncomingMessage, body: Buffer): any {
    const secret = this.secrets.get(req.url ?? "");
    if (!secret) throw new Error("no secret for this path");
    const headers = {
      "webhook-id": String(req.headers["webhook-id"]),
      "webhook-timestamp": String(req.headers["webhook-timestamp"]),
      "webhook-signature": String(req.headers["webhook-signature"]),
    };
    return new Webhook(secret).verify(body.toString("utf8"), headers);
  }
}

const send = (event: ReceiverEvent) => process.send!(event);
const tls = testTls();
const push = await new PushService().start(tls);
const ntfy = await new NtfyServer().start(tls);
const hooks = await new PerPathWebhookReceiver().start(tls);

let pushes: [string, number][] = [];
let problems: string[] = [];
let others = 0;
const now = () => performance.timeOrigin + performance.now();
const onReceived = (r: Received) => {
  if (r.problem) problems.push(r.problem);
  else if (r.payload?.notificationId) pushes.push([r.payload.notificationId as string, now()]);
  else others++;
};
push.onReceived = onReceived;
ntfy.onReceived = (r) => (r.problem ? problems.push(r.problem) : others++);
hooks.onReceived = (r) => (r.problem ? problems.push(r.problem) : others++);
hooks.defaultStatus = 200;
// The receivers keep what they took for the tests; here only the counts above matter.
const forget = setInterval(() => {
  push.received.length = 0;
  ntfy.received.length = 0;
  hooks.received.length = 0;
}, 1_000);
const flush = setInterval(() => {
  if (pushes.length === 0 && problems.length === 0 && others === 0) return;
  send({ op: "received", pushes, problems, others });
  pushes = [];
  problems = [];
  others = 0;
}, 50);

process.on("message", async (request: ReceiverRequest) => {
  switch (request.op) {
    case "subscribe":
      send({
        op: "subscriptions",
        subscriptions: Array.from({ length: request.count }, () => push.subscribe()).map(({ endpoint, p256dh, auth }) => ({ endpoint, p256dh, auth })),
      });
      return;
    case "webhook-secret":
      hooks.secrets.set(request.path, request.secret);
      return;
    case "delay":
      push.delayMs = request.ms;
      ntfy.delayMs = request.ms;
      hooks.delayMs = request.ms;
      return;
    case "reset":
      pushes = [];
      problems = [];
      others = 0;
      send({ op: "done" });
      return;
    case "close":
      clearInterval(flush);
      clearInterval(forget);
      await Promise.all([push.close(), ntfy.close(), hooks.close()]);
      send({ op: "done" });
      process.exit(0);
  }
});
send({ op: "ready", cert: tls.cert, push: push.url, ntfy: ntfy.url, hooks: hooks.url });
