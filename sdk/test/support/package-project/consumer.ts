// A consumer's TypeScript, checked against the installed package's own .d.ts files.
import { createHeraldClient, HeraldValidationError, type LiveState, type Notification, type PublishResult } from "@herald/sdk";

const client = createHeraldClient({ url: "http://127.0.0.1:4000/graphql", token: () => "herald_pt_example", retry: { maxAttempts: 2 } });
export async function titles(): Promise<string[]> {
  const page = await client.page({ first: 5 });
  return page.items.map((n: Notification) => n.title);
}
export function describe(result: PublishResult, state: LiveState): string {
  if (state.connection === "unauthorized") return "signed out";
  return result.ok ? result.notification.id : result.reason;
}
export const isValidation = (error: unknown): boolean => error instanceof HeraldValidationError && error.field.length > 0;
