// What every store reads and writes through: the store's connection (or pool) and the statement
// runner of its dialect.
import type { Database, Db } from "../connection/database.ts";
import type { Queries } from "./queries.ts";

export abstract class StoreBase {
  protected readonly db: Db;
  protected readonly q: Queries;

  constructor(database: Database) {
    this.db = database.db;
    this.q = database.queries;
  }
}
