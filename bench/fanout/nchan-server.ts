// Baseline 2, a mature C pub/sub server: nginx with the nchan module (Debian's
// libnginx-mod-nchan), run from a private configuration in a temporary directory: nothing of the
// system's nginx (its config, logs or service) is used or touched.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, freePort, stopProcess, waitForHttp } from "@herald/testkit";
import { spawnTracked } from "../processes.ts";
import { fanoutConfig } from "./config.ts";
import { type FanoutServer, paddedBody, type StartOptions } from "./fanout-server.ts";
import { HttpPoster } from "./http-post.ts";
import { marker } from "./worker-protocol.ts";

const nchanModule = "/usr/lib/nginx/modules/ngx_nchan_module.so";
const nginxBinary = "/usr/sbin/nginx";

function installed(): boolean {
  return existsSync(nchanModule) && existsSync(nginxBinary);
}

/**
 * Makes nginx and nchan available, installing Debian's packages when they are missing and this
 * runs as root. Returns null when ready, or why nchan cannot be measured.
 */
export function ensureNchan(log: (line: string) => void): string | null {
  if (installed()) return null;
  if (process.env.FANOUT_NO_INSTALL) return `${nchanModule} is missing and FANOUT_NO_INSTALL is set`;
  if (process.getuid?.() !== 0) return `${nchanModule} is missing; install it with: sudo apt-get install nginx libnginx-mod-nchan`;
  if (!existsSync("/usr/bin/apt-get")) return `${nchanModule} is missing and there is no apt-get`;
  const install = ["install", "-y", "-q", "--no-install-recommends", "nginx", "libnginx-mod-nchan"];
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const run = (args: string[]) => execFileSync("apt-get", args, { env, stdio: ["ignore", "ignore", "pipe"], timeout: 300_000 });
  try {
    log(`Installing nginx and its nchan module: apt-get ${install.join(" ")}`);
    try {
      run(install);
    } catch {
      // Most often a stale or empty package list.
      log("  that failed; running apt-get update and trying again");
      run(["update", "-q"]);
      run(install);
    }
  } catch (error) {
    return `installing nginx and libnginx-mod-nchan failed: ${(error as { stderr?: Buffer }).stderr?.toString().trim().split("\n").at(-1) ?? String(error)}`;
  }
  return installed() ? null : `the packages installed but ${nchanModule} is still missing`;
}

function nchanVersion(): string {
  const query = (name: string) => {
    try {
      return execFileSync("dpkg-query", ["-W", "-f", "${Version}", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      return "unknown";
    }
  };
  return `nginx ${query("nginx")}, libnginx-mod-nchan ${query("libnginx-mod-nchan")}`;
}

/**
 * One worker process, like Herald's one Node process: the same CPU budget (and pinned to the same
 * core). `nchan_subscriber_first_message newest`: a new subscriber gets only what is published
 * after it connects, like Herald's live-only subscription (no cursor).
 */
function nginxConfig(dir: string, port: number, openFiles: number): string {
  const temp = (name: string) => join(dir, "temp", name);
  return `# Written by bench/fanout/nchan-server.ts for one benchmark run.
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile ${openFiles};
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
load_module ${nchanModule};

events {
  worker_connections ${openFiles};
}

http {
  access_log off;
  client_body_temp_path ${temp("body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};

  server {
    listen 127.0.0.1:${port};

    location = /pub {
      nchan_publisher;
      nchan_channel_id bench;
    }

    location = /sub {
      nchan_subscriber eventsource;
      nchan_channel_id bench;
      nchan_subscriber_first_message newest;
    }
  }
}
`;
}

export async function startNchan(options: StartOptions): Promise<FanoutServer> {
  const temp = createTempDir("herald-fanout-nchan-");
  const dir = temp.path;
  mkdirSync(join(dir, "temp"));
  const configFile = join(dir, "nginx.conf");
  const port = await freePort();
  writeFileSync(configFile, nginxConfig(dir, port, options.openFiles));
  // -e: the error log before the configuration is read (the compiled-in one is under /var/log).
  const child = spawnTracked(nginxBinary, ["-p", dir, "-e", join(dir, "error.log"), "-c", configFile], {
    cpus: options.serverCpus || undefined,
    openFiles: options.openFiles,
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const errorLog = () => {
    try {
      return readFileSync(join(dir, "error.log"), "utf8").trim().split("\n").slice(-5).join("\n");
    } catch {
      return "";
    }
  };
  const cleanUp = async () => {
    await stopProcess(child);
    temp.remove();
  };

  try {
    await waitForHttp(`http://127.0.0.1:${port}/`, { child, timeoutMs: fanoutConfig.serverStartTimeoutMs });
  } catch (error) {
    await cleanUp();
    throw new Error(`nginx did not start (${(error as Error).message}):\n${output}${errorLog()}`);
  }

  const poster = new HttpPoster(new URL(`http://127.0.0.1:${port}/pub`), { "content-type": "text/plain" }, options.maxPublishers);
  return {
    name: "nchan",
    description: `nginx + nchan, 1 worker process, memory store, eventsource subscribers at GET /sub (config ${configFile})`,
    version: nchanVersion(),
    pid: child.pid!,
    subscribe: { host: "127.0.0.1", port, request: `GET /sub HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n` },
    async publish(seq, sendMicros) {
      const response = await poster.post(paddedBody(marker(seq, sendMicros), fanoutConfig.baselineBodyBytes));
      // 201: delivered to subscribers; 202: stored with nobody listening.
      if (response.status !== 201 && response.status !== 202) throw new Error(`publish failed: HTTP ${response.status} ${response.body.slice(0, 200)}`);
    },
    async stop() {
      poster.close();
      const log = errorLog();
      if (/\[(crit|alert|emerg)\]/.test(log)) options.log(`nginx error log:\n${log}`);
      await cleanUp();
    },
  };
}
