// Raw HTTP helpers for the security suite: what an attacker sends, and what a client must never see.
import { connect } from "node:net";
import { expect } from "vitest";

export interface WireResponse {
  status: number;
  headers: Headers;
  text: string;
  json: { errors?: { message: string; extensions?: { code?: string; field?: string } }[]; data?: unknown } | null;
}

export async function send(url: string, init: RequestInit & { token?: string | null } = {}): Promise<WireResponse> {
  const { token, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  const response = await fetch(url, { ...rest, headers });
  const text = await response.text();
  let json: WireResponse["json"] = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the assertions say so
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function postJson(url: string, body: unknown, init: RequestInit & { token?: string | null } = {}) {
  return send(url, {
    method: "POST",
    ...init,
    headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Stack frames, source paths or internal error names that must never reach a client. */
export const leaks = /\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|\.js:\d+|RangeError|TypeError|PrismaClient/;

/** A refusal a client can act on: the status, JSON errors with the code, and nothing internal. */
export function expectRefusal(response: WireResponse, status: number, code: string) {
  expect(response.text).not.toMatch(leaks);
  expect(response.headers.get("content-type") ?? "").toContain("application/json");
  expect({ status: response.status, code: response.json?.errors?.[0]?.extensions?.code }).toEqual({ status, code });
  expect(response.json?.errors?.[0]?.message).toBeTruthy();
}

/**
 * Sends `count` copies of a raw HTTP/1.1 request, pipelined over a few keep-alive sockets (far
 * cheaper for the client than one fetch each), and counts the answers by status.
 */
export async function pipelined(url: string, raw: string, count: number, sockets = 4): Promise<Record<number, number>> {
  const { hostname, port } = new URL(url);
  const statuses: Record<number, number> = {};
  await Promise.all(
    Array.from({ length: sockets }, async (_, s) => {
      const share = Math.floor(count / sockets) + (s < count % sockets ? 1 : 0);
      const socket = connect(Number(port), hostname);
      let pending = "";
      let answered = 0;
      await new Promise<void>((resolve, reject) => {
        socket.on("error", reject);
        socket.on("data", (chunk) => {
          pending += chunk.toString("latin1");
          for (let match; (match = /HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n/.exec(pending));) {
            const head = match[0];
            const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
            if (pending.length < match.index + head.length + length) break;
            statuses[Number(match[1])] = (statuses[Number(match[1])] ?? 0) + 1;
            pending = pending.slice(match.index + head.length + length);
            if (++answered === share) {
              socket.end();
              resolve();
            }
          }
        });
        // Written in slices so the server's answers are read while more requests go out.
        let sent = 0;
        const write = () => {
          while (sent < share) {
            sent++;
            if (!socket.write(raw)) return void socket.once("drain", write);
          }
        };
        socket.once("connect", write);
      });
    }),
  );
  return statuses;
}
