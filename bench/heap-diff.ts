// `node --import tsx bench/heap-diff.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--top N] [--paths N]`:
// what the heap holds more of in AFTER than in BEFORE, for snapshots of one process (as
// `fuzz-memory.ts --snapshots` writes them). Two tables:
// - by type and constructor (V8's node type, then the constructor or function name; strings and
//   code by type only, as their names are their contents): count and self size in each snapshot;
// - the objects alive in AFTER that BEFORE did not have (V8 keeps an object's id from one snapshot
//   to the next in one process), by type and constructor, with the shortest retaining path from
//   the roots of a few of them (`--paths N` per group, default 2). These are what the time between
//   the snapshots allocated and something still holds, whatever the totals did.
// Self size only: what an object holds through others is counted where those others are.
import { readFileSync } from "node:fs";

interface Snapshot {
  types: string[];
  edgeTypes: string[];
  strings: string[];
  /** Per node: type, name, id, self size, edge count, first edge (an index into the edge arrays). */
  nodeType: Uint8Array;
  nodeName: Uint32Array;
  nodeId: Uint32Array;
  selfSize: Float64Array;
  firstEdge: Uint32Array;
  edgeCount: Uint32Array;
  edgeType: Uint8Array;
  edgeName: Uint32Array;
  /** A node index, not the snapshot's field offset. */
  edgeTo: Uint32Array;
}

function load(file: string): Snapshot {
  const raw = JSON.parse(readFileSync(file, "utf8")) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
    nodes: number[];
    edges: number[];
    strings: string[];
  };
  const meta = raw.snapshot.meta;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const field = (name: string) => meta.node_fields.indexOf(name);
  const [ft, fn, fi, fs, fe] = ["type", "name", "id", "self_size", "edge_count"].map(field) as [number, number, number, number, number];
  const [et, en, eto] = ["type", "name_or_index", "to_node"].map((name) => meta.edge_fields.indexOf(name)) as [number, number, number];
  const count = raw.nodes.length / nf;
  const edges = raw.edges.length / ef;
  const s: Snapshot = {
    types: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    strings: raw.strings,
    nodeType: new Uint8Array(count),
    nodeName: new Uint32Array(count),
    nodeId: new Uint32Array(count),
    selfSize: new Float64Array(count),
    firstEdge: new Uint32Array(count),
    edgeCount: new Uint32Array(count),
    edgeType: new Uint8Array(edges),
    edgeName: new Uint32Array(edges),
    edgeTo: new Uint32Array(edges),
  };
  let edge = 0;
  for (let i = 0; i < count; i++) {
    const at = i * nf;
    s.nodeType[i] = raw.nodes[at + ft]!;
    s.nodeName[i] = raw.nodes[at + fn]!;
    s.nodeId[i] = raw.nodes[at + fi]!;
    s.selfSize[i] = raw.nodes[at + fs]!;
    s.edgeCount[i] = raw.nodes[at + fe]!;
    s.firstEdge[i] = edge;
    edge += s.edgeCount[i]!;
  }
  for (let i = 0; i < edges; i++) {
    s.edgeType[i] = raw.edges[i * ef + et]!;
    s.edgeName[i] = raw.edges[i * ef + en]!;
    s.edgeTo[i] = raw.edges[i * ef + eto]! / nf;
  }
  return s;
}

const byTypeOnly = new Set(["string", "concatenated string", "sliced string", "number", "code", "bigint"]);
function groupOf(s: Snapshot, node: number): string {
  const type = s.types[s.nodeType[node]!]!;
  if (byTypeOnly.has(type)) return `(${type})`;
  const name = s.strings[s.nodeName[node]!]!;
  return `${type} ${name.length > 70 ? `${name.slice(0, 70)}…` : name}`;
}

function totals(s: Snapshot, only?: (node: number) => boolean) {
  const groups = new Map<string, { count: number; bytes: number; nodes: number[] }>();
  for (let i = 0; i < s.nodeType.length; i++) {
    if (only && !only(i)) continue;
    const key = groupOf(s, i);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { count: 0, bytes: 0, nodes: [] }));
    group.count++;
    group.bytes += s.selfSize[i]!;
    if (group.nodes.length < 64) group.nodes.push(i);
  }
  return groups;
}

/** Each node's retainer on a shortest path from the root over strong edges (weak ones do not retain). */
function shortestRetainers(s: Snapshot): { via: Int32Array; edge: Int32Array } {
  const via = new Int32Array(s.nodeType.length).fill(-1);
  const edgeOf = new Int32Array(s.nodeType.length).fill(-1);
  const weak = s.edgeTypes.indexOf("weak");
  const seen = new Uint8Array(s.nodeType.length);
  let frontier = [0];
  seen[0] = 1;
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const node of frontier) {
      const first = s.firstEdge[node]!;
      for (let e = first; e < first + s.edgeCount[node]!; e++) {
        if (s.edgeType[e] === weak) continue;
        const to = s.edgeTo[e]!;
        if (seen[to]) continue;
        seen[to] = 1;
        via[to] = node;
        edgeOf[to] = e;
        next.push(to);
      }
    }
    frontier = next;
  }
  return { via, edge: edgeOf };
}

/** The node, then what holds it, and what holds that, up to a root (or 16 steps). */
function pathOf(s: Snapshot, retainers: { via: Int32Array; edge: Int32Array }, node: number): string {
  const lines = [groupOf(s, node)];
  for (let at = node; at > 0 && lines.length < 16; at = retainers.via[at]!) {
    const e = retainers.edge[at]!;
    if (e < 0) {
      lines.push("(not reachable over strong edges)");
      break;
    }
    const type = s.edgeTypes[s.edgeType[e]!]!;
    const name = type === "element" || type === "hidden" ? `[${s.edgeName[e]}]` : s.strings[s.edgeName[e]!]!;
    lines.push(`<- ${type} ${name.length > 40 ? `${name.slice(0, 40)}…` : name} of ${groupOf(s, retainers.via[at]!)}`);
  }
  return lines.join("\n        ");
}

const MiB = 1024 * 1024;
const fmtBytes = (bytes: number) => `${bytes >= 0 ? "+" : ""}${(bytes / MiB).toFixed(3)} MiB`;
const [beforeFile, afterFile] = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--"));
if (!beforeFile || !afterFile) throw new Error("usage: heap-diff.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--top N] [--paths N]");
const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const top = option("--top", 25);
const paths = option("--paths", 2);

const before = load(beforeFile);
const after = load(afterFile);
const sum = (s: Snapshot) => s.selfSize.reduce((a, b) => a + b, 0);
console.log(
  `before: ${before.nodeType.length} objects, ${(sum(before) / MiB).toFixed(2)} MiB; after: ${after.nodeType.length} objects, ${(sum(after) / MiB).toFixed(2)} MiB (${fmtBytes(sum(after) - sum(before))})`,
);

const a = totals(before);
const b = totals(after);
const rows = [...new Set([...a.keys(), ...b.keys()])].map((key) => {
  const x = a.get(key) ?? { count: 0, bytes: 0 };
  const y = b.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: y.count - x.count, bytes: y.bytes - x.bytes, after: y.bytes };
});
console.log(`\nby type and constructor, largest changes of self size (top ${top}):`);
for (const row of rows.sort((p, q) => Math.abs(q.bytes) - Math.abs(p.bytes)).slice(0, top)) {
  console.log(`  ${fmtBytes(row.bytes).padStart(13)} ${String(row.count >= 0 ? `+${row.count}` : row.count).padStart(8)}  ${row.key}`);
}

const oldIds = new Set(before.nodeId);
const fresh = totals(after, (node) => !oldIds.has(after.nodeId[node]!));
const freshRows = [...fresh.entries()].sort((p, q) => q[1].bytes - p[1].bytes);
const freshBytes = freshRows.reduce((t, [, g]) => t + g.bytes, 0);
console.log(
  `\nobjects in after that before did not have: ${freshRows.reduce((t, [, g]) => t + g.count, 0)}, ${(freshBytes / MiB).toFixed(3)} MiB (top ${top}):`,
);
const retainers = paths > 0 ? shortestRetainers(after) : undefined;
for (const [key, group] of freshRows.slice(0, top)) {
  console.log(`  ${fmtBytes(group.bytes).padStart(13)} ${String(group.count).padStart(8)}  ${key}`);
  if (!retainers) continue;
  // The largest few of the group, whose paths say the most.
  const sample = [...group.nodes].sort((p, q) => after.selfSize[q]! - after.selfSize[p]!).slice(0, paths);
  for (const node of sample) console.log(`      ${pathOf(after, retainers, node)}`);
}
