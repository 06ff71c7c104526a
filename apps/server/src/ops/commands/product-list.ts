import { productView } from '../../modules/card-products/service.ts';
import { defineCommand } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { textTable } from '../table.ts';

export const productList = defineCommand({
  name: 'product:list',
  summary: "List a merchant's card products: brand, BIN, currency, fees, limits, status",
  usage: ['product:list --host HOST [--json]'],
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    json: { type: 'boolean', description: 'print the products as JSON (as the API answers them), for scripts' },
  },
  examples: ['product:list --host localhost', 'product:list --host orange.localhost --json'],
  async run(flags, { services }) {
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'product:list'));
    const products = (await services.products.list(merchant.id)).map(productView);
    if (flags.json) return JSON.stringify(products, null, 2);
    if (products.length === 0) return `Merchant ${merchant.slug} offers no card product yet; add one with product:set --create.`;
    const fee = (p: (typeof products)[number]) =>
      `${p.topup_fee_rate} + ${p.topup_fee_fixed}${p.topup_fee_min ? ` ≥ ${p.topup_fee_min}` : ''}${p.topup_fee_max ? ` ≤ ${p.topup_fee_max}` : ''}`;
    const table = textTable(
      ['NAME', 'BRAND', 'BIN', 'CUR', 'OPEN FEE', 'TOP-UP FEE', 'FIRST LOAD ≥', 'MAX BALANCE', 'DECLINE FEE', 'PER ACCOUNT', 'BATCH', 'SECONDARY', 'STATUS', 'ID'],
      products.map((p) => [
        p.name,
        p.brand,
        p.bin,
        p.currency,
        p.open_fee,
        fee(p),
        p.min_first_load,
        p.max_balance,
        p.decline_fee,
        String(p.per_account_limit),
        String(p.max_per_batch),
        p.needs_secondary ? 'yes' : 'no',
        p.status,
        p.id,
      ]),
    );
    return `${table}\n${products.length} product${products.length === 1 ? '' : 's'} of merchant ${merchant.slug}`;
  },
});
