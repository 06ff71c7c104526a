// The spending summary over a million card transactions (part of `npm run bench:cards`; alone:
// `npm run bench:spending`), on PostgreSQL.
//
// A fresh database with the demo data; the demo account gets BENCH_SPEND_CARDS cards (tags on some,
// two holders) and BENCH_SPEND_ROWS authorisations spread over the last BENCH_SPEND_DAYS days, about
// 8 % of them declined, written by one generate_series statement; then VACUUM ANALYZE, the state
// autovacuum keeps the table in. It times GET /card/spending-summary's service (the SQL and the
// grouping, as the route runs it) per group_by, for the current China-time month and for the whole
// range, each the median and the slowest of BENCH_SPEND_RUNS runs, and shows the plan of the month's
// day summary: by day, card, tag and holder it reads the per-card, per-day sums the trigger on
// card_transactions keeps (an index-only scan of card_spend_days_account_day); by merchant and category
// it reads the rows (card_transactions_account_created).
import { sql } from 'drizzle-orm';
import { SPENDING_GROUP_BYS, type SpendingSummaryQuery } from '@portal/contract/card-spending-across';
import { createServices } from '../apps/server/src/composition.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { seedDemoData } from '../apps/server/src/demo-data.ts';
import { openDatabase } from '../apps/server/src/db/engine.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { ms, percentile, sorted } from './lib/measure.ts';
import { freshBenchDatabase } from './lib/pg.ts';
import { benchServerEnv } from './lib/server.ts';

const ROWS = Number(process.env.BENCH_SPEND_ROWS ?? 1_000_000);
const CARDS = Number(process.env.BENCH_SPEND_CARDS ?? 1_000);
const DAYS = Number(process.env.BENCH_SPEND_DAYS ?? 90);
const RUNS = Number(process.env.BENCH_SPEND_RUNS ?? 7);
const GOAL_MS = 500;
const HOST = 'localhost';

async function bench() {
  const target = await freshBenchDatabase('spending');
  const database = await openDatabase({ databaseUrl: target.url, poolSize: 4 });
  try {
    await database.migrate();
    await seedDemoData(database);
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const services = createServices({
      config: { ...loadConfig(benchServerEnv('http://127.0.0.1:9')), databaseUrl: target.url },
      database,
      clock: systemClock,
      log: quiet,
    });
    const { db } = database;
    const merchant = await services.merchants.findByHost(HOST);
    if (!merchant) throw new Error(`no demo merchant at ${HOST}`);
    const { rows: accounts } = (await db.execute(sql`select account_id::text as id from cards where merchant_id = ${merchant.id}
      order by created_at limit 1`)) as unknown as { rows: Array<{ id: string }> };
    const account = accounts[0];
    if (!account) throw new Error('no demo card');
    const accountId = account.id;

    const started = performance.now();
    // the account's cards: copies of a demo card (each its own id and open key), some tagged
    await db.execute(sql`insert into cards (merchant_id, account_id, product_id, holder_member_id, nickname, tags, brand, currency, status, last4,
        open_key, open_fingerprint, first_load, open_fee, topup_fee, topup_fee_rate, topup_fee_fixed, topup_fee_min, topup_fee_max, decline_fee, created_at, updated_at)
      select c.merchant_id, c.account_id, c.product_id, c.holder_member_id, 'BENCH-' || lpad(n::text, 4, '0'),
        case n % 4 when 0 then array['广告', '北美'] when 1 then array['广告'] when 2 then array['订阅'] else '{}'::text[] end,
        c.brand, 'USD', 'NORMAL', lpad((n % 10000)::text, 4, '0'), 'bench-spend-' || n, c.open_fingerprint, 0, 0, 0,
        c.topup_fee_rate, c.topup_fee_fixed, c.topup_fee_min, c.topup_fee_max, c.decline_fee, now(), now()
      from generate_series(1, ${CARDS}) n, (select * from cards where account_id = ${accountId} order by created_at limit 1) c`);
    const { rows: cardRows } = (await db.execute(sql`select count(*)::int as n from cards where account_id = ${accountId}`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    // the authorisations: spread over the days up to now, eight merchants, about 8 % declined
    await db.execute(sql`with card_list as (
        select id, row_number() over (order by id) - 1 as i from cards where account_id = ${accountId} and nickname like 'BENCH-%')
      insert into card_transactions (merchant_id, card_id, account_id, type, status, amount, currency, merchant_name, mcc, country,
        decline_code, decline_reason, authorization_id, created_at)
      select ${merchant.id}, c.id, ${accountId}, 'CONSUME',
        case when g % 13 = 0 then 'FAIL' when g % 5 = 0 then 'PENDING' else 'CLOSED' end,
        100 + (g::bigint * 7919) % 50000, 'USD',
        (array['Meta Ads', 'Google Ads', 'TikTok Ads', 'Amazon', 'Shopify', 'AliExpress', 'Apple', 'Netflix'])[1 + g % 8],
        (array['7311', '7311', '7311', '5942', '5734', '5999', '5732', '4899'])[1 + g % 8], 'US',
        case when g % 13 = 0 then 'INSUFFICIENT_FUNDS' end, case when g % 13 = 0 then '卡片余额不足' end,
        'bench_' || g, now() - (g::double precision / ${ROWS}) * interval '1 day' * ${DAYS}
      from generate_series(1, ${ROWS}) g join card_list c on c.i = g % ${CARDS}`);
    const filled = performance.now();
    await db.execute(sql`vacuum analyze card_transactions`);
    await db.execute(sql`vacuum analyze cards`);
    await db.execute(sql`vacuum analyze card_spend_days`);
    await db.execute(sql`vacuum analyze card_figures`);
    console.log(`spending: ${ROWS.toLocaleString('en')} authorisations on ${cardRows[0]?.n ?? CARDS} cards over ${DAYS} days, written in ${((filled - started) / 1000).toFixed(1)} s`);

    const scope = { accountId };
    const time = async (query: SpendingSummaryQuery) => {
      const times: number[] = [];
      let groups = 0;
      let count = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const at = performance.now();
        const answer = await services.spending.spendingSummary(merchant.id, scope, query);
        times.push(performance.now() - at);
        groups = answer.groups.length;
        count = answer.total.count;
      }
      const order = sorted(times);
      return { median: percentile(order, 50), slowest: order[order.length - 1] ?? 0, groups, count };
    };
    const whole = { from: new Date(Date.now() - (DAYS + 1) * 86_400_000).toISOString().slice(0, 10), to: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) };
    let worst = 0;
    const dayText = (at: number) => new Date(at + 8 * 3_600_000).toISOString().slice(0, 10);
    // a month's range (30 days up to today, China time) whatever today's date, and the whole range
    const month = { from: dayText(Date.now() - 29 * 86_400_000), to: dayText(Date.now()) };
    for (const [label, range] of [
      ['30 days', month],
      [`${DAYS} days`, whole],
    ] as const) {
      for (const groupBy of SPENDING_GROUP_BYS) {
        const figures = await time({ ...range, currency: 'USD', group_by: groupBy });
        worst = Math.max(worst, figures.slowest);
        console.log(
          `  summary ${label.padEnd(10)} group_by=${groupBy.padEnd(8)} median ${ms(figures.median)} ms, slowest ${ms(figures.slowest)} ms (${figures.count.toLocaleString('en')} authorisations, ${figures.groups} groups)`,
        );
      }
    }
    const firstDay = Math.floor((Date.now() + 8 * 3_600_000) / 86_400_000) - 29;
    const { rows: plan } = (await db.execute(sql`explain (analyze, buffers off, costs off, timing off, summary off)
      select d.day::text, sum(d.amount), sum(d.count)::int, sum(d.declined)::int
      from card_spend_days d where d.merchant_id = ${merchant.id} and d.account_id = ${accountId} and d.currency = 'USD'
        and d.day >= ${firstDay} group by 1`)) as unknown as { rows: Array<Record<string, string>> };
    console.log(`  plan of a month by day:\n${plan.map((row) => `    ${Object.values(row)[0]}`).join('\n')}`);
    console.log(`spending summary: slowest ${ms(worst)} ms (goal ≤ ${GOAL_MS} ms): ${worst <= GOAL_MS ? 'met' : 'NOT met'}`);
  } finally {
    await database.close();
    await target.drop();
  }
}

await bench();
