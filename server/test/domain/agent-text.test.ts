// An agent's text as Herald keeps it: what cannot be stored or would mislead the reader is
// dropped, everything else stays as written.
import { describe, expect, it } from "vitest";
import { plainAgentText } from "../../src/domain/agent-text.ts";
import { validateExchange } from "../../src/domain/exchange-validation.ts";

describe("an agent's text", () => {
  it("loses NUL, C0 and C1 controls and bidi overrides and isolates, and keeps tabs, newlines, marks and all other text", () => {
    expect(plainAgentText("a\u0000b\u0007c\u001b[0m\u007f\u0085\u009bd")).toBe("abc[0md");
    expect(plainAgentText("line\tone\r\nline two")).toBe("line\tone\r\nline two");
    expect(plainAgentText("invoice\u202Egpj.exe\u202C \u2066x\u2069 \u202A\u202B\u202D\u2067\u2068")).toBe("invoicegpj.exe x ");
    expect(plainAgentText("\u05E9\u05DC\u05D5\u05DD\u200F 👋🏽 e\u0301")).toBe("\u05E9\u05DC\u05D5\u05DD\u200F 👋🏽 e\u0301");
    expect(plainAgentText("lone \uD800 half")).toBe("lone \uFFFD half");
  });

  it("is what an exchange keeps of its user and assistant text", () => {
    const exchange = validateExchange({ harness: "pi", sessionId: "s", cwd: "/w", userText: "do\u0001 it\u202E", assistantText: "\u009bdone" });
    expect(exchange).toMatchObject({ userText: "do it", assistantText: "done" });
  });
});
