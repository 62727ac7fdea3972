// `herald publish|update|resolve|expire|emit`: a producer's mutations from a shell (an
// agent-harness hook, a CI step), against a running server. The result is one JSON line on
// stdout; a failure is one line on stderr and the exit code says which kind (0 ok,
// 2 validation with the field, 3 conflict or transition, 1 anything else).
import type { Command } from "commander";
import { callHerald, connectionFromEnv, exitCodes, outcomeOf, ProducerFailure } from "./producer-client.ts";
import { parseJsonFlag, readJsonInput, requireFields, withFlags } from "./producer-input.ts";

const failures = `
  ... on UserError { message }
  ... on ValidationError { field }
  ... on NotificationTransitionError { current { id revision status } }
  ... on OperationMismatchError { current { id revision status } }`;
const notificationResult = `__typename
  ... on Notification { id key revision status scope severity title }${failures}`;

const PUBLISH = `mutation Publish($input: PublishNotificationInput!) { publishNotification(input: $input) { ${notificationResult} } }`;
const UPDATE = `mutation Update($id: ID!, $patch: NotificationPatch!) { updateNotification(id: $id, patch: $patch) { ${notificationResult} } }`;
const RESOLVE = `mutation Resolve($id: ID!, $resolution: ResolutionInput, $operationId: String) {
  resolveNotification(id: $id, resolution: $resolution, operationId: $operationId) { ${notificationResult} } }`;
const EXPIRE = `mutation Expire($id: ID!, $reason: String, $operationId: String) {
  expireNotification(id: $id, reason: $reason, operationId: $operationId) { ${notificationResult} } }`;
const EMIT = `mutation Emit($input: EmitEventInput!) { emitEvent(input: $input) { __typename
  ... on EmitEventSuccess { eventId type duplicate listeners notifications { id key personId title } }
  ... on UserError { message }
  ... on ValidationError { field } } }`;

const flagOf: Record<string, string> = { scope: "--scope, --person or --session", key: "--key", title: "--title", "source.plugin": "--plugin", type: "--type" };
const hint = (path: string) => `give ${flagOf[path] ?? `"${path}"`} or "${path}" in --json`;
const upper = (value: string | undefined) => value?.toUpperCase();

interface ContentFlags {
  json?: string;
  title?: string;
  body?: string;
  severity?: string;
  plugin?: string;
  subsystem?: string;
  requestId?: string;
  engagement?: string;
  expiresAt?: string;
}

function contentFlags(flags: ContentFlags): Record<string, unknown> {
  return {
    title: flags.title,
    body: flags.body,
    severity: upper(flags.severity),
    "source.plugin": flags.plugin,
    "source.subsystem": flags.subsystem,
    requestId: flags.requestId,
    engagementId: flags.engagement,
    retention: flags.expiresAt === undefined ? undefined : { policy: "TTL", expiresAt: flags.expiresAt },
  };
}

function withContentOptions(command: Command): Command {
  return command
    .option("--title <text>", "title")
    .option("--body <text>", "body")
    .option("--severity <level>", "INFO, SUCCESS, WARNING or ERROR")
    .option("--plugin <name>", "source plugin (source.plugin)")
    .option("--subsystem <name>", "source subsystem")
    .option("--request-id <id>", "the request this belongs to")
    .option("--engagement <id>", "engagement id")
    .option("--expires-at <time>", "TTL retention until this ISO 8601 time");
}

/** Runs a command body, printing its result or its failure, and sets the exit code. */
async function produce(run: () => Promise<Record<string, unknown>>): Promise<void> {
  try {
    console.log(JSON.stringify(outcomeOf(await run())));
    process.exitCode = exitCodes.ok;
  } catch (error) {
    const failure = error instanceof ProducerFailure ? error : new ProducerFailure(exitCodes.other, (error as Error).message);
    console.error(`herald: ${failure.message}`);
    process.exitCode = failure.exitCode;
  }
}

export function registerProducerCommands(program: Command): void {
  const jsonHelp = "the whole input as JSON from a file, or - for stdin (flags override its fields)";
  // A usage mistake (unknown flag, missing argument) is a validation failure for scripts too.
  const usageIsValidation = (command: Command) => command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : exitCodes.validation));

  withContentOptions(
    usageIsValidation(program.command("publish"))
      .description("publish a notification, or a new revision of the active one with its key (HERALD_URL, HERALD_PRODUCER_KEY)")
      .option("--json <file>", jsonHelp)
      .option("--scope <scope>", "PERSON, SESSION or APPLICATION (implied by --person / --session)")
      .option("--person <id>", "PERSON scope: the addressee")
      .option("--session <id>", "SESSION scope: the Herald session id")
      .option("--key <key>", "names the stream within the scope target"),
  ).action((flags: ContentFlags & { scope?: string; person?: string; session?: string; key?: string }) =>
    produce(async () => {
      const connection = connectionFromEnv();
      const implied = flags.person ? "PERSON" : flags.session ? "SESSION" : undefined;
      const input = withFlags(await readJsonInput(flags.json), {
        ...contentFlags(flags),
        scope: upper(flags.scope),
        personId: flags.person,
        sessionId: flags.session,
        key: flags.key,
      });
      input.scope ??= implied;
      requireFields(input, ["scope", "key", "title", "source.plugin"], hint);
      return callHerald(connection, "publishNotification", PUBLISH, { input });
    }),
  );

  withContentOptions(
    usageIsValidation(program.command("update"))
      .argument("<id>", "notification id")
      .description("change an active notification: a new revision with the given fields (the rest is kept)")
      .option("--json <file>", jsonHelp),
  ).action((id: string, flags: ContentFlags) =>
    produce(async () => {
      const connection = connectionFromEnv();
      const patch = withFlags(await readJsonInput(flags.json), contentFlags(flags));
      return callHerald(connection, "updateNotification", UPDATE, { id, patch });
    }),
  );

  usageIsValidation(program.command("resolve"))
    .argument("<id>", "notification id")
    .description("resolve a notification (idempotent when already resolved)")
    .option("--json <file>", "the resolution as JSON ({ actionId, values }) from a file, or - for stdin")
    .option("--action-id <id>", "the action that resolved it")
    .option("--values <json>", "resolution values (JSON)")
    .option("--operation-id <id>", "must be the active operation occurrence")
    .action((id: string, flags: { json?: string; actionId?: string; values?: string; operationId?: string }) =>
      produce(async () => {
        const connection = connectionFromEnv();
        const resolution = withFlags(await readJsonInput(flags.json), { actionId: flags.actionId, values: parseJsonFlag("--values", flags.values) });
        return callHerald(connection, "resolveNotification", RESOLVE, { id, resolution, operationId: flags.operationId ?? null });
      }),
    );

  usageIsValidation(program.command("expire"))
    .argument("<id>", "notification id")
    .description("expire a notification (idempotent when already expired)")
    .option("--json <file>", "{ reason } as JSON from a file, or - for stdin")
    .option("--reason <text>", "why it no longer applies")
    .option("--operation-id <id>", "must be the active operation occurrence")
    .action((id: string, flags: { json?: string; reason?: string; operationId?: string }) =>
      produce(async () => {
        const connection = connectionFromEnv();
        const input = withFlags(await readJsonInput(flags.json), { reason: flags.reason });
        return callHerald(connection, "expireNotification", EXPIRE, { id, reason: input.reason ?? null, operationId: flags.operationId ?? null });
      }),
    );

  usageIsValidation(program.command("emit"))
    .description("emit an event; Herald's listeners decide whom it notifies")
    .option("--json <file>", jsonHelp)
    .option("--type <type>", "event type, e.g. render.produced")
    .option("--payload <json>", "event payload (JSON)")
    .option("--engagement <id>", "engagement id")
    .option("--actor <personId>", "the person who caused it")
    .option("--occurred-at <time>", "ISO 8601 time it happened")
    .option("--idempotency-key <key>", "the same key twice emits once")
    .action((flags: { json?: string; type?: string; payload?: string; engagement?: string; actor?: string; occurredAt?: string; idempotencyKey?: string }) =>
      produce(async () => {
        const connection = connectionFromEnv();
        const input = withFlags(await readJsonInput(flags.json), {
          type: flags.type,
          payload: parseJsonFlag("--payload", flags.payload),
          engagementId: flags.engagement,
          actorPersonId: flags.actor,
          occurredAt: flags.occurredAt,
          idempotencyKey: flags.idempotencyKey,
        });
        requireFields(input, ["type"], hint);
        return callHerald(connection, "emitEvent", EMIT, { input });
      }),
    );
}
