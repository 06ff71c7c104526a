/**
 * The console's products and fees, agreements and announcements: every role reads them, an ADMIN
 * alone changes them; each change is an audit row written with it; bad input is refused in 中文 and
 * changes nothing; a merchant's operators never reach another merchant's; and what an ADMIN changes
 * is what the portal's customers then see (the fees of a new card, an announcement in the message centre).
 */
import type { AuditItem, ConsoleOverview, OperatorRole } from '@portal/contract/console';
import type { ConsoleAgreement, ConsoleAnnouncement, ConsoleProduct } from '@portal/contract/console-admin';
import { ConsoleAdminErrorCode } from '@portal/contract/console-admin-errors';
import { ConsoleErrorCode } from '@portal/contract/console-errors';
import type { OpenedAvailableAnswer } from '@portal/contract/cards';
import type { MessagePage } from '@portal/contract/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { C, consoleOperators } from '../helpers/console.ts';
import { queryRows } from '../helpers/sql.ts';
import { expectUnchanged } from '../helpers/unchanged.ts';

const clock = new ManualClock(new Date('2026-12-02T03:00:10Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t?.close());

let serial = 0;
const { operator } = consoleOperators(() => t, clock, 'admin');
/** A new operator of the merchant at `host`, enrolled and signed in: its FULL token. */
const operatorToken = async (host: string, role: OperatorRole) => (await operator(host, role)).token;

const ROLES: OperatorRole[] = ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN'];
const tokens = {} as Record<OperatorRole, string>;
let orangeAdmin: string;
beforeAll(async () => {
  for (const role of ROLES) tokens[role] = await operatorToken('localhost', role);
  orangeAdmin = await operatorToken('orange.localhost', 'ADMIN');
});

const as = (role: OperatorRole, host = 'localhost') => t.api(host, tokens[role]);
const productsOf = async (host: string, token: string) => (await t.api(host, token).data<{ items: ConsoleProduct[] }>('GET', C('/products'))).items;
const auditRows = async (action: string) =>
  (await as('ADMIN').data<{ items: AuditItem[] }>('GET', C('/audit'), { query: { action, page_size: '100' } })).items;

/** Everything a refused change could have touched: the merchant's products, agreements, announcements and audit rows. */
const snapshot = async () =>
  JSON.stringify(
    await queryRows(
      t.database.db,
      sql`select (select json_agg(p order by p.id) from card_products p) as products,
                 (select count(*)::int from agreements) as agreements,
                 (select count(*)::int from announcements) as announcements,
                 (select count(*)::int from operator_audit where action in ('PRODUCT_CREATED', 'PRODUCT_UPDATED', 'AGREEMENT_PUBLISHED', 'ANNOUNCEMENT_PUBLISHED')) as audit`,
    ),
  );

describe('roles', () => {
  it('every role reads the products, agreements and announcements; only an ADMIN changes them, and a refusal changes nothing', async () => {
    const [product] = await productsOf('localhost', tokens.ADMIN);
    if (!product) throw new Error('the demo merchant has no product');
    for (const role of ROLES) {
      expect((await as(role).get(C('/products'))).code, role).toBe(0);
      expect((await as(role).get(C('/agreements'))).code, role).toBe(0);
      expect((await as(role).get(C('/announcements'))).code, role).toBe(0);
    }
    for (const role of ['SUPPORT', 'FINANCE', 'RISK'] as const) {
      await expectUnchanged(snapshot, async () => {
        const changed = await as(role).put(C(`/products/${product.id}`), { open_fee: '9.99' });
        expect(changed.code, role).toBe(ConsoleErrorCode.ROLE_DENIED);
        expect(changed.message).toBe('权限不足：仅管理员可以执行此操作');
        expect((await as(role).post(C('/agreements'), { title: '协议', text: '<p>内容</p>' })).code, role).toBe(ConsoleErrorCode.ROLE_DENIED);
        expect((await as(role).post(C('/announcements'), { title: '公告', content: '<p>内容</p>' })).code, role).toBe(ConsoleErrorCode.ROLE_DENIED);
      });
    }
    // and no call without a console token, nor with a customer's
    const customer = await signUp(t, 'localhost');
    expect((await t.api('localhost').get(C('/products'))).code).toBe(ConsoleErrorCode.SIGN_IN_REQUIRED);
    expect((await t.api('localhost', customer.token).get(C('/products'))).code).toBe(ConsoleErrorCode.PORTAL_TOKEN_ON_CONSOLE);
  });
});

describe('products and fees', () => {
  it("an ADMIN's change is what a customer opening a new card is shown, with its audit row of what changed", async () => {
    const customer = await signUp(t, 'localhost');
    const before = (await t.api('localhost', customer.token).data<OpenedAvailableAnswer>('GET', '/card/opened-available')).products;
    const product = before[0];
    if (!product) throw new Error('no product to open');
    const newFee = product.open_fee === '7.25' ? '7.50' : '7.25';
    const changed = await as('ADMIN').put<ConsoleProduct>(C(`/products/${product.id}`), { open_fee: newFee, topup_fee_rate: '0.021', topup_fee_min: '1.00', topup_fee_max: null });
    expect(changed.code, changed.message).toBe(0);
    expect(changed.data).toMatchObject({ id: product.id, open_fee: newFee, topup_fee_rate: '0.021', topup_fee_min: '1.00', topup_fee_max: null });
    const after = (await t.api('localhost', customer.token).data<OpenedAvailableAnswer>('GET', '/card/opened-available')).products.find((p) => p.id === product.id);
    expect(after).toMatchObject({ open_fee: newFee, topup_fee_rate: '0.021', topup_fee_min: '1.00', topup_fee_max: null });
    const row = (await auditRows('PRODUCT_UPDATED')).find((item) => item.target === product.name);
    expect(row).toMatchObject({ channel: 'CONSOLE', before: { open_fee: product.open_fee, topup_fee_rate: product.topup_fee_rate }, after: { open_fee: newFee, topup_fee_rate: '0.021' } });
    // only what changed is in the row
    expect(Object.keys(row?.after ?? {}).sort()).toEqual(
      ['open_fee', 'topup_fee_rate', 'topup_fee_min', 'topup_fee_max'].filter((key) => (product as Record<string, unknown>)[key] !== (changed.data as Record<string, unknown>)[key]).sort(),
    );
  });

  it('takes a product OFF the portal and back, and renames it', async () => {
    const [product] = await productsOf('localhost', tokens.ADMIN);
    if (!product) throw new Error('no product');
    const customer = await signUp(t, 'localhost');
    expect((await as('ADMIN').put(C(`/products/${product.id}`), { status: 'OFF' })).code).toBe(0);
    expect((await t.api('localhost', customer.token).data<OpenedAvailableAnswer>('GET', '/card/opened-available')).products.map((p) => p.id)).not.toContain(product.id);
    const renamed = await as('ADMIN').put<ConsoleProduct>(C(`/products/${product.id}`), { status: 'ON', name: `${product.name}新` });
    expect(renamed.code, renamed.message).toBe(0);
    expect((await t.api('localhost', customer.token).data<OpenedAvailableAnswer>('GET', '/card/opened-available')).products.find((p) => p.id === product.id)?.name).toBe(`${product.name}新`);
    expect((await as('ADMIN').put(C(`/products/${product.id}`), { name: product.name })).code).toBe(0);
  });

  it('refuses bad input in 中文 and changes nothing', async () => {
    const [first, second] = await productsOf('localhost', tokens.ADMIN);
    if (!first || !second) throw new Error('the demo merchant has fewer than two products');
    const cases: Array<[unknown, number, string]> = [
      [{ open_fee: '-1' }, 1001, '请输入正确的金额（不小于0，最多两位小数）'],
      [{ open_fee: '1.234' }, 1001, '请输入正确的金额（不小于0，最多两位小数）'],
      [{ topup_fee_rate: '1.5' }, 1001, '充值费率须为0到1之间的小数，最多6位小数（如 0.015 即 1.5%）'],
      [{ max_balance: '0' }, 1001, '单卡余额上限须大于0（最多两位小数）'],
      [{ per_account_limit: 0 }, 1001, '每个账户可开卡数须为1-1000的整数'],
      [{ max_per_batch: 501 }, 1001, '单批开卡数须为1-500的整数'],
      [{ name: '甲' }, 1001, '产品名称须为2-30个字符'],
      [{}, 1001, '请至少修改一项'],
      [{ topup_fee_min: '10.00', topup_fee_max: '5.00' }, ConsoleAdminErrorCode.PRODUCT_FEE_BOUNDS, '充值手续费下限不能高于上限'],
      [{ min_first_load: '1000000.00', max_balance: '999.00' }, ConsoleAdminErrorCode.PRODUCT_FIRST_LOAD, '最低首充金额不能高于单卡余额上限'],
      [{ name: second.name }, ConsoleAdminErrorCode.PRODUCT_NAME_TAKEN, '已有同名的卡产品，请换一个名称'],
      [{ open_fee: first.open_fee }, ConsoleAdminErrorCode.PRODUCT_UNCHANGED, '没有需要保存的修改'],
    ];
    for (const [body, code, message] of cases) {
      await expectUnchanged(snapshot, async () => {
        const refused = await as('ADMIN').put(C(`/products/${first.id}`), body);
        expect(refused.code, JSON.stringify(body)).toBe(code);
        expect(refused.message, JSON.stringify(body)).toBe(message);
      });
    }
    await expectUnchanged(snapshot, async () => {
      expect((await as('ADMIN').put(C('/products/00000000-0000-4000-8000-000000000000'), { open_fee: '1.00' })).code).toBe(ConsoleAdminErrorCode.PRODUCT_NOT_FOUND);
      expect((await as('ADMIN').post(C('/agreements'), { title: '', text: '<p>x</p>' })).message).toBe('请输入标题（最多100个字符）');
      expect((await as('ADMIN').post(C('/agreements'), { title: '协议', text: '   ' })).message).toBe('请输入协议内容（最多512 KB）');
      expect((await as('ADMIN').post(C('/announcements'), { title: '公告', content: '' })).message).toBe('请输入公告内容（最多50000个字符）');
      expect((await as('ADMIN').post(C('/announcements'), { title: 'x'.repeat(101), content: '<p>x</p>' })).message).toBe('请输入标题（最多100个字符）');
    });
  });
});

/** A new product's body, every field given; `name` unique per call. */
const newProduct = (more: Record<string, unknown> = {}) => ({
  name: `旅行卡${++serial}`,
  brand: 'MASTERCARD',
  bin: '55554444',
  currency: 'USD',
  open_fee: '1.50',
  topup_fee_rate: '0.012',
  topup_fee_fixed: '0.20',
  topup_fee_min: '0.50',
  topup_fee_max: null,
  min_first_load: '5.00',
  max_balance: '5000.00',
  decline_fee: '0.30',
  per_account_limit: 20,
  max_per_batch: 50,
  ...more,
});

describe('a new product', () => {
  it("an ADMIN adds one: listed last, open to customers at once with its fees, with its audit row of every field", async () => {
    const body = newProduct();
    const created = await as('ADMIN').post<ConsoleProduct>(C('/products'), body);
    expect(created.code, created.message).toBe(0);
    const { name, ...fields } = body;
    expect(created.data).toMatchObject({ ...fields, name, needs_secondary: false, status: 'ON' });
    const listed = await productsOf('localhost', tokens.SUPPORT);
    expect(listed.at(-1)?.id).toBe(created.data.id);
    // a customer may open it now, and opening it costs its fees
    const customer = await signUp(t, 'localhost');
    const offered = (await t.api('localhost', customer.token).data<OpenedAvailableAnswer>('GET', '/card/opened-available')).products.find((p) => p.id === created.data.id);
    expect(offered).toMatchObject({ name, open_fee: '1.50', topup_fee_rate: '0.012', topup_fee_min: '0.50', topup_fee_max: null, decline_fee: '0.30', remaining: 20 });
    const row = (await auditRows('PRODUCT_CREATED')).find((item) => item.target === name);
    expect(row).toMatchObject({ channel: 'CONSOLE', before: null, after: { id: created.data.id, ...fields, name, status: 'ON', needs_secondary: false } });
    // an OFF product is kept from customers until it is put ON
    const hidden = await as('ADMIN').post<ConsoleProduct>(C('/products'), newProduct({ status: 'OFF', needs_secondary: true }));
    expect(hidden.code, hidden.message).toBe(0);
    expect(hidden.data).toMatchObject({ status: 'OFF', needs_secondary: true });
    expect((await t.api('localhost', customer.token).data<OpenedAvailableAnswer>('GET', '/card/opened-available')).products.map((p) => p.id)).not.toContain(hidden.data.id);
  });

  it('is for an ADMIN alone, and a refusal adds nothing', async () => {
    for (const role of ['SUPPORT', 'FINANCE', 'RISK'] as const) {
      await expectUnchanged(snapshot, async () => {
        const refused = await as(role).post(C('/products'), newProduct());
        expect(refused.code, role).toBe(ConsoleErrorCode.ROLE_DENIED);
        expect(refused.message).toBe('权限不足：仅管理员可以执行此操作');
      });
    }
    const customer = await signUp(t, 'localhost');
    await expectUnchanged(snapshot, async () => {
      expect((await t.api('localhost').post(C('/products'), newProduct())).code).toBe(ConsoleErrorCode.SIGN_IN_REQUIRED);
      expect((await t.api('localhost', customer.token).post(C('/products'), newProduct())).code).toBe(ConsoleErrorCode.PORTAL_TOKEN_ON_CONSOLE);
    });
  });

  it('refuses bad input in 中文 and adds nothing', async () => {
    const [existing] = await productsOf('localhost', tokens.ADMIN);
    if (!existing) throw new Error('no product');
    const { name: _name, ...nameless } = newProduct();
    const cases: Array<[unknown, number, string]> = [
      [nameless, 1001, '产品名称须为2-30个字符'],
      [newProduct({ name: '甲' }), 1001, '产品名称须为2-30个字符'],
      [newProduct({ brand: 'AMEX' }), 1001, '请选择卡组织（VISA 或 MASTERCARD）'],
      [newProduct({ bin: '12345' }), 1001, 'BIN 须为6-8位数字'],
      [newProduct({ bin: '1234567a' }), 1001, 'BIN 须为6-8位数字'],
      [newProduct({ currency: 'EUR' }), 1001, '请选择币种（USD 或 CNY）'],
      [newProduct({ open_fee: '-1' }), 1001, '请输入正确的金额（不小于0，最多两位小数）'],
      [newProduct({ decline_fee: undefined }), 1001, '请输入正确的金额（不小于0，最多两位小数）'],
      [newProduct({ topup_fee_rate: '1' }), 1001, '充值费率须为0到1之间的小数，最多6位小数（如 0.015 即 1.5%）'],
      [newProduct({ max_balance: '0.00' }), 1001, '单卡余额上限须大于0（最多两位小数）'],
      [newProduct({ per_account_limit: 1.5 }), 1001, '每个账户可开卡数须为1-1000的整数'],
      [newProduct({ max_per_batch: 0 }), 1001, '单批开卡数须为1-500的整数'],
      [newProduct({ status: 'MAYBE' }), 1001, '请选择上架或下架'],
      [newProduct({ topup_fee_min: '10.00', topup_fee_max: '5.00' }), ConsoleAdminErrorCode.PRODUCT_FEE_BOUNDS, '充值手续费下限不能高于上限'],
      [newProduct({ min_first_load: '6000.00' }), ConsoleAdminErrorCode.PRODUCT_FIRST_LOAD, '最低首充金额不能高于单卡余额上限'],
      [newProduct({ name: existing.name }), ConsoleAdminErrorCode.PRODUCT_NAME_TAKEN, '已有同名的卡产品，请换一个名称'],
    ];
    for (const [body, code, message] of cases) {
      await expectUnchanged(snapshot, async () => {
        const refused = await as('ADMIN').post(C('/products'), body);
        expect(refused.code, JSON.stringify(body)).toBe(code);
        expect(refused.message, JSON.stringify(body)).toBe(message);
      });
    }
    // an unknown field is refused too, not dropped
    await expectUnchanged(snapshot, async () => {
      expect((await as('ADMIN').post(C('/products'), newProduct({ position: 0 }))).code).toBe(1001);
    });
  });

  it("is the merchant's own: another merchant's ADMIN neither sees it nor is kept from its name", async () => {
    const body = newProduct();
    const blue = await as('ADMIN').post<ConsoleProduct>(C('/products'), body);
    expect(blue.code, blue.message).toBe(0);
    expect((await productsOf('orange.localhost', orangeAdmin)).map((p) => p.id)).not.toContain(blue.data.id);
    // the same name at another merchant is another product
    const orange = await t.api('orange.localhost', orangeAdmin).post<ConsoleProduct>(C('/products'), body);
    expect(orange.code, orange.message).toBe(0);
    expect(orange.data.id).not.toBe(blue.data.id);
    expect((await productsOf('localhost', tokens.ADMIN)).filter((p) => p.name === body.name).map((p) => p.id)).toEqual([blue.data.id]);
    // each merchant's audit log has its own row only
    expect((await auditRows('PRODUCT_CREATED')).filter((row) => row.target === body.name).map((row) => row.after?.id)).toEqual([blue.data.id]);
    // and a blue ADMIN's token creates nothing at orange
    await expectUnchanged(snapshot, async () => {
      expect((await t.api('orange.localhost', tokens.ADMIN).post(C('/products'), newProduct())).code).toBe(ConsoleErrorCode.SESSION_INVALID);
    });
  });
});

describe('agreements and announcements', () => {
  it("an ADMIN's agreement becomes the one customers read, with its audit row", async () => {
    const title = `用户服务协议（第${++serial}版）`;
    const published = await as('ADMIN').post<ConsoleAgreement>(C('/agreements'), { title, text: '<p>第一条 总则</p>' });
    expect(published.code, published.message).toBe(0);
    const list = await as('SUPPORT').data<{ items: ConsoleAgreement[] }>('GET', C('/agreements'));
    expect(list.items[0]).toMatchObject({ id: published.data.id, title, characters: 13 });
    const titles = await t.api('localhost').data<Array<{ id: string; title: string }>>('GET', '/merchant/user-agreement/title');
    expect(titles[0]).toMatchObject({ id: published.data.id, title });
    expect((await auditRows('AGREEMENT_PUBLISHED')).find((row) => row.target === title)).toMatchObject({ channel: 'CONSOLE', after: { id: published.data.id } });
  });

  it("an ADMIN's announcement is in every customer's message centre, with its audit row", async () => {
    const customer = await signUp(t, 'localhost');
    const title = `费率调整公告 ${++serial}`;
    const published = await as('ADMIN').post<ConsoleAnnouncement>(C('/announcements'), { title, content: '<p>自下月起开卡费调整。</p>' });
    expect(published.code, published.message).toBe(0);
    const seen = await t.api('localhost', customer.token).data<MessagePage>('GET', '/msg-center/station-msg/list', { query: { kind: 'announcement' } });
    expect(seen.items.find((item) => item.id === published.data.id)).toMatchObject({ title, is_read: false, content: '<p>自下月起开卡费调整。</p>' });
    const listed = await as('RISK').data<{ items: ConsoleAnnouncement[]; total: number }>('GET', C('/announcements'), { query: { page_size: '100' } });
    expect(listed.items.find((item) => item.id === published.data.id)).toMatchObject({ title, content: '<p>自下月起开卡费调整。</p>' });
    expect(listed.total).toBe(listed.items.length);
    expect((await auditRows('ANNOUNCEMENT_PUBLISHED')).find((row) => row.target === title)).toMatchObject({ channel: 'CONSOLE', after: { id: published.data.id } });
  });
});

describe('tenants', () => {
  it("a merchant's operators see and change only its own products, agreements and announcements", async () => {
    const orange = await productsOf('orange.localhost', orangeAdmin);
    const blue = await productsOf('localhost', tokens.ADMIN);
    expect(orange.length).toBeGreaterThan(0);
    expect(orange.map((p) => p.id).filter((id) => blue.some((b) => b.id === id))).toEqual([]);
    const target = blue[0] as ConsoleProduct;
    await expectUnchanged(snapshot, async () => {
      expect((await t.api('orange.localhost', orangeAdmin).put(C(`/products/${target.id}`), { open_fee: '0.01' })).code).toBe(ConsoleAdminErrorCode.PRODUCT_NOT_FOUND);
      // a blue operator's token on orange's host is no session there
      expect((await t.api('orange.localhost', tokens.ADMIN).get(C('/products'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
    });
    const blueCustomer = await signUp(t, 'localhost');
    const title = `橙色商户公告 ${++serial}`;
    const published = await t.api('orange.localhost', orangeAdmin).post<ConsoleAnnouncement>(C('/announcements'), { title, content: '<p>仅橙色商户</p>' });
    expect(published.code, published.message).toBe(0);
    const seen = await t.api('localhost', blueCustomer.token).data<MessagePage>('GET', '/msg-center/station-msg/list', { query: { kind: 'announcement', page_size: '100' } });
    expect(seen.items.map((item) => item.title)).not.toContain(title);
    expect((await as('ADMIN').data<{ items: ConsoleAnnouncement[] }>('GET', C('/announcements'), { query: { page_size: '100' } })).items.map((item) => item.title)).not.toContain(title);
    const orangeAgreement = `橙色协议 ${++serial}`;
    expect((await t.api('orange.localhost', orangeAdmin).post(C('/agreements'), { title: orangeAgreement, text: '<p>x</p>' })).code).toBe(0);
    expect((await as('SUPPORT').data<{ items: ConsoleAgreement[] }>('GET', C('/agreements'))).items.map((item) => item.title)).not.toContain(orangeAgreement);
    // orange's audit rows are orange's
    expect((await auditRows('ANNOUNCEMENT_PUBLISHED')).map((row) => row.target)).not.toContain(title);
  });
});

describe("the overview's jobs", () => {
  it('counts bulk actions running, and those done with failed cards in the last 24 hours, of its own merchant alone', async () => {
    const jobs = async (host: string, token: string) => (await t.api(host, token).data<ConsoleOverview>('GET', C('/overview'))).jobs;
    const count = (rows: Array<{ kind: string; count: number }>) => rows.find((row) => row.kind === 'CARD_BULK')?.count;
    const before = await jobs('localhost', tokens.SUPPORT);
    const orangeBefore = await jobs('orange.localhost', orangeAdmin);
    const customer = await signUp(t, 'localhost');
    const [member] = await queryRows<{ id: string; account_id: string; merchant_id: string }>(
      t.database.db,
      sql`select id, account_id, merchant_id from members where phone = ${customer.phone}`,
    );
    if (!member) throw new Error('no member');
    const now = clock.now();
    const longAgo = new Date(now.getTime() - 25 * 60 * 60_000);
    const bulk = (key: string, status: string, failed: number, finishedAt: Date | null) =>
      sql`insert into card_bulk_actions (merchant_id, account_id, member_id, action, params, status, total, succeeded, failed, request_key, fingerprint, created_at, finished_at)
          values (${member.merchant_id}, ${member.account_id}, ${member.id}, 'FREEZE', '{}'::jsonb, ${status}, 2, ${2 - failed}, ${failed}, ${key}, 'f', ${now.toISOString()}::timestamptz, ${finishedAt?.toISOString() ?? null}::timestamptz)`;
    await queryRows(t.database.db, bulk('running', 'RUNNING', 0, null));
    await queryRows(t.database.db, bulk('failed-today', 'DONE', 1, now));
    await queryRows(t.database.db, bulk('failed-long-ago', 'DONE', 2, longAgo));
    await queryRows(t.database.db, bulk('all-done', 'DONE', 0, now));
    const after = await jobs('localhost', tokens.SUPPORT);
    expect(count(after.running)).toBe((count(before.running) ?? 0) + 1);
    expect(count(after.failed)).toBe((count(before.failed) ?? 0) + 1);
    expect(await jobs('orange.localhost', orangeAdmin)).toEqual(orangeBefore);
  });
});
