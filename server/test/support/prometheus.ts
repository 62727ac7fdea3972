// Reads one sample out of Prometheus text exposition, as a scraper would.

/**
 * The value of the sample `name` whose labels include `labels` (summed when several match),
 * or NaN when there is none, so an expectation on a missing metric fails with its name.
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = Number.NaN;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (!Object.entries(labels).every(([key, value]) => found[key] === value)) continue;
    total = (Number.isNaN(total) ? 0 : total) + Number(match[3]);
  }
  return total;
}
