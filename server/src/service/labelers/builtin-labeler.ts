// The default labeler: deterministic, offline, instant. It takes the first distinctive words of
// the user's request (then of the answer), so the same material always gives the same label.
import { LABEL_MAX_BYTES, type LabelAnswer } from "../../domain/session-labels.ts";
import type { Labeler, LabelRequest } from "./labeler.ts";

// Words that say nothing about what a session is for.
const stopWords = new Set(
  `a about above after again all also am an and any are as at be been before being below both but by can could did do does doing done
  for from further had has have having he her here hers him his how i if in into is it its itself just let lets me more most my no nor
  not now of off on once only or other our ours out over own please same she should so some such than that the their theirs them then
  there these they this those through to too under until up very was we were what when where which while who whom why will with would
  you your yours yourself hi hello hey thanks thank ok okay sure yes yeah need want like make use using get got can't don't i'm it's
  i'll i've you're that's there's what's let's could would should maybe really just still`.split(/\s+/),
);
const MAX_WORD_CHARS = 18;

export class BuiltinLabeler implements Labeler {
  readonly name = "builtin";

  async label(request: LabelRequest): Promise<LabelAnswer> {
    const words: string[] = [];
    const seen = new Set<string>();
    for (const text of [request.material.user, request.material.assistant]) {
      for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)) {
        const word = match[0].replace(/['’-]+$/u, "");
        const key = word.toLowerCase();
        if (word.length < 3 || Array.from(word).length > MAX_WORD_CHARS || stopWords.has(key) || seen.has(key)) continue;
        const candidate = [...words, capitalize(word)].join(" ");
        if (Buffer.byteLength(candidate, "utf8") > LABEL_MAX_BYTES) continue;
        seen.add(key);
        words.push(capitalize(word));
        if (words.length === 4) return { kind: "label", text: words.join(" ") };
      }
    }
    if (words.length === 3) return { kind: "label", text: words.join(" ") };
    throw new Error("the exchange has too few distinctive words for a label");
  }
}

function capitalize(word: string): string {
  const [first = "", ...rest] = Array.from(word);
  return first.toLocaleUpperCase("en") + rest.join("");
}
