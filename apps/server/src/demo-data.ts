import { setUsdtOffer } from './modules/funding/service.ts';
import type { Currency, MerchantColor } from '@portal/contract/enums';
import type { Database } from './db/engine.ts';
import { randomBytes, randomInt } from 'node:crypto';
import { systemClock } from './lib/clock.ts';
import { hashPassword } from './lib/crypto.ts';
import { luhnNumberIn } from './lib/luhn.ts';
import { createSealer, type Sealer } from './lib/sealed.ts';
import { createAccountDirectory } from './modules/accounts/directory.ts';
import { createAgreementService } from './modules/agreements/service.ts';
import { createBatchProgress } from './modules/batches/service.ts';
import { createCardProductService, type ProductValues } from './modules/card-products/service.ts';
import { createCardService } from './modules/cards/service.ts';
import { createSpendingFigures } from './modules/spending/service.ts';
import { createEventPublisher } from './modules/events/publisher.ts';
import { createBooksService } from './modules/books/service.ts';
import { createLedgerService } from './modules/ledger/service.ts';
import { createManagerService } from './modules/managers/service.ts';
import { createMerchantService } from './modules/merchants/service.ts';
import { createMessageService } from './modules/messages/service.ts';

const SEED_LOCK = 727_002;

export interface DemoMerchant {
  slug: string;
  name: string;
  color: MerchantColor;
  website: string;
  icp: string;
  version: string;
  hosts: string[];
  invitationCode: string;
  managerName: string;
}

/** Every demo merchant has one demo account with these credentials (README lists them). */
export const demoAccount = {
  phone: '13800138000',
  phonePrefix: '86',
  password: 'Demo1234',
  emailFor: (website: string) => `demo@${website}`,
} as const;

/**
 * The demo account's team besides its owner: one member of each other role, with the demo password
 * (README lists them). The MEMBER has a monthly budget and holds the demo cards.
 */
export const demoTeam = [
  { role: 'ADMIN', phone: '13800138001', label: 'admin', monthlyBudget: null },
  { role: 'FINANCE', phone: '13800138002', label: 'finance', monthlyBudget: null },
  { role: 'MEMBER', phone: '13800138003', label: 'member', monthlyBudget: 2_000_00n },
  { role: 'VIEWER', phone: '13800138004', label: 'viewer', monthlyBudget: null },
] as const;

/** What each demo wallet starts with (minor units): product.md §8 "with a funded wallet". */
export const demoWalletFunds: Array<[Currency, bigint]> = [
  ['USD', 1_000_00n],
  ['CNY', 5_000_00n],
];

/**
 * The card products every demo merchant offers (shared/design/cards.md): numbers are drawn inside
 * well-known test prefixes and never leave this machine.
 */
export const demoProducts: ProductValues[] = [
  {
    name: '广告投放卡',
    brand: 'VISA',
    bin: '42424242',
    currency: 'USD',
    openFee: 5_00n,
    topupFeeRate: '0.015',
    topupFeeFixed: 0n,
    topupFeeMin: 50n,
    topupFeeMax: 50_00n,
    minFirstLoad: 10_00n,
    maxBalance: 100_000_00n,
    declineFee: 50n,
    perAccountLimit: 500,
    maxPerBatch: 500,
    needsSecondary: true,
    position: 1,
  },
  {
    name: '订阅支付卡',
    brand: 'MASTERCARD',
    bin: '55555555',
    currency: 'USD',
    openFee: 2_00n,
    topupFeeRate: '0.010',
    topupFeeFixed: 30n,
    topupFeeMin: null,
    topupFeeMax: null,
    minFirstLoad: 5_00n,
    maxBalance: 20_000_00n,
    declineFee: 30n,
    perAccountLimit: 200,
    maxPerBatch: 100,
    needsSecondary: false,
    position: 2,
  },
  {
    name: '人民币消费卡',
    brand: 'VISA',
    bin: '40000015',
    currency: 'CNY',
    openFee: 10_00n,
    topupFeeRate: '0.008',
    topupFeeFixed: 0n,
    topupFeeMin: 1_00n,
    topupFeeMax: null,
    minFirstLoad: 50_00n,
    maxBalance: 200_000_00n,
    declineFee: 2_00n,
    perAccountLimit: 100,
    maxPerBatch: 100,
    needsSecondary: false,
    position: 3,
  },
];

/** product.md §8: five demo merchants, one per theme. */
export const demoMerchants: DemoMerchant[] = [
  {
    slug: 'blue',
    invitationCode: 'BL01',
    managerName: '王经理',
    name: '蓝鲸卡',
    color: 'MERCHANT_COLOR_BLUE',
    website: 'bluewhale.example',
    icp: '沪ICP备2021018801号-1',
    version: '2021',
    hosts: ['localhost', '127.0.0.1', 'blue.localhost'],
  },
  {
    slug: 'orange',
    invitationCode: 'OR01',
    managerName: '李经理',
    name: '橙意卡',
    color: 'MERCHANT_COLOR_ORANGE',
    website: 'orangecard.example',
    icp: '粤ICP备2023045502号-2',
    version: '2023',
    hosts: ['orange.localhost'],
  },
  {
    slug: 'purple',
    invitationCode: 'PU01',
    managerName: '张经理',
    name: '紫晶卡',
    color: 'MERCHANT_COLOR_PURPLE',
    website: 'amethyst.example',
    icp: '浙ICP备2019072203号-1',
    version: '2019',
    hosts: ['purple.localhost'],
  },
  {
    slug: 'red',
    invitationCode: 'RD01',
    managerName: '陈经理',
    name: '赤焰卡',
    color: 'MERCHANT_COLOR_RED',
    website: 'redflame.example',
    icp: '京ICP备2022096604号-3',
    version: '2022',
    hosts: ['red.localhost'],
  },
  {
    slug: 'yellow',
    invitationCode: 'YL01',
    managerName: '刘经理',
    name: '金穗卡',
    color: 'MERCHANT_COLOR_YELLOW',
    website: 'goldenear.example',
    icp: '苏ICP备2026010705号-1',
    version: '2026',
    hosts: ['yellow.localhost'],
  },
];

/** Each demo merchant's USDT (TRC20) offer: 1 USDT = 1.00 USD, and a fee of at most 10 % (in basis points). */
export const demoUsdtFeeBps: Record<string, number> = { blue: 100, orange: 150, purple: 200, red: 50, yellow: 300 };

export function agreementHtml(merchantName: string) {
  return [
    `<h2>${merchantName}用户服务协议</h2>`,
    `<p>欢迎使用${merchantName}（以下简称“本平台”）提供的钱包与虚拟卡服务。请您在注册前仔细阅读本协议，勾选同意即表示您已阅读、理解并接受本协议的全部条款。</p>`,
    '<h3>一、账户注册与安全</h3>',
    '<p>1. 您应使用本人实名的中国大陆手机号码注册，并绑定本人有效的电子邮箱。</p>',
    '<p>2. 您应妥善保管登录密码、交易密码及验证码，因您保管不善造成的损失由您自行承担。</p>',
    '<p>3. 发现账户存在异常登录或被盗用时，请立即修改密码并联系客服。</p>',
    '<h3>二、钱包与资金</h3>',
    '<p>1. 钱包余额仅可用于在本平台开卡、为卡片充值及支付相关服务费用。</p>',
    '<p>2. 本平台按照页面公示的费率收取开卡费及充值手续费，费用在您确认操作前展示。</p>',
    '<p>3. 如账户存在风险，本平台有权冻结钱包，冻结期间资金不可转出。</p>',
    '<h3>三、虚拟卡使用</h3>',
    '<p>1. 虚拟卡仅限用于合法的线上消费，不得用于任何违法违规用途。</p>',
    '<p>2. 卡片注销后，卡内余额将退回至您的钱包。</p>',
    '<h3>四、隐私保护</h3>',
    '<p>本平台仅在提供服务所必需的范围内收集和使用您的个人信息，卡号及安全码均加密存储。</p>',
    '<h3>五、其他</h3>',
    '<p>本协议的解释、效力及纠纷解决均适用中华人民共和国法律。本平台可能不时更新本协议，更新后的协议将在页面公布。</p>',
  ].join('\n');
}

/** The announcement each demo merchant greets its customers with (product.md §8). */
export function welcomeAnnouncement(merchantName: string, website: string) {
  return {
    title: `欢迎使用${merchantName}`,
    content: [
      '<p>尊敬的用户：</p>',
      `<p>欢迎来到${merchantName}！在这里，您可以管理美元（USD）和人民币（CNY）钱包余额，在线申请虚拟卡，用于海外订阅、广告投放、跨境电商等线上支付。</p>`,
      '<h3>三步开始使用</h3>',
      '<ol>',
      '<li>完成实名认证：首次开卡前，请填写本人真实姓名和身份证号码。</li>',
      '<li>申请虚拟卡：选择卡片产品后即可开卡，开卡费和充值手续费会在您确认前展示。</li>',
      '<li>管理资金：可随时为卡片充值，卡内余额也可转回钱包；钱包的每一笔收支都可在钱包页面查看和导出。</li>',
      '</ol>',
      '<h3>安全提示</h3>',
      '<p>平台工作人员<strong>不会</strong>以任何理由向您索要登录密码、验证码或卡片安全码（CVV）。如发现账户异常，请立即修改密码并联系客服。</p>',
      `<p>客服邮箱：<a href="mailto:support@${website}">support@${website}</a></p>`,
      `<p>感谢您选择${merchantName}，祝您使用愉快！</p>`,
      `<p>${merchantName}运营团队</p>`,
    ].join('\n'),
  };
}

/**
 * On an empty database, adds the demo data through the modules' services; runs once even when several
 * processes start together. It is written whole or not at all: the services work in one transaction.
 */
export async function seedDemoData(database: Database, options: { sealer?: Sealer } = {}) {
  // the server passes its own sealer; without one (a test's database) the demo cards' numbers are sealed with a key made here and kept nowhere
  const sealer = options.sealer ?? createSealer(randomBytes(32));
  return database.withLock(SEED_LOCK, async () => {
    if ((await createMerchantService({ database }).count()) > 0) return false;
    const passwordHash = await hashPassword(demoAccount.password);
    await database.db.transaction(async (tx) => {
      // no server has these merchants cached yet: nothing to tell them
      const merchants = createMerchantService({ database: { db: tx, listen: database.listen, notify: async () => {} } });
      const agreements = createAgreementService({ db: tx });
      const events = createEventPublisher();
      const messages = createMessageService({ db: tx, clock: systemClock, events });
      const ledger = createLedgerService({ db: tx, clock: systemClock, events }).within(tx);
      const managers = createManagerService({ db: tx });
      const accounts = createAccountDirectory({ db: tx });
      const products = createCardProductService({ db: tx, clock: systemClock, sealer });
      for (const demo of demoMerchants) {
        const { merchant } = await merchants.create(
          {
            slug: demo.slug,
            name: demo.name,
            color: demo.color,
            website: demo.website,
            favicon: `/brand/${demo.slug}/favicon.svg`,
            darkLogo: `/brand/${demo.slug}/logo-dark.svg`,
            lightLogo: `/brand/${demo.slug}/logo-light.svg`,
            icp: demo.icp,
            version: demo.version,
            supportEmail: `support@${demo.website}`,
          },
          demo.hosts,
        );
        for (const product of demoProducts) await products.create(merchant.id, product);
        await setUsdtOffer(tx, merchant.id, { enabled: true, rateMicros: 1_000_000n, feeBps: demoUsdtFeeBps[demo.slug] ?? 100 });
        await agreements.insert({ merchantId: merchant.id, title: `${demo.name}用户服务协议`, text: agreementHtml(demo.name) });
        await messages.announce(tx, { merchantId: merchant.id, ...welcomeAnnouncement(demo.name, demo.website) });
        const manager = await managers.create({ merchantId: merchant.id, name: demo.managerName, invitationCode: demo.invitationCode });
        const account = await accounts.create({
          merchantId: merchant.id,
          phonePrefix: demoAccount.phonePrefix,
          phone: demoAccount.phone,
          email: demoAccount.emailFor(demo.website),
          passwordHash,
          managerId: manager.id,
        });
        if (!account) throw new Error(`demo account of ${demo.slug} was not created`);
        for (const [currency, amount] of demoWalletFunds) {
          await ledger.recharge({
            merchantId: merchant.id,
            accountId: account.id,
            currency,
            amount,
            memo: '演示账户初始资金',
            key: `seed:demo-wallet:${currency}`,
          });
        }
        const holders: string[] = [];
        for (const member of demoTeam) {
          const added = await accounts.addMember({
            merchantId: merchant.id,
            accountId: account.id,
            phonePrefix: demoAccount.phonePrefix,
            phone: member.phone,
            email: `${member.label}@${demo.website}`,
            passwordHash,
            role: member.role,
            monthlyBudget: member.monthlyBudget,
            invitedBy: account.memberId,
          });
          if (!added) throw new Error(`demo ${member.role} of ${demo.slug} was not created`);
          if (member.role === 'MEMBER') holders.push(added.id);
        }
        const parts = { db: tx, events, messages, ledger: createLedgerService({ db: tx, clock: systemClock, events }), books: createBooksService({ db: tx, clock: systemClock }), sealer };
        await seedDemoCards(parts, merchant, account.id, holders[0] ?? account.memberId);
      }
    });
    return true;
  });
}

/** The demo account's cards: one in use (with a top-up), one frozen, so a newcomer sees the card screens filled; its MEMBER holds them. */
const demoCards = [
  { product: '广告投放卡', nickname: 'Meta 广告投放', firstLoad: '200.00', topUp: '100.00', freeze: false },
  { product: '订阅支付卡', nickname: '软件订阅', firstLoad: '50.00', topUp: null, freeze: true },
] as const;

/**
 * Gives the demo account its verification and its cards through the card service, inside the seeding
 * transaction. No issuer runs yet while the database is seeded, so the issuer's answers are written as it
 * would send them (a number in the product's BIN, its own freeze confirmation) through the same handlers
 * its webhook events go to.
 */
async function seedDemoCards(
  parts: Pick<Parameters<typeof createCardService>[0], 'db' | 'events' | 'messages' | 'ledger' | 'books' | 'sealer'>,
  merchant: { id: string; website: string },
  accountId: string,
  holderId: string,
) {
  const asked: Array<{ cardId: string; bin: string }> = [];
  const accepted = async () => {};
  const products = createCardProductService({ db: parts.db, clock: systemClock, sealer: parts.sealer });
  const cards = createCardService({
    ...parts,
    clock: systemClock,
    issuer: {
      openCard: async (request) => void asked.push({ cardId: request.card_id, bin: request.product.bin }),
      freeze: accepted,
      unfreeze: accepted,
      close: accepted,
      // the demo cards are answered right here, by their events: none is left waiting to be asked about
      getCard: async (cardId) => ({ status: 'PENDING', card_id: cardId }),
    },
    products,
    spendingFigures: createSpendingFigures({ db: parts.db, clock: systemClock }),
    openingSettled: createBatchProgress({ events: parts.events, messages: parts.messages, clock: systemClock }).cardSettled,
  });
  const handlers = cards.issuerHandlers();
  const answer = async (type: string, data: Record<string, unknown>) => {
    const handler = handlers[type];
    if (typeof handler !== 'function') throw new Error(`no handler of ${type}`);
    await handler(parts.db, { id: `seed:${type}:${String(data.card_id)}`, type, data });
  };
  await products.saveVerification(merchant.id, accountId, { real_name: '演示用户', id_number: '11010519491231002X' });
  await products.saveVerification(merchant.id, accountId, { latin_name: 'Demo User', website: `https://shop.${merchant.website}` });
  const { products: available } = await products.openedAvailable(merchant.id, accountId);
  for (const [index, demo] of demoCards.entries()) {
    const product = available.find((p) => p.name === demo.product);
    if (!product) throw new Error(`demo product ${demo.product} is missing`);
    const card = await cards.open(merchant.id, accountId, { product_id: product.id, amount: demo.firstLoad, nickname: demo.nickname }, `seed:card:${index}`);
    const bin = asked.find((request) => request.cardId === card.id)?.bin ?? product.bin;
    const year = String(new Date().getUTCFullYear() + 3);
    await answer('card.issued', { card_id: card.id, pan: luhnNumberIn(bin), cvv: String(randomInt(100, 1000)), exp_month: '09', exp_year: year });
    if (demo.topUp) await cards.recharge(merchant.id, { accountId }, card.id, demo.topUp, `seed:top-up:${index}`);
    if (demo.freeze) {
      await cards.changeStatus(merchant.id, { accountId }, card.id, 'FREEZE');
      await answer('card.frozen', { card_id: card.id });
    }
    // the team's MEMBER holds the demo cards (the owner, who opened them, sees them all the same)
    await cards.giveTo(parts.db, merchant.id, accountId, card.id, holderId);
  }
}
