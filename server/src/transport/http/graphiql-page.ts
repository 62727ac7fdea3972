// GraphiQL with its scripts, styles and editor workers inside the page
// (@graphql-yoga/render-graphiql), so it works without the internet: Yoga's default page loads
// them from a CDN and stays a blank "Loading…" offline. The bundle is about 9 MB: it is imported
// only when GraphiQL is first opened, and the page is rendered once per set of options.
import type { GraphiQLOptions } from "graphql-yoga";

let rendered: { key: string; page: Promise<string> } | null = null;

export function renderOfflineGraphiQL(options: GraphiQLOptions): Promise<string> {
  const key = JSON.stringify(options);
  if (rendered?.key !== key) {
    const page = import("@graphql-yoga/render-graphiql").then(({ renderGraphiQL }) => renderGraphiQL(options));
    // A failed import is tried again on the next request rather than remembered.
    page.catch(() => (rendered = null));
    rendered = { key, page };
  }
  return rendered.page;
}
