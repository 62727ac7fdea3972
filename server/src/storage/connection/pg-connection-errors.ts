// PostgreSQL ends connections when it restarts ("terminating connection due to administrator
// command"), and pg reports that as an 'error' event on the connection. pg's pool listens only
// while a connection sits idle in it: one checked out between two statements of a transaction has
// no listener, and an unheard 'error' event ends the whole process (it ended an instance of the
// restart test). Every connection of the pool gets a listener for its whole life. The failure
// still reaches whoever uses the connection next: its statement fails, the transaction rolls back
// and the caller gets STORAGE_UNAVAILABLE, which is where it is reported.
import type pg from "pg";

const heard = () => undefined;

/** The pool, with every connection it opens (and the pool itself) listening for 'error'. */
export function hearingConnectionErrors(pool: pg.Pool): pg.Pool {
  pool.on("connect", (client) => client.on("error", heard));
  pool.on("error", heard);
  return pool;
}
