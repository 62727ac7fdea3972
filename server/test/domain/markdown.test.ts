// What a producer's MARKDOWN body may and may not become as the HTML every client shows.
import { describe, expect, it } from "vitest";
import { renderMarkdown, safeHttpUrl } from "../../src/domain/markdown.ts";

describe("renderMarkdown", () => {
  it("renders emphasis, code, lists and single line breaks", () => {
    expect(renderMarkdown("**Deploy** _done_ in `eu-west-1`")).toBe("<p><strong>Deploy</strong> <em>done</em> in <code>eu-west-1</code></p>\n");
    expect(renderMarkdown("- one\n- two")).toBe("<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n");
    expect(renderMarkdown("first\nsecond")).toBe("<p>first<br>second</p>\n");
  });

  it("escapes raw HTML, block and inline, instead of passing it through", () => {
    const block = renderMarkdown("<script>window.__x = 1</script>");
    expect(block).not.toContain("<script");
    expect(block).toContain("&lt;script&gt;window.__x = 1&lt;/script&gt;");
    const inline = renderMarkdown('see <img src=x onerror="window.__x = 1"> here');
    expect(inline).not.toContain("<img");
    expect(inline).toContain("&lt;img src=x onerror=&quot;window.__x = 1&quot;&gt;");
  });

  it("keeps http(s) links, opened in a new tab without an opener, and drops other schemes to their text", () => {
    expect(renderMarkdown("[report](https://example.com/r?a=1&b=2)")).toBe(
      '<p><a href="https://example.com/r?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">report</a></p>\n',
    );
    for (const href of ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:text/html,<b>x</b>", "vbscript:x", "/relative", "//example.com/x"]) {
      const html = renderMarkdown(`[click](${href})`);
      expect(html, href).toBe("<p>click</p>\n");
    }
    expect(renderMarkdown("<javascript:alert(1)>")).not.toContain("<a");
    expect(renderMarkdown("[x][r]\n\n[r]: javascript:alert(1)")).toBe("<p>x</p>\n");
    expect(renderMarkdown("[x](&#106;avascript:alert(1))")).toBe("<p>x</p>\n");
  });

  it("escapes HTML wherever it stands: link text, table cells, emphasis, code spans", () => {
    for (const source of [
      "[<img src=x onerror=1>](https://example.com)",
      "| a |\n|---|\n| <img src=x onerror=1> |",
      "***<svg onload=1>***",
      "`<img src=x onerror=1>`",
    ]) {
      const html = renderMarkdown(source);
      expect(html, source).not.toMatch(/<(img|svg)/);
      expect(html, source).toMatch(/&lt;(img|svg) /);
    }
  });

  it("links bare URLs, and an attribute cannot be broken out of", () => {
    expect(renderMarkdown("see https://example.com/x")).toContain('<a href="https://example.com/x" target="_blank"');
    const html = renderMarkdown('[x](https://example.com/"onmouseover="alert(1) "t\\"itle")');
    expect(html).not.toMatch(/"\s*onmouseover=/);
  });

  it("shows an image as its alt text and makes no request", () => {
    const html = renderMarkdown("![build graph](https://example.com/graph.png)");
    expect(html).toBe("<p>build graph</p>\n");
  });

  it("turns headings into bold paragraphs so a body keeps the page's outline", () => {
    expect(renderMarkdown("# Release\n\ntext")).toBe("<p><strong>Release</strong></p>\n<p>text</p>\n");
  });

  it("escapes code blocks", () => {
    expect(renderMarkdown("```\n<b>x</b>\n```")).toBe("<pre><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n");
  });
});

describe("safeHttpUrl", () => {
  it("passes absolute http(s) URLs only", () => {
    expect(safeHttpUrl("https://example.com/a b")).toBe("https://example.com/a%20b");
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("/relative")).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });
});
