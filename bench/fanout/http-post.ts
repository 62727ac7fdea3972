// The publisher's HTTP client: node:http with keep-alive, the least client-side work per publish
// (the publisher shares its core with the subscribers).
import { Agent, request } from "node:http";
import { fanoutConfig } from "./config.ts";

const requestTimeoutMs = fanoutConfig.publishTimeoutSeconds * 1000;

export class HttpPoster {
  private readonly agent: Agent;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
    maxSockets: number,
  ) {
    if (url.hostname !== "127.0.0.1") throw new Error(`The benchmark only talks to 127.0.0.1, not ${url.hostname}`);
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  /** Resolves with the status and body; a stuck server fails the request instead of hanging it. */
  async post(body: string): Promise<{ status: number; body: string }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(body);
      } catch (error) {
        // A keep-alive connection the server closed as idle just as this request went out: the
        // server never read the request, so sending it again cannot publish twice (Node's advice).
        // The next idle connection may be in the same state, hence more than one try.
        if (!(error as { retryable?: boolean }).retryable || attempt === 3) throw error;
      }
    }
  }

  private attempt(body: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(this.url, { method: "POST", agent: this.agent, headers: { ...this.headers, "content-length": Buffer.byteLength(body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      });
      req.setTimeout(requestTimeoutMs, () => req.destroy(new Error(`no response within ${requestTimeoutMs} ms`)));
      const sent = performance.now();
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (req.reusedSocket && error.code === "ECONNRESET") Object.assign(error, { retryable: true });
        error.message = `${error.message} after ${((performance.now() - sent) / 1000).toFixed(1)} s on a ${req.reusedSocket ? "reused" : "new"} connection`;
        reject(error);
      });
      req.end(body);
    });
  }

  /** Also aborts whatever is still queued or in flight. */
  close(): void {
    this.agent.destroy();
  }
}
