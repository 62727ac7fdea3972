// Another process holding a SQLite file's write lock, as `sqlite3` in a shell or a backup does:
// a node child that runs BEGIN IMMEDIATE on its own connection, says so, and holds the lock until
// told to let go. For tests and benchmarks of what Herald does meanwhile.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { once } from "node:events";
import { join } from "node:path";

export interface SqliteLockHolder {
  /** Ends the holder's transaction (nothing it did is kept) and waits for the process to exit. */
  release(): Promise<void>;
}

const HOLDER = `
const { DatabaseSync } = require(process.argv[2]);
const db = new DatabaseSync(process.argv[1], { timeout: 30000 });
db.exec("BEGIN IMMEDIATE");
process.stdout.write("locked\\n");
process.stdin.once("data", () => {
  db.exec("ROLLBACK");
  db.close();
  process.exit(0);
});
`;

/** Resolves once another process holds the write lock of the SQLite file at `file`. */
export async function holdSqliteWriteLock(file: string): Promise<SqliteLockHolder> {
  // The server's SQLite driver as the workspace installed it (the kit itself does not depend on it).
  const driver = createRequire(join(process.cwd(), "package.json")).resolve("@photostructure/sqlite");
  const child = spawn(process.execPath, ["-e", HOLDER, file, driver], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = once(child, "exit");
  let said = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("locked\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the lock holder exited (${code}) before it held the lock`)));
  });
  return {
    async release() {
      child.stdin!.end("release\n");
      await exited;
    },
  };
}
