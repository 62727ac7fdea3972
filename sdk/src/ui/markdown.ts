// Notification bodies in MARKDOWN format. Raw HTML is never passed through (html: false escapes
// it), images are not rendered, and links survive only with an http(s) target, opened in a new
// tab without access to this page.
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
md.disable(["image"]);

const SAFE_LINK = /^https?:\/\//i;
md.validateLink = (url: string) => SAFE_LINK.test(url.trim());

md.renderer.rules.link_open = (tokens, index, options, _env, self) => {
  const token = tokens[index];
  if (token) {
    token.attrSet("target", "_blank");
    token.attrSet("rel", "noopener noreferrer nofollow");
  }
  return self.renderToken(tokens, index, options);
};

export function renderMarkdown(source: string): string {
  return md.render(source);
}

/** OPEN_URL follow-ups and other producer links: only absolute http(s) URLs are followed. */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
