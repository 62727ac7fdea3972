// Local stand-ins for what channels reach on the internet, each speaking the real protocol and
// checking it strictly: a Web Push service (RFC 8030) that verifies the VAPID JWT (RFC 8292) and
// decrypts the aes128gcm body (RFC 8291) with subscription keys the test made; an ntfy server
// taking ntfy's JSON publish; a webhook endpoint verifying Standard Webhooks signatures. All on
// HTTPS with a throwaway certificate for 127.0.0.1 that the server under test trusts (agent).
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:https";
import { Agent } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";

export interface Tls {
  key: string;
  cert: string;
  /** An agent that trusts the certificate: the server under test sends through it. */
  agent: Agent;
}

export function testTls(): Tls {
  const dir = mkdtempSync(join(tmpdir(), "herald-tls-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "2",
        "-subj",
        "/CN=herald-test",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
      ],
      { stdio: "ignore" },
    );
    const key = readFileSync(join(dir, "key.pem"), "utf8");
    const cert = readFileSync(join(dir, "cert.pem"), "utf8");
    return { key, cert, agent: new Agent({ ca: cert, keepAlive: false }) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One request a receiver took, with its verdict. */
export interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  /** What the checks made of it: the decrypted/verified payload, or why it was refused. */
  payload: any;
  problem: string | null;
  status: number;
}

type Reply = { status: number; headers?: Record<string, string> } | "hang";

/** The shared part: an HTTPS server that records requests, answers from a script, and lets tests wait for a count. */
abstract class Receiver {
  readonly received: Received[] = [];
  /** Answers for the next requests, in order; afterwards `defaultStatus`. */
  readonly script: Reply[] = [];
  defaultStatus = 201;
  /** Answers this much later (a slow receiver, for the benchmark). */
  delayMs = 0;
  /** Called with each request as it arrives. */
  onReceived: ((r: Received) => void) | null = null;
  private server!: Server;
  private waiters: { count: number; resolve: () => void }[] = [];
  private hanging: ServerResponse[] = [];
  url = "";

  async start(tls: Tls): Promise<this> {
    this.server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        const reply = this.script.shift() ?? { status: this.defaultStatus };
        let payload: any = null;
        let problem: string | null = null;
        try {
          payload = this.check(req, body);
        } catch (error) {
          problem = (error as Error).message;
        }
        const status = problem ? 400 : reply === "hang" ? 0 : reply.status;
        const received = { path: req.url ?? "", headers: req.headers, body, payload, problem, status };
        this.received.push(received);
        this.onReceived?.(received);
        if (reply === "hang") this.hanging.push(res);
        else {
          const answer = () => {
            res.writeHead(status, reply.headers ?? {});
            res.end(problem ?? "");
          };
          if (this.delayMs > 0) setTimeout(answer, this.delayMs);
          else answer();
        }
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.count ? (w.resolve(), false) : true));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Requests that passed the checks and were answered 2xx. */
  get accepted(): Received[] {
    return this.received.filter((r) => !r.problem && r.status >= 200 && r.status < 300);
  }

  protected abstract check(req: IncomingMessage, body: Buffer): any;

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A push subscription as a browser holds it: the keys stay with the test. */
export interface TestSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  ecdh: ReturnType<typeof createECDH>;
  authSecret: Buffer;
}

export class PushService extends Receiver {
  private readonly subscriptions = new Map<string, TestSubscription>();
  /** The VAPID public key the server must sign with (webPushPublicKey). */
  expectedKey: string | null = null;

  subscribe(): TestSubscription {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const authSecret = randomBytes(16);
    const path = `/push/${randomBytes(8).toString("hex")}`;
    const sub = { endpoint: `${this.url}${path}`, p256dh: ecdh.getPublicKey().toString("base64url"), auth: authSecret.toString("base64url"), ecdh, authSecret };
    this.subscriptions.set(path, sub);
    return sub;
  }

  protected check(req: IncomingMessage, body: Buffer): any {
    if (req.method !== "POST") throw new Error(`method ${req.method}`);
    const sub = this.subscriptions.get(req.url ?? "");
    if (!sub) throw new Error("unknown subscription");
    if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("content-encoding must be aes128gcm");
    if (!/^\d+$/.test(String(req.headers.ttl ?? ""))) throw new Error("TTL header missing");
    const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(req.headers.authorization ?? ""));
    if (!auth) throw new Error("authorization must be vapid t=..., k=...");
    const [, jwt, k] = auth;
    if (this.expectedKey && k !== this.expectedKey) throw new Error("VAPID key is not the server's");
    checkVapidJwt(jwt!, k!, new URL(sub.endpoint).origin);
    return JSON.parse(decryptAes128gcm(body, sub).toString("utf8"));
  }
}

function checkVapidJwt(jwt: string, publicKey: string, audience: string): void {
  const [header, claims, signature] = jwt.split(".");
  if (!header || !claims || !signature) throw new Error("malformed JWT");
  const h = JSON.parse(Buffer.from(header, "base64url").toString());
  if (h.alg !== "ES256" || h.typ !== "JWT") throw new Error(`JWT header ${JSON.stringify(h)}`);
  const raw = Buffer.from(publicKey, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) throw new Error("k is not an uncompressed P-256 key");
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33).toString("base64url") },
    format: "jwk",
  });
  const ok = verify("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  if (!ok) throw new Error("bad VAPID signature");
  const c = JSON.parse(Buffer.from(claims, "base64url").toString());
  if (c.aud !== audience) throw new Error(`aud ${c.aud} is not ${audience}`);
  const now = Math.floor(Date.now() / 1000);
  if (typeof c.exp !== "number" || c.exp <= now || c.exp > now + 24 * 3600) throw new Error("exp must be within 24 h");
  if (typeof c.sub !== "string" || !/^(mailto:|https:)/.test(c.sub)) throw new Error("sub must be mailto: or https:");
}

/** RFC 8188 / RFC 8291: one record, keys from the subscription the test made. */
function decryptAes128gcm(body: Buffer, sub: TestSubscription): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const records = body.subarray(21 + idlen);
  if (idlen !== 65 || records.length > rs) throw new Error("unexpected aes128gcm header");
  const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();
  const ecdhSecret = sub.ecdh.computeSecret(asPublic);
  const uaPublic = sub.ecdh.getPublicKey();
  const prkKey = hmac(sub.authSecret, ecdhSecret);
  const ikm = hmac(prkKey, Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.concat([Buffer.from("Content-Encoding: aes128gcm\0"), Buffer.from([1])])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.concat([Buffer.from("Content-Encoding: nonce\0"), Buffer.from([1])])).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("missing the last record's padding delimiter");
  return padded.subarray(0, end);
}

/** ntfy's JSON publish (POST to the server root): https://docs.ntfy.sh/publish/#publish-as-json */
export class NtfyServer extends Receiver {
  /** The bearer token publishes must carry; null: none. */
  token: string | null = null;

  protected check(req: IncomingMessage, body: Buffer): any {
    if (req.method !== "POST" || req.url !== "/") throw new Error(`${req.method} ${req.url}: JSON publishes go to the root`);
    const expected = this.token ? `Bearer ${this.token}` : undefined;
    if (req.headers.authorization !== expected) throw new Error("wrong authorization");
    const m = JSON.parse(body.toString("utf8"));
    if (typeof m.topic !== "string" || !/^[-_A-Za-z0-9]{1,64}$/.test(m.topic)) throw new Error("topic");
    for (const field of ["title", "message", "click"]) if (m[field] !== undefined && typeof m[field] !== "string") throw new Error(field);
    if (m.priority !== undefined && (!Number.isInteger(m.priority) || m.priority < 1 || m.priority > 5)) throw new Error("priority");
    if (m.actions !== undefined) {
      if (!Array.isArray(m.actions) || m.actions.length > 3) throw new Error("at most three actions");
      for (const a of m.actions) {
        if (!["view", "http", "broadcast", "copy"].includes(a.action) || typeof a.label !== "string") throw new Error("action");
        if (a.action === "http" && (typeof a.url !== "string" || !["GET", "POST", "PUT"].includes(a.method ?? "POST"))) throw new Error("http action");
      }
    }
    return m;
  }
}

/** A Standard Webhooks consumer: refuses what its secret does not verify. */
export class WebhookReceiver extends Receiver {
  secret: string | null = null;

  protected check(req: IncomingMessage, body: Buffer): any {
    if (!this.secret) throw new Error("no secret yet");
    const headers = {
      "webhook-id": String(req.headers["webhook-id"]),
      "webhook-timestamp": String(req.headers["webhook-timestamp"]),
      "webhook-signature": String(req.headers["webhook-signature"]),
    };
    return new Webhook(this.secret).verify(body.toString("utf8"), headers);
  }
}
