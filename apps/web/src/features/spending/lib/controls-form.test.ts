import { controlsMessages } from '@portal/contract/card-spending';
import { describe, expect, it } from 'vitest';
import { controls } from '../../../domain/cards/testing/fixtures.ts';
import { controlsBodyOf, formValuesOf, limitProblem, spentPercent } from './controls-form.ts';

describe('the controls form', () => {
  it('reads null limits as empty fields and writes empty fields back as null', () => {
    const values = formValuesOf(controls({ single_limit: '10.00', blocked_categories: ['TRAVEL', 'GAMBLING'] }));
    expect(values).toEqual({ single_limit: '10.00', daily_limit: '', monthly_limit: '', blocked_categories: ['GAMBLING', 'TRAVEL'], allowed_countries: [] });
    expect(controlsBodyOf({ ...values, daily_limit: '  ', monthly_limit: ' 20 ' })).toEqual({
      single_limit: '10.00',
      daily_limit: null,
      monthly_limit: '20',
      blocked_categories: ['GAMBLING', 'TRAVEL'],
      allowed_countries: [],
    });
  });

  it('checks a limit by itself first, then the order of the three on the field the contract names', () => {
    expect(limitProblem('single_limit', { single_limit: 'abc' })).toBe(controlsMessages.limit);
    expect(limitProblem('single_limit', { single_limit: '' })).toBeNull();
    expect(limitProblem('single_limit', { single_limit: '100', daily_limit: '50' })).toBe(controlsMessages.singleOverDaily);
    expect(limitProblem('daily_limit', { single_limit: '100', daily_limit: '50' })).toBeNull();
    expect(limitProblem('daily_limit', { daily_limit: '100', monthly_limit: '50' })).toBe(controlsMessages.dailyOverMonthly);
    expect(limitProblem('single_limit', { single_limit: '100', monthly_limit: '50' })).toBe(controlsMessages.singleOverMonthly);
    // equal limits are in order
    expect(limitProblem('single_limit', { single_limit: '50', daily_limit: '50.00', monthly_limit: '50' })).toBeNull();
    // the order waits until every limit is readable
    expect(limitProblem('single_limit', { single_limit: '100', daily_limit: '5x' })).toBeNull();
  });

  it('measures what is spent against a limit, full at or past it, nothing without one', () => {
    expect(spentPercent('50.00', '200.00')).toBe(25);
    expect(spentPercent('0.01', '300.00')).toBe(0);
    expect(spentPercent('250.00', '200.00')).toBe(100);
    expect(spentPercent('10.00', null)).toBeNull();
  });
});
