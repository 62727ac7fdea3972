// Notification bodies in MARKDOWN format, rendered once here for every client (the field
// `NotificationDisplay.bodyHtml`), so no client ships a Markdown parser. marked, GitHub-flavoured,
// a line break is a <br>. Nothing a producer writes becomes markup of its own: raw HTML arrives as
// escaped text, images are shown as their alt text (no request leaves the page), links survive
// only with an http(s) target, opened in a new tab without access to the page, and headings
// become bold paragraphs so a body cannot break the page's outline.
import { Marked, type Tokens } from "marked";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    image({ text }: Tokens.Image): string {
      return escapeHtml(text);
    },
    heading({ tokens }: Tokens.Heading): string {
      return `<p><strong>${this.parser.parseInline(tokens)}</strong></p>\n`;
    },
    link({ href, title, tokens }: Tokens.Link): string {
      const inner = this.parser.parseInline(tokens);
      const target = safeHttpUrl(href);
      if (!target) return inner;
      const titled = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(target)}"${titled} target="_blank" rel="noopener noreferrer nofollow">${inner}</a>`;
    },
  },
});

export function renderMarkdown(source: string): string {
  return markdown.parse(source, { async: false });
}

/** Only absolute http(s) URLs are followed. */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
