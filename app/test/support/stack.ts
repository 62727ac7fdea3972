// A real Herald server (fresh SQLite file, NODE_ENV=production) and the built dashboard
// (`node app/build`) on free ports, with a person, a producer key and SDK clients for both.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createHeraldClient, type HeraldClient } from "@herald/sdk";
import { createTempSqlite, freePort, heraldCli, type SpawnedHerald, spawnHerald, stopProcess, waitForHttp } from "@herald/testkit";

export { eventually, freePort, untilMarker } from "@herald/testkit";

const dashboardBuild = join(import.meta.dirname, "..", "..", "build");

export interface Stack {
  heraldUrl: string;
  dashboardUrl: string;
  person: { id: string; name: string; token: string; signInCode: string };
  producerKey: string;
  /** SDK client with the producer key. */
  producer: HeraldClient;
  /** SDK client with the person token, talking to Herald directly (the server's view). */
  personClient: HeraldClient;
  /** A fresh one-time sign-in code for the person. */
  newSignInCode(): Promise<string>;
  /** Runs the herald command line against this server's database; returns stdout lines. */
  cli(...args: string[]): Promise<string[]>;
  /** Open event streams on the Herald server now (its /metrics gauge herald_open_streams). */
  openStreams(): Promise<number>;
  /** Stops the Herald server (the dashboard keeps running). */
  stopHerald(): Promise<void>;
  close(): Promise<void>;
}

// HERALD_TEST_LOG=1 shows what the two servers print on stderr while debugging a test.
const echo = (name: string) => (text: string, stream: "stdout" | "stderr") => {
  if (process.env.HERALD_TEST_LOG && stream === "stderr") process.stderr.write(`[${name}] ${text}`);
};

async function startDashboard(port: number, heraldUrl: string, dashboardUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [dashboardBuild], {
    // ORIGIN: adapter-node otherwise assumes https behind a proxy (and the cookie would be Secure).
    // ADDRESS_HEADER / XFF_DEPTH: the dashboard as behind nginx, learning each person's address from it.
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      ORIGIN: dashboardUrl,
      HERALD_URL: heraldUrl,
      ADDRESS_HEADER: "x-forwarded-for",
      XFF_DEPTH: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const log = echo("dashboard");
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    log(chunk.toString(), "stderr");
  });
  try {
    await waitForHttp(dashboardUrl, { child });
  } catch (error) {
    await stopProcess(child, "SIGKILL");
    throw new Error(`the dashboard did not start: ${(error as Error).message}\n${output}`);
  }
  return child;
}

/** `env`: more settings for the Herald server (a suite's own, such as HERALD_CHANNEL_ALLOW_HOSTS). */
export async function startStack(options: { env?: Record<string, string> } = {}): Promise<Stack> {
  const store = createTempSqlite("herald-app-");
  const dashboardPort = await freePort();
  const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
  const metricsToken = "e2e-metrics-token-of-the-stack";
  // The dashboard calls Herald from 127.0.0.1 for each person: Herald believes its X-Forwarded-For.
  const env = {
    DATABASE_URL: store.url,
    HERALD_SNOOZE_INTERVAL_MS: "200",
    HERALD_DASHBOARD_URL: dashboardUrl,
    HERALD_METRICS_TOKEN: metricsToken,
    HERALD_TRUSTED_PROXIES: "127.0.0.1",
    ...options.env,
  };
  const herald = heraldCli(env);

  let server: SpawnedHerald | null = null;
  let dashboard: ChildProcess | null = null;
  const stopAll = async () => {
    await Promise.all([dashboard && stopProcess(dashboard), server?.stop()]);
    store.remove();
  };
  try {
    const created = await herald.createPerson("Ada");
    const person = { ...created, name: "Ada" };
    const producerKey = await herald.createProducerKey("e2e");
    // A busy machine (several suites at once) can take over a minute to migrate and start.
    server = await spawnHerald({ env, onOutput: echo("herald"), startTimeoutMs: 180_000 });
    dashboard = await startDashboard(dashboardPort, server.url, dashboardUrl);
    const producer = createHeraldClient({ url: server.url, token: producerKey });
    const personClient = createHeraldClient({ url: server.url, token: person.token });
    const running = server;
    return {
      heraldUrl: server.url,
      dashboardUrl,
      person,
      producerKey,
      producer,
      personClient,
      newSignInCode: async () => (await producer.issueSignInCode(person.id)).code,
      cli: async (...args) => (await herald.run(...args)).lines,
      async openStreams() {
        const response = await fetch(new URL("/metrics", running.url), { headers: { authorization: `Bearer ${metricsToken}` } });
        const line = (await response.text()).split("\n").find((l) => l.startsWith("herald_open_streams "));
        if (!line) throw new Error(`/metrics has no herald_open_streams (HTTP ${response.status})`);
        return Number(line.split(" ")[1]);
      },
      stopHerald: () => running.stop(),
      async close() {
        producer.close();
        personClient.close();
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
