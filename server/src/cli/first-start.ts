// A newcomer's first start: an empty embedded store gets a demo person and a producer key, so
// GraphiQL can be used at once. Never in production, never on PostgreSQL.
import type { Herald } from "../app.ts";

/** `dashboard` (HERALD_DASHBOARD_URL) is given only where a dashboard runs; then a sign-in link is printed too. */
export async function seedDemoOnFirstStart(herald: Herald, graphiqlUrl: string, dashboard: string | undefined): Promise<void> {
  if (herald.database.provider !== "sqlite") return;
  if ((await herald.services.directory.countPersons()) > 0) return;
  const person = await herald.services.directory.createPerson({ name: "Demo person" });
  const token = await herald.services.auth.issuePersonToken(person.id, "demo person token");
  const key = await herald.services.auth.issueProducerKey("demo producer");
  const signIn = dashboard ? await herald.services.auth.issueSignInCode(person.id) : null;
  console.log(
    [
      "",
      "First start: created a demo person and a producer key (shown only now).",
      `  GraphiQL:        ${graphiqlUrl}`,
      `  demo person id:  ${person.id}`,
      `  person token:    ${token.secret}`,
      `  producer key:    ${key.secret}`,
      ...(signIn ? [`  dashboard sign-in link (once, 24 h): ${dashboard}/signin/${signIn.code}`] : []),
      'Use them as the header {"Authorization": "Bearer <token>"}.',
      "",
    ].join("\n"),
  );
}
