// The channel outbox end to end against local receivers that speak the real protocols: Web Push
// decrypted and VAPID-checked, ntfy JSON publishes, Standard Webhooks verified. Rules, delays,
// holds, terminal states, retries with backoff and Retry-After, a gone subscription, redirects,
// and action URLs (once, stale, expired, forged). Time is the test clock; the worker is woken or
// drained, never waited for with sleeps.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@herald/testkit";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { NtfyServer, PushService, testTls, WebhookReceiver } from "../support/channel-receivers.ts";

const tls = testTls();
const DELIVERIES = `deliveries { id revision status attempts lastError sentAt type channel { id kind } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`channel deliveries on ${provider.name}`, () => {
    let h: TestHerald;
    let push: PushService;
    let ntfy: NtfyServer;
    let hooks: WebhookReceiver;

    beforeAll(async () => {
      [push, ntfy, hooks] = await Promise.all([new PushService().start(tls), new NtfyServer().start(tls), new WebhookReceiver().start(tls)]);
      h = await startHerald(
        provider,
        {
          channelAllowHosts: ["127.0.0.1"],
          deliveryRetryBaseMs: 1_000,
          deliveryMaxAttempts: 3,
          deliveryPollMs: 50,
          dashboardUrl: "https://herald.example.com",
        },
        { channelAgent: tls.agent, deliveryRandom: () => 0.5 },
      );
      push.expectedKey = (await gql(h.url, (await h.newPerson("Key")).token, `{ webPushPublicKey }`)).data.webPushPublicKey;
    });
    afterAll(async () => {
      await h?.close();
      await Promise.all([push?.close(), ntfy?.close(), hooks?.close()]);
    });

    const addPush = async (token: string) => {
      const sub = push.subscribe();
      const r = await gql(
        h.url,
        token,
        `mutation($i: AddWebPushChannelInput!) { addWebPushChannel(input: $i) { ... on Channel { id } ... on ValidationError { field message } } }`,
        {
          i: { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth },
        },
      );
      expect(r.data.addWebPushChannel.id, JSON.stringify(r)).toBeTruthy();
      return { sub, id: r.data.addWebPushChannel.id as string };
    };
    const rules = (token: string, id: string, r: Record<string, unknown>) =>
      gql(h.url, token, `mutation($id: ID!, $r: ChannelRulesInput!) { setChannelRules(id: $id, rules: $r) { __typename } }`, { id, r });
    const deliveries = async (token: string, id: string) =>
      (await gql(h.url, token, `query($id: ID!) { notification(id: $id) { ${DELIVERIES} } }`, { id })).data.notification.deliveries as any[];
    const settled = (token: string, id: string, check: (d: any[]) => boolean) =>
      eventually(async () => check(await deliveries(token, id)), 20_000, "the deliveries to settle");
    const fromPush = (sub: { endpoint: string }) => push.received.filter((r) => sub.endpoint.endsWith(r.path));
    const drain = () => h.herald.deliveries.drain();

    it("sends a Web Push the receiver decrypts and verifies, with action URLs that act once", async () => {
      const ada = await h.newPerson("Ada");
      const { sub } = await addPush(ada.token);
      const before = push.received.length;
      const n = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "deploy",
        title: "Deploy to production?",
        body: "The build passed.",
        severity: "WARNING",
        actions: [
          { kind: "RUN_ACTION", id: "approve", label: "Approve", actionId: "deploy.approve" },
          { kind: "DISMISS", id: "later", label: "Later" },
          { kind: "OPEN_URL", id: "logs", label: "Logs", url: "https://ci.example.com/1" },
        ],
      });
      await push.waitFor(before + 1);
      const [got] = fromPush(sub);
      expect(got!.problem).toBeNull();
      expect(got!.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
      expect(got!.headers.urgency).toBe("high");
      expect(got!.payload).toMatchObject({
        type: "notification.created",
        notificationId: n.id,
        revision: 1,
        title: "Deploy to production?",
        body: "The build passed.",
        severity: "WARNING",
        scope: "PERSON",
        url: `https://herald.example.com/?notification=${n.id}`,
      });
      const actions = got!.payload.actions as { id: string; label: string; url: string }[];
      expect(actions.map((a) => [a.id, a.label])).toEqual([
        ["approve", "Approve"],
        ["later", "Later"],
      ]);
      const origin = new URL(h.url).origin;
      for (const a of actions) expect(a.url).toMatch(new RegExp(`^${origin}/actions/hat_[A-Za-z0-9_-]{43}$`));
      await settled(ada.token, n.id, (d) => d.length === 1 && d[0].status === "SENT" && d[0].attempts === 1);

      const post = (url: string, body?: unknown) =>
        fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      const first = await post(actions[0]!.url, { values: { note: "ok" } });
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ outcome: "invoked", notificationId: n.id });
      const view = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { lastInvocation { state values } } }`, { id: n.id });
      expect(view.data.notification.lastInvocation).toMatchObject({ state: "PENDING", values: { note: "ok" } });
      expect((await post(actions[0]!.url)).status).toBe(409);

      // A new revision: the older payload's links no longer act; the new one's do.
      await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "deploy",
        title: "Deploy to production (retry)?",
        actions: [{ kind: "DISMISS", id: "later", label: "Later" }],
      });
      expect((await post(actions[1]!.url)).status).toBe(409);
      await push.waitFor(before + 2);
      const second = fromPush(sub)[1]!;
      expect(second.payload).toMatchObject({ type: "notification.updated", revision: 2 });
      expect(second.headers.topic).toBe(got!.headers.topic);
      const dismiss = await post(second.payload.actions[0].url);
      expect(dismiss.status).toBe(200);
      const after = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { status revision } }`, { id: n.id });
      expect(after.data.notification.status).toBe("DISMISSED");
      // Forged and malformed tokens are unknown; nothing changes.
      expect((await post(`${origin}/actions/hat_${"A".repeat(43)}`)).status).toBe(404);
      expect((await post(`${origin}/actions/anything`)).status).toBe(404);
    });

    it("an action URL expires after 24 hours and is bound to the person it was sent to", async () => {
      const [ada, bob] = [await h.newPerson("Ada"), await h.newPerson("Bob")];
      const [a, b] = [await addPush(ada.token), await addPush(bob.token)];
      const key = `maintenance-${Date.now()}`;
      const n = await h.publish({
        scope: "APPLICATION",
        key,
        title: "Maintenance tonight",
        actions: [{ kind: "RUN_ACTION", id: "ack", label: "OK", actionId: "ack" }],
      });
      await eventually(() => fromPush(a.sub).length === 1 && fromPush(b.sub).length === 1, 20_000, "both persons' pushes");
      const adaUrl = fromPush(a.sub)[0]!.payload.actions[0].url as string;
      const bobUrl = fromPush(b.sub)[0]!.payload.actions[0].url as string;
      expect(adaUrl).not.toBe(bobUrl);
      expect((await fetch(adaUrl, { method: "POST" })).status).toBe(200);
      const seen = await gql(h.url, bob.token, `query($id: ID!) { notification(id: $id) { lastInvocation { state } } }`, { id: n.id });
      expect(seen.data.notification.lastInvocation).toBeNull();
      h.clock.advance(24 * 3600 * 1000 + 1);
      expect((await fetch(bobUrl, { method: "POST" })).status).toBe(410);
      expect(
        (await gql(h.url, bob.token, `query($id: ID!) { notification(id: $id) { lastInvocation { state } } }`, { id: n.id })).data.notification.lastInvocation,
      ).toBeNull();
    });

    it("follows the channel's rules: severity, scopes, one delivery per channel and revision", async () => {
      const ada = await h.newPerson("Ada");
      const { id } = await addPush(ada.token);
      expect((await rules(ada.token, id, { minSeverity: "WARNING", scopes: ["PERSON"] })).data.setChannelRules.__typename).toBe("Channel");
      // What each revision's bus message tells the delivery worker (it wakes only for queued
      // deliveries; the APPLICATION one reaches other tests' people's channels too).
      const told = new Map<string, boolean | undefined>();
      let last: (() => void) | null = null;
      let errorId: string | null = null;
      const stop = h.herald.bus.subscribe((m) => {
        if (m.kind !== "event") return;
        told.set(`${m.event.notificationId}#${m.event.revision}`, m.queuedDeliveries);
        if (m.event.notificationId === errorId && m.event.revision === 3) last?.();
      });
      const lastTold = new Promise<void>((resolve) => (last = resolve));
      const info = await h.publish({ scope: "PERSON", personId: ada.id, key: "r1", title: "Info", severity: "INFO" });
      const session = await h.publish({ scope: "APPLICATION", key: `r2-${Date.now()}`, title: "App error", severity: "ERROR" });
      const error = await h.publish({ scope: "PERSON", personId: ada.id, key: "r3", title: "Error", severity: "ERROR" });
      errorId = error.id;
      // The outbox is written with the revision: what is not there now never will be.
      expect(await deliveries(ada.token, info.id)).toEqual([]);
      expect(await deliveries(ada.token, session.id)).toEqual([]);
      await settled(ada.token, error.id, (d) => d.length === 1 && d[0].status === "SENT");
      // A progress-only revision does not buzz again; a content revision does, once.
      await h.publish({ scope: "PERSON", personId: ada.id, key: "r3", title: "Error", severity: "ERROR", operation: { id: "op", phase: "2/3" } });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "r3", title: "Error again", severity: "ERROR", operation: { id: "op", phase: "3/3" } });
      await settled(ada.token, error.id, (d) => d.length === 2 && d.every((x) => x.status === "SENT"));
      expect((await deliveries(ada.token, error.id)).map((d) => d.revision)).toEqual([1, 3]);
      await lastTold; // one publisher's messages arrive in order (the Redis bus too)
      stop();
      expect(Object.fromEntries(told)).toMatchObject({
        [`${info.id}#1`]: false,
        [`${error.id}#1`]: true,
        [`${error.id}#2`]: false,
        [`${error.id}#3`]: true,
      });
    });

    it("a delay sends only what is still unseen when it has passed", async () => {
      const ada = await h.newPerson("Ada");
      const { id, sub } = await addPush(ada.token);
      await rules(ada.token, id, { delaySeconds: 60 });
      const seen = await h.publish({ scope: "PERSON", personId: ada.id, key: "d1", title: "Seen in time" });
      const unseen = await h.publish({ scope: "PERSON", personId: ada.id, key: "d2", title: "Not seen" });
      await drain();
      expect((await deliveries(ada.token, seen.id))[0].status).toBe("PENDING");
      await gql(h.url, ada.token, `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id } }`, { ids: [seen.id] });
      h.clock.advance(61_000);
      await drain();
      await settled(ada.token, seen.id, (d) => d[0].status === "SKIPPED");
      await settled(ada.token, unseen.id, (d) => d[0].status === "SENT");
      expect(fromPush(sub).map((r) => r.payload.title)).toEqual(["Not seen"]);
    });

    it("holds through quiet mode and snooze, sends when released, and skips what ended first", async () => {
      const ada = await h.newPerson("Ada");
      const { id, sub } = await addPush(ada.token);
      await rules(ada.token, id, { delaySeconds: 10 });
      await gql(h.url, ada.token, `mutation { setQuietMode(enabled: true) { quietMode } }`);
      const quiet = await h.publish({ scope: "PERSON", personId: ada.id, key: "q", title: "While quiet" });
      const snoozed = await h.publish({ scope: "PERSON", personId: ada.id, key: "s", title: "Snoozed" });
      const ended = await h.publish({ scope: "PERSON", personId: ada.id, key: "e", title: "Ended" });
      const until = new Date(h.clock.now().getTime() + 3600_000).toISOString();
      await gql(h.url, ada.token, `mutation($id: ID!, $u: DateTime!) { snoozeNotification(id: $id, until: $u) { id } }`, { id: snoozed.id, u: until });
      await gql(h.url, h.producerKey, `mutation($id: ID!) { resolveNotification(id: $id) { __typename } }`, { id: ended.id });
      h.clock.advance(11_000);
      await drain();
      expect((await deliveries(ada.token, quiet.id))[0]).toMatchObject({ status: "PENDING", lastError: "held: quiet" });
      expect((await deliveries(ada.token, snoozed.id))[0]).toMatchObject({ status: "PENDING", lastError: "held: snoozed" });
      await settled(ada.token, ended.id, (d) => d[0].status === "SKIPPED" && /resolved/.test(d[0].lastError));
      expect(fromPush(sub)).toEqual([]);

      await gql(h.url, ada.token, `mutation { setQuietMode(enabled: false) { quietMode } }`);
      await settled(ada.token, quiet.id, (d) => d[0].status === "SENT");
      h.clock.advance(3600_000);
      h.herald.deliveryBell.ring();
      await settled(ada.token, snoozed.id, (d) => d[0].status === "SENT");
      expect(
        fromPush(sub)
          .map((r) => r.payload.title)
          .sort(),
      ).toEqual(["Snoozed", "While quiet"]);
    });

    it("retries 503, 503, 201 with backoff: one delivery, three attempts, one dedup topic", async () => {
      const ada = await h.newPerson("Ada");
      const { sub } = await addPush(ada.token);
      push.script.push({ status: 503 }, { status: 503 });
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "retry", title: "Retried" });
      await settled(ada.token, n.id, (d) => d[0].attempts === 1 && d[0].status === "PENDING");
      // Not due before its backoff (base 1 s, jitter 0.5: 750 ms).
      h.clock.advance(700);
      await drain();
      expect(fromPush(sub)).toHaveLength(1);
      h.clock.advance(100);
      await drain();
      await settled(ada.token, n.id, (d) => d[0].attempts === 2 && d[0].status === "PENDING");
      h.clock.advance(1_500);
      await drain();
      await settled(ada.token, n.id, (d) => d[0].status === "SENT" && d[0].attempts === 3);
      const got = fromPush(sub);
      expect(got.map((r) => r.status)).toEqual([503, 503, 201]);
      expect(new Set(got.map((r) => r.headers.topic)).size).toBe(1);
    });

    it("honours Retry-After, gives up after the attempts allowed and marks the channel failing", async () => {
      const ada = await h.newPerson("Ada");
      const { sub } = await addPush(ada.token);
      push.script.push({ status: 429, headers: { "retry-after": "120" } });
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "ra", title: "Later please" });
      await settled(ada.token, n.id, (d) => d[0].attempts === 1);
      h.clock.advance(60_000);
      await drain();
      expect(fromPush(sub)).toHaveLength(1);
      h.clock.advance(61_000);
      await drain();
      await settled(ada.token, n.id, (d) => d[0].status === "SENT");

      push.script.push({ status: 500 }, { status: 500 }, { status: 500 });
      const failing = await h.publish({ scope: "PERSON", personId: ada.id, key: "fail", title: "Never arrives" });
      for (let attempt = 1; attempt <= 3; attempt++) {
        await settled(ada.token, failing.id, (d) => d[0].attempts === attempt);
        h.clock.advance(10_000);
        await drain();
      }
      await settled(ada.token, failing.id, (d) => d[0].status === "FAILED" && /gave up after 3 attempts/.test(d[0].lastError));
      const channels = (await gql(h.url, ada.token, `{ viewer { channels { failing } } }`)).data.viewer.channels;
      expect(channels).toEqual([{ failing: true }]);
    });

    it("removes a Web Push channel its push service calls gone (410)", async () => {
      const ada = await h.newPerson("Ada");
      await addPush(ada.token);
      push.script.push({ status: 410 });
      const before = push.received.length;
      await h.publish({ scope: "PERSON", personId: ada.id, key: "gone", title: "Gone" });
      await push.waitFor(before + 1);
      await eventually(
        async () => (await gql(h.url, ada.token, `{ viewer { channels { id } } }`)).data.viewer.channels.length === 0,
        20_000,
        "the channel to go",
      );
    });

    it("publishes to ntfy as JSON with priority, click URL and http action buttons", async () => {
      const ada = await h.newPerson("Ada");
      ntfy.token = "tk_ntfy_secret";
      const added = await gql(h.url, ada.token, `mutation($i: AddNtfyChannelInput!) { addNtfyChannel(input: $i) { __typename } }`, {
        i: { url: `${ntfy.url}/ada-builds`, token: ntfy.token },
      });
      expect(added.data.addNtfyChannel.__typename).toBe("Channel");
      const n = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "ntfy",
        title: "Build failed",
        body: "main is red",
        severity: "ERROR",
        actions: [1, 2, 3, 4].map((i) => ({ kind: "RUN_ACTION", id: `a${i}`, label: `A${i}`, actionId: `a${i}` })),
      });
      await ntfy.waitFor(1);
      const [got] = ntfy.received;
      expect(got!.problem).toBeNull();
      expect(got!.payload).toMatchObject({
        topic: "ada-builds",
        title: "Build failed",
        message: "main is red",
        priority: 5,
        click: `https://herald.example.com/?notification=${n.id}`,
      });
      expect(got!.payload.actions).toHaveLength(3);
      expect(got!.payload.actions[0]).toMatchObject({ action: "http", label: "A1", method: "POST" });
      expect(JSON.stringify(await deliveries(ada.token, n.id))).not.toContain("tk_ntfy_secret");
    });

    it("signs webhooks per Standard Webhooks with a webhook-id stable across retries; redirects fail", async () => {
      const ada = await h.newPerson("Ada");
      const added = await gql(
        h.url,
        ada.token,
        `mutation($i: AddWebhookChannelInput!) { addWebhookChannel(input: $i) { ... on WebhookChannelCreated { secret channel { id } } } }`,
        { i: { url: `${hooks.url}/herald` } },
      );
      hooks.secret = added.data.addWebhookChannel.secret;
      hooks.script.push({ status: 502 });
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "wh", title: "Signed" });
      await settled(ada.token, n.id, (d) => d[0].attempts === 1);
      h.clock.advance(2_000);
      await drain();
      await settled(ada.token, n.id, (d) => d[0].status === "SENT");
      expect(hooks.received.map((r) => r.problem)).toEqual([null, null]);
      expect(hooks.received[0]!.headers["webhook-id"]).toBe(hooks.received[1]!.headers["webhook-id"]);
      expect(hooks.received[1]!.payload).toMatchObject({ type: "notification.created", data: { notificationId: n.id, title: "Signed" } });

      hooks.script.push({ status: 302, headers: { location: `${push.url}/elsewhere` } });
      const moved = await h.publish({ scope: "PERSON", personId: ada.id, key: "wh2", title: "Moved" });
      await settled(ada.token, moved.id, (d) => d[0].status === "FAILED" && /redirect/.test(d[0].lastError));
      expect(push.received.some((r) => r.path === "/elsewhere")).toBe(false);
    });

    it("sends a test payload on request", async () => {
      const ada = await h.newPerson("Ada");
      const { id, sub } = await addPush(ada.token);
      const test = await gql(h.url, ada.token, `mutation($id: ID!) { testChannel(id: $id) { id status type } }`, { id });
      expect(test.data.testChannel).toMatchObject({ status: "PENDING", type: "channel.test" });
      await eventually(() => fromPush(sub).length === 1, 20_000, "the test push");
      expect(fromPush(sub)[0]!.payload).toMatchObject({ type: "channel.test", notificationId: null });
      await eventually(
        async () =>
          (await gql(h.url, ada.token, `query($id: ID!) { channelDelivery(id: $id) { status } }`, { id: test.data.testChannel.id })).data.channelDelivery
            ?.status === "SENT",
        20_000,
        "the test delivery to be SENT",
      );
    });
  });
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`the delivery worker on ${provider.name}`, () => {
    let h: TestHerald;
    let ntfy: NtfyServer;

    beforeAll(async () => {
      ntfy = await new NtfyServer().start(tls);
      // An hour between polls: only the commit of a revision that queued a delivery wakes the worker.
      h = await startHerald(provider, { channelAllowHosts: ["127.0.0.1"], deliveryPollMs: 3_600_000 }, { channelAgent: tls.agent });
    });
    afterAll(async () => {
      await h?.close();
      await ntfy?.close();
    });

    it("is woken by the commit of a revision that queued a delivery", async () => {
      const ada = await h.newPerson("Ada");
      const added = await gql(h.url, ada.token, `mutation($i: AddNtfyChannelInput!) { addNtfyChannel(input: $i) { __typename } }`, {
        i: { url: `${ntfy.url}/ada-woken` },
      });
      expect(added.data.addNtfyChannel.__typename).toBe("Channel");
      await h.publish({ scope: "PERSON", personId: ada.id, key: "woken", title: "Woken" });
      await ntfy.waitFor(1);
      expect(ntfy.received[0]!.payload).toMatchObject({ topic: "ada-woken", title: "Woken" });
    });
  });
}
