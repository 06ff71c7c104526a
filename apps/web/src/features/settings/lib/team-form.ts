import { AMOUNT_PATTERN, toMinorUnits } from '@portal/contract/money';
import { ASSIGNABLE_ROLES, ROLE_DESCRIPTIONS, ROLE_LABELS, teamLimits, teamMessages } from '@portal/contract/team';
import { formRule } from '../../../lib/form-rules.ts';

/** A monthly budget as typed: empty is none (no limit); else the contract's amount, at most the limit. */
export const budgetRule = formRule((value) => {
  const typed = value.trim();
  if (typed === '') return null;
  if (!AMOUNT_PATTERN.test(typed) || toMinorUnits(typed) > toMinorUnits(teamLimits.budgetMax)) return teamMessages.budgetInvalid;
  return null;
});

export const roleRule = formRule((value) => (value === '' ? teamMessages.roleRequired : null));

/** The budget field's text as the calls take it: null for none. */
export const budgetOf = (typed: string | undefined) => {
  const value = (typed ?? '').trim();
  return value === '' ? null : value;
};

/** The roles a member may be given, each with what it is for. */
export const roleOptions = ASSIGNABLE_ROLES.map((role) => ({
  value: role,
  label: ROLE_LABELS[role],
  description: ROLE_DESCRIPTIONS[role],
}));
