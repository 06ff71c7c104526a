import type { Tx } from './engine.ts';

/** What drizzle's `.prepare()` answers: a statement whose text is built, run with its placeholders' values. */
interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * The driver connection a transaction (or the database) runs its statements on. Drizzle offers no
 * public way to name it, so this reads its session's driver client (docs/decisions/0009-built-once.md);
 * a drizzle that keeps it elsewhere fails here, loudly, on the first statement rather than building
 * statements for the wrong connection.
 */
function connectionOf(tx: Tx): object {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  if (typeof client !== 'object' || client === null) throw new Error("builtOnce: this drizzle keeps no driver client on a transaction's session");
  return client;
}

/**
 * A statement of a hot path whose SQL text is built once per connection, not on every run. The query
 * builder's cost grows with the columns a statement names: building an authorisation's card lock (three
 * tables' columns) took longer than the database took to run it. `build` writes the statement for `tx`
 * with `sql.placeholder(name)` where values go and ends with `.prepare('')` (unnamed: the connection
 * names it by its text where statements are kept prepared, see engine.ts); what it builds is kept for
 * the connection `tx` runs on and run again there with the values of each call. Results are mapped as
 * any drizzle statement's.
 *
 * On PostgreSQL a transaction runs on one of the pool's connections, which are few and long-lived, so
 * each statement is built a handful of times in a process's life. A PGlite transaction is a new object
 * each time: there it is built per call, as without this.
 *
 * A placeholder that stands for a column's value (`eq(column, placeholder)`, an insert's value) gets
 * the column's conversion, as a value would; one written inside sql`` is passed to the driver as given.
 */
export function builtOnce<R, V extends Record<string, unknown>>(build: (tx: Tx) => Prepared<R>): (tx: Tx, values: V) => Promise<R> {
  const kept = new WeakMap<object, Prepared<R>>();
  return (tx, values) => {
    const connection = connectionOf(tx);
    let statement = kept.get(connection);
    if (!statement) {
      statement = build(tx);
      kept.set(connection, statement);
    }
    return statement.execute(values);
  };
}
