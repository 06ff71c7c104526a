import pg from 'pg';

/** The PostgreSQL server benchmarks create their throw-away databases on. */
export const benchAdminUrl = () => process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function admin<T>(fn: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: benchAdminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database for one benchmark run; answers its URL and a function that drops it. */
export async function freshBenchDatabase(label: string) {
  const name = `portal_bench_${label}_${Date.now().toString(36)}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(benchAdminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}
