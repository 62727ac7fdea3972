// A newcomer's first start: an empty embedded store gets a demo person and a producer key, so
// GraphiQL can be used at once. Never in production, never on PostgreSQL.
import type { Herald } from "../app.ts";

/** What a first start created; the secrets exist only here and in what is printed from it. */
export interface DemoCredentials {
  personId: string;
  personToken: string;
  producerKey: string;
  /** Only where a dashboard runs (HERALD_DASHBOARD_URL). */
  signInUrl: string | null;
}

/** `dashboard` (HERALD_DASHBOARD_URL) is given only where a dashboard runs; then a sign-in link is made too. */
export async function seedDemoOnFirstStart(herald: Herald, dashboard: string | undefined): Promise<DemoCredentials | null> {
  if (herald.database.provider !== "sqlite") return null;
  if ((await herald.services.directory.countPersons()) > 0) return null;
  const person = await herald.services.directory.createPerson({ name: "Demo person" });
  const token = await herald.services.auth.issuePersonToken(person.id, "demo person token");
  const key = await herald.services.auth.issueProducerKey("demo producer");
  const signIn = dashboard ? await herald.services.auth.issueSignInCode(person.id) : null;
  return { personId: person.id, personToken: token.secret, producerKey: key.secret, signInUrl: signIn ? `${dashboard}/signin/${signIn.code}` : null };
}

/** The block `herald serve` prints once it serves: where GraphQL is, and a first start's credentials. */
export function startBlock(graphiqlUrl: string, demo: DemoCredentials | null): string {
  const lines = ["", `Herald GraphQL (GraphiQL in a browser): ${graphiqlUrl}`];
  if (demo) {
    lines.push(
      "First start: created a demo person and a producer key (shown only now).",
      `  GraphiQL:        ${graphiqlUrl}`,
      `  demo person id:  ${demo.personId}`,
      `  person token:    ${demo.personToken}`,
      `  producer key:    ${demo.producerKey}`,
      ...(demo.signInUrl ? [`  dashboard sign-in link (once, 24 h): ${demo.signInUrl}`] : []),
      'Use them as the header {"Authorization": "Bearer <token>"}.',
    );
  }
  return `${lines.join("\n")}\n`;
}
