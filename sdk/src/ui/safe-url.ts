// Producer links (OPEN_URL follow-ups): only absolute http(s) URLs are followed. The server
// refuses other schemes when a producer publishes; a page checks again rather than trust every server.
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
