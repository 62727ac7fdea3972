// A minimal GraphQL-over-HTTP client on node:http with keep-alive: lighter than fetch, so the
// load generator (which shares the CPUs with the server) costs as little as possible per request.
import { Agent, request } from "node:http";

export class GraphQLError extends Error {}

const requestTimeoutMs = 30_000;

export class GraphQLClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });

  constructor(
    private readonly url: URL,
    private readonly token: string,
  ) {
    if (url.hostname !== "127.0.0.1") throw new Error(`The benchmark only talks to 127.0.0.1, not ${url.hostname}`);
  }

  post<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const body = JSON.stringify({ query, variables });
    return new Promise<T>((resolve, reject) => {
      const req = request(
        this.url,
        {
          method: "POST",
          agent: this.agent,
          headers: {
            "content-type": "application/json",
            accept: "application/graphql-response+json, application/json",
            "content-length": Buffer.byteLength(body),
            authorization: `Bearer ${this.token}`,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: { data?: T; errors?: { message: string }[] };
            try {
              parsed = JSON.parse(text) as typeof parsed;
            } catch {
              return reject(new GraphQLError(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
            }
            if (parsed.errors?.length) return reject(new GraphQLError(parsed.errors.map((e) => e.message).join("; ")));
            if (parsed.data === undefined) return reject(new GraphQLError(`HTTP ${res.statusCode}: no data`));
            resolve(parsed.data);
          });
        },
      );
      // A stuck server must fail the run, not hang it.
      req.setTimeout(requestTimeoutMs, () => req.destroy(new GraphQLError(`No response within ${requestTimeoutMs} ms`)));
      req.on("error", reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
