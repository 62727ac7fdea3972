// The `herald` command line. Commands that create credentials print the secret as the last
// line of stdout (scripts take it with `tail -1`); logs go to stderr.
// The server and its store are imported when a command needs them: the producer commands, run by
// hooks many times a day, start in a fraction of the time without them.
import { Command } from "commander";
import type { Herald } from "../app.ts";
import { type Config, DEFAULT_DASHBOARD_URL, loadConfig, tuningFrom } from "../config.ts";
import { ValidationError } from "../domain/errors.ts";
import { createLogger, logFormatFrom } from "../logger.ts";
import { registerHookCommand } from "./hook/command.ts";
import { registerHooksCommand } from "./hooks-install/command.ts";
import { registerProducerCommands } from "./producer-commands.ts";

/** Starts the line `herald serve` prints once it serves: `HERALD_READY {"url": …, "origin": …, "health": …, "pid": …}`. */
const READY_PREFIX = "HERALD_READY ";

const program = new Command("herald").description("Herald, the notification hub").showHelpAfterError();

program
  .command("serve")
  .description("apply migrations and serve GraphQL at /graphql (PORT, HOST, DATABASE_URL)")
  .action(async () => {
    const { createHerald, startServer } = await import("../app.ts");
    const { seedDemoOnFirstStart, startBlock } = await import("./first-start.ts");
    const { labelerFrom } = await import("../service/labelers/index.ts");
    const config = loadConfig();
    const logger = createLogger(config.LOG_LEVEL, undefined, logFormatFrom(config.HERALD_LOG_FORMAT));
    const herald = await createHerald({ databaseUrl: config.DATABASE_URL, logger, tuning: tuningFrom(config), labeler: labelerFrom(config) });
    const running = await startServer(herald, config.PORT, config.HOST);
    const graphiql = `${running.url}/graphql`;
    logger.info({ url: graphiql, provider: herald.database.provider }, "Herald is serving");
    const demo = config.NODE_ENV !== "production" ? await seedDemoOnFirstStart(herald, config.HERALD_DASHBOARD_URL) : null;
    process.stdout.write(startBlock(graphiql, demo));
    let stopping = false;
    const stop = async () => {
      // One graceful stop: a repeated signal (a process manager's second SIGTERM, one forwarded
      // by the launcher as well) must not end it by the signal's default action half-way.
      if (stopping) return;
      stopping = true;
      // A graceful stop that cannot finish (a stuck connection or query) must not keep the
      // process alive: whatever is unfinished is in the log, and clients resume from it.
      setTimeout(() => {
        logger.warn("shutdown did not finish in 10 s; exiting");
        process.exit(1);
      }, 10_000).unref();
      await running.close();
      await herald.close();
      process.exit(0);
    };
    // SIGHUP too: a closed terminal or a launcher passing on its own hang-up.
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
    // For scripts and test harnesses: one line they can parse, printed last, once requests are
    // served and a stop signal is handled (one sent on reading it must not meet the default action).
    // `demo` (a first start's credentials) lets `npm start` print them in its own block.
    console.log(
      `${READY_PREFIX}${JSON.stringify({ url: graphiql, origin: running.url, health: `${running.url}/health`, pid: process.pid, ...(demo ? { demo } : {}) })}`,
    );
  });

program
  .command("migrate")
  .description("apply pending migrations to DATABASE_URL (or the embedded default)")
  .action(async () => {
    const { resolveDatabaseUrl } = await import("../storage/connection/database.ts");
    const { migrate } = await import("../storage/migrations/migrate.ts");
    const url = resolveDatabaseUrl(loadConfig().DATABASE_URL);
    await migrate(url);
    console.log("Migrations applied.");
  });

const person = program.command("person").description("manage persons");
person
  .command("create")
  .requiredOption("--name <name>", "display name")
  .description("create a person and a person token (printed last)")
  .action(async (options: { name: string }) => {
    await withHerald(async (herald, config) => {
      const created = await herald.services.directory.createPerson({ name: options.name });
      const signIn = await herald.services.auth.issueSignInCode(created.id);
      const token = await herald.services.auth.issuePersonToken(created.id);
      console.log(`person ${created.id}`);
      console.log(`one-time sign-in link (24 h): ${signInLink(config, signIn.code)}`);
      console.log(token.secret);
    });
  });

program
  .command("signin")
  .argument("<personId>", "the person's id (herald person create prints it)")
  .description("print a one-time dashboard sign-in link (24 h) for an existing person (printed last)")
  .action(async (personId: string) => {
    await withHerald(async (herald, config) => {
      try {
        const signIn = await herald.services.auth.issueSignInCode(personId);
        console.log(signInLink(config, signIn.code));
      } catch (error) {
        // An unknown person is a refused argument, as for the producer commands (exit code 2).
        if (!(error instanceof ValidationError)) throw error;
        console.error(`invalid personId: no such person (herald person create --name <name> makes one)`);
        process.exitCode = 2;
      }
    });
  });

const key = program.command("key").description("manage producer keys");
key
  .command("create")
  .requiredOption("--name <name>", "what the key is for, e.g. the producing service")
  .option("--plugin <plugin>", "bind the key to one plugin (give hooks and agents such a key); without it: an admin key")
  .description("create a producer key (printed last)")
  .action(async (options: { name: string; plugin?: string }) => {
    await withHerald(async (herald) => {
      const issued = await herald.services.auth.issueProducerKey(options.name, options.plugin ?? null);
      console.log(options.plugin === undefined ? `admin producer key ${issued.id}` : `producer key ${issued.id} bound to plugin ${options.plugin.trim()}`);
      console.log(issued.secret);
    });
  });

program
  .command("revoke")
  .argument("<id-or-prefix>", "credential id, or the visible start of the token (e.g. herald_pk_AbC123)")
  .description("revoke a person token or producer key")
  .action(async (idOrPrefix: string) => {
    await withHerald(async (herald) => {
      const count = await herald.services.auth.revoke(idOrPrefix);
      console.log(`revoked ${count}`);
      if (count === 0) process.exitCode = 1;
    });
  });

registerProducerCommands(program);
registerHookCommand(program);
registerHooksCommand(program);
program
  .command("mcp")
  .description("serve the Model Context Protocol on stdio for an agent (HERALD_URL, HERALD_PRODUCER_KEY, HERALD_PERSON_ID)")
  .action(async () => (await import("./mcp/server.ts")).runMcpServer());

/** The dashboard's page that redeems a one-time sign-in code. */
function signInLink(config: Config, code: string): string {
  return `${config.HERALD_DASHBOARD_URL ?? DEFAULT_DASHBOARD_URL}/signin/${code}`;
}

async function withHerald(run: (herald: Herald, config: Config) => Promise<void>) {
  const { createHerald } = await import("../app.ts");
  const config = loadConfig();
  // No bus: a command must not wait for Redis. Running instances find a revocation in the store
  // within HERALD_REVOCATION_CHECK_MS (signOut over the API reaches them at once).
  const herald = await createHerald({
    databaseUrl: config.DATABASE_URL,
    logger: createLogger(config.LOG_LEVEL, undefined, logFormatFrom(config.HERALD_LOG_FORMAT)),
  });
  try {
    await run(herald, config);
  } finally {
    await herald.close();
  }
}

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
