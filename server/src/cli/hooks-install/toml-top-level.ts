// Where a TOML document's top-level keys end (its first table header) and where one top-level
// key's line(s) are: enough to add or replace a single top-level setting as text, so the user's
// comments, order and formatting survive. Strings, comments and multi-line arrays are stepped
// over; the caller re-parses the result with a real TOML parser before writing it.

export interface TopLevelLayout {
  /** Index of the first table header line ([table] or [[array]]), or the line count when none. */
  firstHeader: number;
  /** Lines [start, end) holding `key = value` at the top level, or null. */
  key: { start: number; end: number } | null;
}

export function topLevelLayout(lines: readonly string[], key: string): TopLevelLayout {
  let depth = 0; // open [ and { of values
  let string: '"' | "'" | '"""' | "'''" | null = null;
  let keyStart = -1;
  let found: { start: number; end: number } | null = null;
  const keyLine = new RegExp(`^\\s*(${key}|"${key}"|'${key}')\\s*=`);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const outside = depth === 0 && string === null;
    if (outside && /^\s*\[/.test(line)) return { firstHeader: n, key: found };
    if (outside && keyStart === -1 && found === null && keyLine.test(line)) keyStart = n;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (string !== null) {
        if (string.length === 1 && string === '"' && c === "\\") i++;
        else if (string === '"""' && c === "\\") i++;
        else if (line.startsWith(string, i)) {
          i += string.length - 1;
          string = null;
        }
        continue;
      }
      if (c === "#") break;
      if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
        string = line.slice(i, i + 3) as '"""' | "'''";
        i += 2;
      } else if (c === '"' || c === "'") string = c;
      else if (c === "[" || c === "{") depth++;
      else if (c === "]" || c === "}") depth = Math.max(0, depth - 1);
    }
    // A one-line string left open is a syntax error the parser reports; only multi-line ones continue.
    if (string === '"' || string === "'") string = null;
    if (keyStart !== -1 && depth === 0 && string === null) {
      found = { start: keyStart, end: n + 1 };
      keyStart = -1;
    }
  }
  return { firstHeader: lines.length, key: found };
}
