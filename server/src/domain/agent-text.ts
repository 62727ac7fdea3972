// Text an agent wrote (a prompt, an answer, a title it chose) as Herald keeps and shows it. Agents
// pass through whatever a model or a tool printed: a NUL (which the API refuses, so the whole
// exchange was lost), terminal escapes and other control characters, and bidirectional overrides
// that would reorder what the person reads. Those are dropped and the rest is kept as written.
// Pure and dependency-free: the harness adapters in integrations/ import this file from source.

/**
 * C0 controls but tab, newline and carriage return; DEL and the C1 controls; the bidirectional
 * embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI). Marks (LRM, RLM)
 * stay: they order only their neighbours and right-to-left text needs them.
 */
// eslint-disable-next-line no-control-regex
const UNSHOWN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
/** A lone UTF-16 surrogate is not text (the API refuses it): it becomes U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function plainAgentText(text: string): string {
  return text.replace(UNSHOWN, "").replace(LONE_SURROGATE, "\uFFFD");
}
