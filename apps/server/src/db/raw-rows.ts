/** A row of a raw query. */
export type Row = Record<string, unknown>;
/** The rows of a raw query (both engines answer `{ rows }`). */
export const rowsOf = async (result: PromiseLike<unknown>) => ((await result) as { rows: Row[] }).rows;
/** A bigint from the text the query answered it as. */
export const big = (value: unknown) => BigInt(value as string);
