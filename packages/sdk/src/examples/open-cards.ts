/**
 * Opens cards with an API key, tops each up and prints their transactions:
 *
 *     npm run example:open-cards -- --key sk_… [--base-url http://localhost:3000] [--count 10] [--amount 20.00] [--top-up 5.00]
 *
 * The key needs the scopes cards:read, cards:write, funds:write and transactions:read. Every call goes
 * through the SDK's client: the key as bearer token, an Idempotency-Key on each write, and a wait
 * after a 429 as the server asks.
 */
import { parseArgs } from 'node:util';
import { createPortalClient, dataOf, PortalApiError, type PortalClient } from '../index.ts';

const { values } = parseArgs({
  options: {
    key: { type: 'string' },
    'base-url': { type: 'string', default: 'http://localhost:3000' },
    count: { type: 'string', default: '10' },
    amount: { type: 'string' },
    'top-up': { type: 'string', default: '5.00' },
    product: { type: 'string' },
  },
});

const ISSUED_WITHIN_MS = 60_000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  if (!values.key) throw new Error('缺少 --key：请传入 API 密钥（sk_…） / missing --key: pass an API key (sk_…)');
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 100) throw new Error('--count 须为 1–100 的整数 / --count must be a whole number from 1 to 100');
  const portal = createPortalClient({ baseUrl: values['base-url'], key: values.key });

  const { verification, products } = dataOf(await portal.GET('/api/v1/card/opened-available'));
  // a product the account may open `count` of now: one asking for the secondary details only once they are given
  const product = products.find((p) =>
    values.product ? p.name === values.product || p.id === values.product : p.remaining >= count && (!p.needs_secondary || verification.secondary),
  );
  if (!product) throw new Error(`没有可开 ${count} 张卡的卡产品 / no card product can open ${count} cards`);
  const amount = values.amount ?? product.min_first_load;
  console.log(`卡产品 product: ${product.name} (${product.currency})，首充 first load ${amount}，开卡 ${count} 张 cards`);

  const opened = [];
  for (let n = 1; n <= count; n++) {
    const nickname = `SDK 示例卡 ${String(n).padStart(2, '0')}`;
    const card = dataOf(await portal.POST('/api/v1/card', { body: { product_id: product.id, amount, nickname } }));
    console.log(`已申请 opened   ${card.id}  ${card.nickname}  ${card.status}`);
    opened.push(card);
  }

  const issued = [];
  for (const card of opened) issued.push(await untilIssued(portal, card.id));

  for (const card of issued) {
    const topUp = dataOf(await portal.POST('/api/v1/card/{id}/recharge', { params: { path: { id: card.id } }, body: { amount: values['top-up'] } }));
    console.log(`已充值 topped up ${card.id}  ****${topUp.card.last4 ?? '----'}  +${values['top-up']} ${topUp.card.currency}（手续费 fee ${topUp.fee}，合计 total ${topUp.total}）余额 balance ${topUp.card.balance}`);
  }

  for (const card of issued) {
    const page = dataOf(await portal.GET('/api/v1/card/{id}/transactions', { params: { path: { id: card.id }, query: { page: 1, page_size: 20 } } }));
    console.log(`交易 transactions ${card.id}  ****${card.last4 ?? '----'}  ${page.total} 笔`);
    for (const item of page.items) console.log(`  ${item.created_at}  ${item.type.padEnd(12)} ${item.amount.padStart(10)} ${item.currency}  ${item.status}`);
  }
  console.log(`完成 done: ${issued.length} 张卡已开并充值 cards opened and topped up`);
}

/** The card once the issuer has issued it; an error when it failed or took too long. */
async function untilIssued(portal: PortalClient, id: string) {
  const deadline = Date.now() + ISSUED_WITHIN_MS;
  for (;;) {
    const card = dataOf(await portal.GET('/api/v1/card/{id}', { params: { path: { id } } }));
    if (card.status === 'NORMAL') {
      console.log(`已开通 issued   ${card.id}  ****${card.last4 ?? '----'}  余额 balance ${card.balance} ${card.currency}`);
      return card;
    }
    if (card.status === 'FAIL') throw new Error(`开卡失败 card ${id} failed: ${card.failure_reason ?? ''}`);
    if (Date.now() > deadline) throw new Error(`卡 ${id} 在 ${ISSUED_WITHIN_MS / 1000} 秒内未开通 / card not issued in time (${card.status})`);
    await wait(500);
  }
}

main().catch((error: unknown) => {
  if (error instanceof PortalApiError) console.error(`失败 failed: ${error.code} ${error.message.replace(/^\d+ /, '')} (HTTP ${error.status})`);
  else console.error(`失败 failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
