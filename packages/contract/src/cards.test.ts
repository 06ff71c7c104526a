import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardActionsFor, cardAmountRule, nicknameRule, openingCost, rechargeCost, verificationBody, verificationRules } from './cards.ts';
import { CARD_SORT_KEYS, cardListMessages, cardListQuery, cardTagRule, cardTagsBody, parseCardSort } from './card-list.ts';
import { fromMinorUnits, toMinorUnits } from './money.ts';

const firstMessage = (body: unknown) => {
  const result = verificationBody.safeParse(body);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('the verification rules', () => {
  it('take a real name of 2–30 characters as on an ID card, and nothing else', () => {
    expect(verificationRules.realName('张三')).toBeNull();
    expect(verificationRules.realName('阿依古丽·买买提')).toBeNull();
    expect(verificationRules.realName('')).toBe('您当前输入为空');
    expect(verificationRules.realName('张')).toBe('请输入真实姓名');
    expect(verificationRules.realName('张三3')).toBe('请输入真实姓名');
    expect(verificationRules.realName('张'.repeat(31))).toBe('请输入真实姓名');
  });

  it('take a Latin name without Chinese characters, and a website that starts with http(s)', () => {
    expect(verificationRules.latinName('Zhang San')).toBeNull();
    expect(verificationRules.latinName("O'Neil-Smith Jr.")).toBeNull();
    expect(verificationRules.latinName('张 San')).toBe('不能包含中文字符');
    expect(verificationRules.latinName('Zhang_San')).toBe('请输入英文姓名（字母与空格）');
    expect(verificationRules.website('https://shop.example.com')).toBeNull();
    expect(verificationRules.website('shop.example.com')).toBe('请输入url地址');
    expect(verificationRules.website(`https://${'a'.repeat(200)}.com`)).toBe('网址长度超过限制');
  });

  it('want a pair whole, at least one of them, and the ID number with its right check digit', () => {
    expect(firstMessage({ real_name: '张三', id_number: '11010519491231002X' })).toBeNull();
    expect(firstMessage({ latin_name: 'Zhang San', website: 'https://a.example' })).toBeNull();
    expect(firstMessage({ real_name: '张三', id_number: '11010519491231002X', latin_name: 'Zhang San', website: 'https://a.example' })).toBeNull();
    expect(firstMessage({ real_name: '张三', id_number: '110105194912310021' })).toBe('请输入正确的身份证号码');
    expect(firstMessage({ real_name: '张三' })).toBe('请同时填写真实姓名和身份证号码');
    expect(firstMessage({ website: 'https://a.example' })).toBe('请同时填写英文姓名和网址');
    expect(firstMessage({})).toBe('请填写认证信息');
  });
});

describe('what a card status allows (spec §4, the plain mapping)', () => {
  it('offers freeze, top-up, withdrawal and cancel in use; unfreeze, withdrawal and cancel when frozen by its holder', () => {
    expect(cardActionsFor('NORMAL')).toEqual(['FREEZE', 'RECHARGE', 'WITHDRAW', 'DELETE']);
    expect(cardActionsFor('FREEZE', 'CUSTOMER')).toEqual(['UNFREEZE', 'WITHDRAW', 'DELETE']);
    expect(cardActionsFor('FREEZING', 'CUSTOMER')).toEqual(['UNFREEZE']);
  });

  it("leaves a freeze by the operator or the issuer to them: the holder may only withdraw", () => {
    for (const by of ['OPERATOR', 'ISSUER'] as const) {
      expect(cardActionsFor('FREEZE', by)).toEqual(['WITHDRAW']);
      expect(cardActionsFor('FREEZING', by)).toEqual([]);
    }
  });

  it('offers nothing while the issuer works, nor for a failed or cancelled card', () => {
    for (const status of ['CARD_STATUS_INIT', 'UNFREEZING', 'DELETING', 'FAIL', 'DELETE'] as const) expect(cardActionsFor(status)).toEqual([]);
  });
});

describe('what opening and topping up cost', () => {
  const ads = { open_fee: '5.00', topup_fee_rate: '0.015', topup_fee_fixed: '0.00', topup_fee_min: '0.50', topup_fee_max: '50.00' };
  const subscription = { open_fee: '2.00', topup_fee_rate: '0.010', topup_fee_fixed: '0.30', topup_fee_min: null, topup_fee_max: null };

  it('adds 开卡费, 首充金额 and 充值手续费 to 合计, clamping the fee to its bounds', () => {
    expect(openingCost(ads, '100')).toEqual({ open_fee: '5.00', amount: '100.00', topup_fee: '1.50', total: '106.50' });
    expect(openingCost(ads, '10.00')).toEqual({ open_fee: '5.00', amount: '10.00', topup_fee: '0.50', total: '15.50' });
    expect(openingCost(ads, '5000.00')).toEqual({ open_fee: '5.00', amount: '5000.00', topup_fee: '50.00', total: '5055.00' });
    expect(openingCost(subscription, '33.33')).toEqual({ open_fee: '2.00', amount: '33.33', topup_fee: '0.63', total: '35.96' });
    expect(rechargeCost(subscription, '50')).toEqual({ amount: '50.00', fee: '0.80', total: '50.80' });
  });

  it('is never negative, never below the amount, floors the fee and keeps it within its bounds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 0, max: 999_999 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: null }),
        fc.option(fc.integer({ min: 5_000, max: 100_000 }), { nil: null }),
        (cents, ratePpm, fixedCents, minCents, maxCents) => {
          const amount = fromMinorUnits(BigInt(cents));
          const product = {
            open_fee: '1.00',
            topup_fee_rate: `0.${String(ratePpm).padStart(6, '0')}`,
            topup_fee_fixed: fromMinorUnits(BigInt(fixedCents)),
            topup_fee_min: minCents === null ? null : fromMinorUnits(BigInt(minCents)),
            topup_fee_max: maxCents === null ? null : fromMinorUnits(BigInt(maxCents)),
          };
          const cost = rechargeCost(product, amount);
          const fee = toMinorUnits(cost.fee);
          // exact: floor(cents × ppm / 1e6 + fixed), then clamped
          let expected = (BigInt(cents) * BigInt(ratePpm)) / 1_000_000n + BigInt(fixedCents);
          if (minCents !== null && expected < BigInt(minCents)) expected = BigInt(minCents);
          if (maxCents !== null && expected > BigInt(maxCents)) expected = BigInt(maxCents);
          expect(fee).toBe(expected);
          expect(fee >= 0n).toBe(true);
          expect(toMinorUnits(cost.total)).toBe(BigInt(cents) + fee);
          expect(toMinorUnits(openingCost(product, amount).total)).toBe(1_00n + BigInt(cents) + fee);
        },
      ),
    );
  });
});

describe('the card field rules', () => {
  it('take a nickname of 1–20 characters and an amount above zero with at most two decimals', () => {
    expect(nicknameRule('Meta 广告')).toBeNull();
    expect(nicknameRule('  ')).toBe('您当前输入为空');
    expect(nicknameRule('一'.repeat(21))).toBe('卡片昵称须为1-20个字符');
    expect(cardAmountRule('10')).toBeNull();
    expect(cardAmountRule('10.5')).toBeNull();
    expect(cardAmountRule('0')).toBe('请输入正确的金额（大于0，最多两位小数）');
    expect(cardAmountRule('0.00')).toBe('请输入正确的金额（大于0，最多两位小数）');
    expect(cardAmountRule('1.234')).toBe('请输入正确的金额（大于0，最多两位小数）');
    expect(cardAmountRule('-1')).toBe('请输入正确的金额（大于0，最多两位小数）');
    expect(cardAmountRule('1e3')).toBe('请输入正确的金额（大于0，最多两位小数）');
    expect(cardAmountRule('')).toBe('请输入金额');
  });
});

describe('the card list query and tags', () => {
  it('reads several statuses from a comma list, once each, and refuses one it does not know', () => {
    expect(cardListQuery.parse({ status: 'NORMAL,FREEZE, NORMAL' }).status).toEqual(['NORMAL', 'FREEZE']);
    expect(cardListQuery.parse({ status: 'DELETE' }).status).toEqual(['DELETE']);
    const wrong = cardListQuery.safeParse({ status: 'NORMAL,LOST' });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({ path: ['status'], message: cardListMessages.status });
  });

  it('sorts newest first unless asked, by the five figures either way, and nothing else', () => {
    expect(cardListQuery.parse({}).sort).toBe('-created_at');
    for (const key of CARD_SORT_KEYS) {
      expect(parseCardSort(cardListQuery.parse({ sort: key }).sort)).toEqual({ key, descending: false });
      expect(parseCardSort(cardListQuery.parse({ sort: `-${key}` }).sort)).toEqual({ key, descending: true });
    }
    expect(cardListQuery.safeParse({ sort: 'nickname' }).success).toBe(false);
    expect(cardListQuery.safeParse({ sort: '--balance' }).success).toBe(false);
  });

  it('keeps tags trimmed, at most 10, each 1–20 characters, none twice, naming the tag at fault', () => {
    expect(cardTagsBody.parse({ tags: [' 广告 ', 'Meta'] }).tags).toEqual(['广告', 'Meta']);
    expect(cardTagsBody.parse({ tags: [] }).tags).toEqual([]);
    expect(cardTagsBody.parse({ tags: ['一二三四五六七八九十一二三四五六七八九十'] }).tags).toHaveLength(1);
    const issue = (tags: string[]) => cardTagsBody.safeParse({ tags }).error?.issues[0];
    expect(issue(Array.from({ length: 11 }, (_, i) => `t${i}`))).toMatchObject({ path: ['tags'], message: cardListMessages.tags });
    expect(issue(['ok', 'x'.repeat(21)])).toMatchObject({ path: ['tags', 1], message: cardListMessages.tag });
    expect(issue(['ok', '   '])).toMatchObject({ path: ['tags', 1], message: cardListMessages.tag });
    expect(issue(['ok', 'a\u0007b'])).toMatchObject({ path: ['tags', 1], message: cardListMessages.tag });
    expect(issue(['广告', ' 广告'])).toMatchObject({ path: ['tags', 1], message: '标签重复：广告' });
    expect(cardTagRule('  ')).toBe(cardListMessages.tag);
    expect(cardTagRule('Meta')).toBeNull();
  });
});

describe('the list filter’s tag and search', () => {
  it('take any tag that can be saved, counted in characters', () => {
    expect(cardListQuery.safeParse({ tag: '😀'.repeat(20) }).success).toBe(true);
    expect(cardListQuery.safeParse({ keyword: '😀'.repeat(20) }).success).toBe(true);
    expect(cardListQuery.safeParse({ tag: '😀'.repeat(21) }).success).toBe(false);
  });
});
