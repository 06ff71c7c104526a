// @vitest-environment jsdom
import { openingCost } from '@portal/contract/cards';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../../lib/money-format.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { AD_PRODUCT, CNY_PRODUCT, SUBSCRIPTION_PRODUCT } from '../../../domain/cards/testing/fixtures.ts';
import { CostBreakdown } from './cost-breakdown.tsx';

const line = (testId: string) => screen.getByTestId(testId).textContent;

describe('the cost breakdown', () => {
  it.each([
    { product: AD_PRODUCT, amount: '10', fee: '0.50' }, // the rate gives 0.15, the minimum 0.50
    { product: AD_PRODUCT, amount: '5000', fee: '50.00' }, // the rate gives 75.00, the maximum 50.00
    { product: SUBSCRIPTION_PRODUCT, amount: '33.33', fee: '0.63' }, // 0.3333 + 0.30, floored
    { product: CNY_PRODUCT, amount: '1000', fee: '8.00' },
  ])('shows $product.name with a first load of $amount as openingCost adds it up (fee $fee)', ({ product, amount, fee }) => {
    const cost = openingCost(product, amount);
    expect(cost.topup_fee).toBe(fee);
    renderScreen(<CostBreakdown currency={product.currency} openFee={product.open_fee} cost={cost} available="100000.00" />);
    expect(line('cost-open-fee')).toBe(`${cost.open_fee} ${product.currency}`);
    expect(line('cost-amount')).toContain(product.currency);
    expect(line('cost-topup-fee')).toBe(`${fee} ${product.currency}`);
    // 开卡费 + 首充金额 + 充值手续费 = 合计, in minor units
    const total = fromMinorUnits(toMinorUnits(product.open_fee) + toMinorUnits(amount) + toMinorUnits(fee));
    expect(cost.total).toBe(total);
    expect(line('cost-total')).toBe(`${formatAmount(total)} ${product.currency}`);
  });

  it('shows the opening fee alone until the first load is valid', () => {
    renderScreen(<CostBreakdown currency="USD" openFee="5.00" cost={null} available={undefined} />);
    expect(line('cost-open-fee')).toBe('5.00 USD');
    expect(line('cost-total')).toBe('—');
    expect(line('wallet-after')).toBe('—');
    expect(screen.getByText('输入首充金额后显示')).toBeInTheDocument();
  });

  it('shows what the wallet keeps, below zero when it is not enough', () => {
    renderScreen(<CostBreakdown currency="USD" openFee="5.00" cost={openingCost(AD_PRODUCT, '100')} available="100.00" />);
    expect(line('wallet-available')).toBe('100.00 USD');
    expect(line('wallet-after')).toBe('-6.50 USD');
  });
});
