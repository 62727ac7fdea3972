// The argument text check: JSON values at any depth, never the insides of an uploaded file.
import { File } from "@whatwg-node/fetch";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/domain/errors.ts";
import { assertSafeText } from "../../src/domain/safe-text.ts";

const refusal = (value: unknown) => {
  try {
    assertSafeText(value, "");
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return { field: (error as ValidationError).field, message: (error as ValidationError).message };
  }
};

describe("assertSafeText", () => {
  it("never walks an uploaded file's contents, only its name and type", () => {
    const file = new File([new Uint8Array(64 * 1024)], "report.pdf", { type: "application/pdf" });
    // Every enumerable property of the file (its byte buffer among them) would be read by a walk.
    let walked = 0;
    for (const key of Object.keys(file)) {
      const own = (file as unknown as Record<string, unknown>)[key];
      Object.defineProperty(file, key, { enumerable: true, get: () => (walked++, own) });
    }
    expect(refusal({ file, filename: "report.pdf" })).toBeNull();
    expect(walked).toBe(2); // name and type, nothing else
    expect(refusal({ file: new File([new Uint8Array(1)], "a\u0000b") })).toMatchObject({ field: "file.name" });
  });

  it("refuses NUL and lone surrogates in values and keys, and the key __proto__, naming the path", () => {
    expect(refusal({ input: { title: "a\u0000" } })).toMatchObject({ field: "input.title" });
    expect(refusal({ data: { ["k\ud800"]: 1 } })).toMatchObject({ field: "data.k\ud800" });
    expect(refusal(JSON.parse('{"uiEffects": {"x": [{"__proto__": {"polluted": true}}]}}'))).toMatchObject({
      field: "uiEffects.x.0.__proto__",
      message: "uiEffects.x.0.__proto__: must not use the key __proto__",
    });
    expect(refusal(JSON.parse('{"values": {"constructor": "x", "toString": "y"}}'))).toBeNull();
    expect(refusal({ at: new Date(0), list: [1, "ok", null] })).toBeNull();
  });
});
