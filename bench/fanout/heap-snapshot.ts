// Reads a V8 heap snapshot (the JSON node writes) into bytes and object counts per type, where a
// type is the node's kind and, for objects and closures, its constructor or function name.
import { readFileSync } from "node:fs";

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Kinds whose names are their contents (strings, numbers) or nothing to read (code). */
const UNNAMED = new Set(["string", "concatenated string", "sliced string", "number", "code"]);

export function snapshotTypes(file: string): { total: number; types: Map<string, { bytes: number; count: number }> } {
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as HeapSnapshot;
  const fields = snapshot.snapshot.meta.node_fields;
  const kinds = snapshot.snapshot.meta.node_types[0];
  const [width, kindAt, nameAt, sizeAt] = [fields.length, fields.indexOf("type"), fields.indexOf("name"), fields.indexOf("self_size")];
  const types = new Map<string, { bytes: number; count: number }>();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const kind = kinds[snapshot.nodes[i + kindAt]!]!;
    const type = UNNAMED.has(kind) ? kind : `${kind}: ${snapshot.strings[snapshot.nodes[i + nameAt]!]!.slice(0, 60)}`;
    const bytes = snapshot.nodes[i + sizeAt]!;
    total += bytes;
    const entry = types.get(type) ?? { bytes: 0, count: 0 };
    entry.bytes += bytes;
    entry.count++;
    types.set(type, entry);
  }
  return { total, types };
}
