// The one way a channel delivery leaves the server: an HTTPS request that connects only to a
// public address (checked on the address the name resolved to, at connect time, so a DNS answer
// that changes between registration and send cannot point it inward), follows no redirect, and is
// bounded in time and in the size of the answer it reads. Hosts listed in
// HERALD_CHANNEL_ALLOW_HOSTS may be private or plain http: (a self-hosted ntfy on the LAN).
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { type Agent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isAllowedHost, isNonPublicAddress, literalAddress } from "../../domain/channels.ts";

export interface GuardOptions {
  allowHosts: ReadonlySet<string>;
  timeoutMs: number;
  /** Bytes of the answer read at most (the rest is dropped). */
  maxResponseBytes: number;
  /** TLS settings (a private CA in tests); default: the system's trust store. */
  agent?: Agent;
}

export interface GuardedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The request was not made: its target is not one a channel may reach. */
export class RefusedTarget extends Error {}

export function guardedRequest(
  target: string,
  init: { method: string; headers: Record<string, string | number>; body: Buffer | string },
  options: GuardOptions,
): Promise<GuardedResponse> {
  const url = new URL(target);
  const allowed = isAllowedHost(url.hostname, options.allowHosts);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowed)) return Promise.reject(new RefusedTarget("refused: the URL is not https:"));
  const literal = literalAddress(url.hostname);
  if (literal && !allowed && isNonPublicAddress(literal)) return Promise.reject(new RefusedTarget(`refused: ${literal} is not a public address`));
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const list = addresses as unknown as LookupAddress[];
      const refused = allowed ? undefined : list.find((a) => isNonPublicAddress(a.address));
      if (refused || list.length === 0)
        return callback(new RefusedTarget(`refused: ${hostname} resolves to ${refused?.address ?? "nothing"}, not a public address`), "", 4);
      if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: init.method,
        headers: { ...init.headers, "content-length": Buffer.byteLength(init.body) },
        lookup,
        timeout: options.timeoutMs,
        ...(url.protocol === "https:" && options.agent ? { agent: options.agent } : { agent: false }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size >= options.maxResponseBytes) return;
          size += chunk.length;
          chunks.push(chunk);
          if (size >= options.maxResponseBytes) res.destroy();
        });
        const done = () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).subarray(0, options.maxResponseBytes).toString("utf8") });
        res.on("end", done);
        res.on("close", done);
        res.on("error", () => done());
      },
    );
    // The whole attempt, not only an idle socket, is bounded.
    const deadline = setTimeout(() => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on("timeout", () => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)));
    req.on("error", (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    req.on("close", () => clearTimeout(deadline));
    req.end(init.body);
  });
}
