// Bounds what one GraphQL document may cost before it is parsed: a token count (graphql-js
// `maxTokens`) and a nesting bound, checked in a single pass of the lexer that stops at the first
// excess, so a huge or deeply nested document costs no more than a small one. graphql-js parses
// recursively; without the nesting bound `[[[[...]]]]` overflows the stack.
import { type DocumentNode, GraphQLError, Lexer, parse, Source, TokenKind } from "graphql";
import type { Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";

export interface DocumentLimits {
  maxTokens: number;
  /** Brackets, braces and parentheses open at once. */
  maxNesting: number;
}

const opening = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const closing = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

const refusal = (message: string) => new GraphQLError(message, { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });

/** Throws a GraphQLError (400) when the document has too many tokens or nests too deeply. */
export function checkDocument(source: string, limits: DocumentLimits): void {
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  let depth = 0;
  // Syntax errors are left to the parser, which reports them with their location.
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > limits.maxTokens) throw refusal(`The document has more than ${limits.maxTokens} tokens`);
      if (opening.has(token.kind) && ++depth > limits.maxNesting) {
        throw refusal(`The document nests brackets more than ${limits.maxNesting} levels deep`);
      }
      if (closing.has(token.kind)) depth--;
    }
  } catch (error) {
    if (error instanceof GraphQLError && error.extensions.code === "BAD_REQUEST") throw error;
  }
}

/** For /graphql: refused with a 400 before Yoga parses (its parse errors are answered 200). */
export function useDocumentLimits(limits: DocumentLimits): Plugin {
  return {
    onParams({ params, setResult }) {
      if (typeof params.query !== "string") return;
      try {
        checkDocument(params.query, limits);
      } catch (error) {
        if (error instanceof GraphQLError) setResult({ errors: [error] });
        else throw error;
      }
    },
    onParse({ setParseFn }) {
      // graphql-js's own bound, for any path that reaches the parser without the check above.
      setParseFn((source, options) => parse(source, { ...options, maxTokens: limits.maxTokens }));
    },
  };
}

/**
 * A parsed document (with the token list its locations point into) takes about 85 bytes of heap
 * per byte of source, measured on graphql 16; rounded up so the bound errs on the safe side.
 */
const AST_BYTES_PER_SOURCE_BYTE = 100;

/**
 * Yoga's parse cache, bounded by the memory its documents hold as well as by their number;
 * documents that failed to parse are never kept (each would be a free slot for an attacker), and
 * neither are documents that failed validation: Yoga keeps a document's validation errors as long
 * as the document, and each error's unread stack holds the validator's visitors and contexts, tens
 * of kilobytes the size bound does not see (bench/history.md, "Memory after long fuzzing").
 * `forgetInvalid()` is the plugin that drops them; it must be installed with the cache.
 */
export function boundedParseCache(maxDocuments: number, maxBytes: number) {
  const documents = new LRUCache<string, DocumentNode>({
    max: maxDocuments,
    maxSize: maxBytes,
    sizeCalculation: (_value, key) => Math.max(1, key.length * AST_BYTES_PER_SOURCE_BYTE),
  });
  const sourceOf = new WeakMap<DocumentNode, string>();
  return {
    documentCache: {
      get: (source: string) => documents.get(source),
      set: (source: string, document: DocumentNode) => {
        sourceOf.set(document, source);
        documents.set(source, document);
      },
    },
    errorCache: { get: () => undefined, set: () => undefined },
    /** How many documents are kept. */
    get size(): number {
      return documents.size;
    },
    /** Drops each document that failed validation from the cache once validated. */
    forgetInvalid(): Plugin {
      return {
        onValidate:
          ({ params }) =>
          ({ valid }) => {
            if (valid) return;
            const source = sourceOf.get(params.documentAST);
            if (source !== undefined) documents.delete(source);
          },
      };
    },
  };
}
