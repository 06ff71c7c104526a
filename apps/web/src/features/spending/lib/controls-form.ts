import {
  type CardControls,
  type CardControlsBody,
  limitRule,
  limitsOrder,
  MCC_CATEGORIES,
  type MccCategory,
} from '@portal/contract/card-spending';
import { toMinorUnits } from '@portal/contract/money';

/** The controls as the form holds them: a limit left empty is no limit. */
export interface ControlsFormValues {
  single_limit: string;
  daily_limit: string;
  monthly_limit: string;
  blocked_categories: MccCategory[];
  allowed_countries: string[];
}

export type LimitField = 'single_limit' | 'daily_limit' | 'monthly_limit';
export const LIMIT_FIELDS: readonly LimitField[] = ['single_limit', 'daily_limit', 'monthly_limit'];

export const formValuesOf = (controls: CardControls): ControlsFormValues => ({
  single_limit: controls.single_limit ?? '',
  daily_limit: controls.daily_limit ?? '',
  monthly_limit: controls.monthly_limit ?? '',
  // in the contract's order, so a check box ticked and unticked again leaves the form unchanged
  blocked_categories: MCC_CATEGORIES.filter((category) => controls.blocked_categories.includes(category)),
  allowed_countries: [...controls.allowed_countries],
});

const limitOf = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

/** PUT /card/{id}/controls' body from the form: empty limits as null, the lists as they are. */
export const controlsBodyOf = (values: ControlsFormValues): CardControlsBody => ({
  single_limit: limitOf(values.single_limit),
  daily_limit: limitOf(values.daily_limit),
  monthly_limit: limitOf(values.monthly_limit),
  blocked_categories: MCC_CATEGORIES.filter((category) => values.blocked_categories.includes(category)),
  allowed_countries: values.allowed_countries,
});

/**
 * What is wrong with one limit as typed, by the contract's rules: its own (an amount above zero, at
 * most two decimals) first, then the order of the three (单笔 ≤ 单日 ≤ 单月) once all are readable.
 */
export function limitProblem(field: LimitField, values: Partial<Record<LimitField, string>>): string | null {
  const own = limitRule(values[field]);
  if (own) return own;
  if (LIMIT_FIELDS.some((name) => limitRule(values[name]) !== null)) return null;
  const order = limitsOrder({
    single_limit: limitOf(values.single_limit),
    daily_limit: limitOf(values.daily_limit),
    monthly_limit: limitOf(values.monthly_limit),
  });
  return order && order.field === field ? order.message : null;
}

/** How much of a limit is spent, 0–100 (more is shown as full); null without a limit. */
export function spentPercent(spent: string, limit: string | null): number | null {
  if (limit === null) return null;
  const whole = toMinorUnits(limit);
  if (whole <= 0n) return 100;
  const hundredths = (toMinorUnits(spent) * 10_000n) / whole;
  return Math.min(100, Number(hundredths) / 100);
}

/** The field a decline's fix should lead to. */
export const controlFieldOfDecline: Record<string, keyof ControlsFormValues> = {
  OVER_SINGLE_LIMIT: 'single_limit',
  OVER_DAILY_LIMIT: 'daily_limit',
  OVER_MONTHLY_LIMIT: 'monthly_limit',
  CATEGORY_BLOCKED: 'blocked_categories',
  COUNTRY_BLOCKED: 'allowed_countries',
};
