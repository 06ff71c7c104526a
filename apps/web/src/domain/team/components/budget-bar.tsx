import type { TeamBudget } from '@portal/contract/team';
import { toMinorUnits } from '@portal/contract/money';
import { Progress } from 'antd';
import { formatAmount } from '../../../lib/money-format.ts';
import { STATUS_TEXT } from '../../../lib/theme.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { useMyBudget } from '../api/get-my-budget.ts';
import type { CSSProperties } from 'react';

const text = teamText.budget;

// its few rules inline: a stylesheet of its own would be one more file every page's route map names
const boxStyle: CSSProperties = { margin: '0 0 16px', padding: '12px 16px', border: '1px solid #f0f1f3', borderRadius: 12 };
const lineStyle: CSSProperties = { margin: '0 0 4px', fontSize: 14, lineHeight: '22px', color: '#1f2329', overflowWrap: 'anywhere' };

/** The share of the budget used, 0–100, in whole percent (from minor units: no float on the amounts themselves). */
export function usedPercent(budget: TeamBudget) {
  if (budget.monthly_budget === null) return 0;
  const total = toMinorUnits(budget.monthly_budget);
  if (total <= 0n) return 100;
  const used = toMinorUnits(budget.used);
  const percent = Number((used * 100n) / total);
  return Math.min(100, Math.max(0, percent));
}

/** 本月预算 X USD，已用 Y，剩余 Z with its bar; nothing when the member has no budget. */
export function BudgetLine({ budget, className }: { budget: TeamBudget; className?: string }) {
  if (budget.monthly_budget === null) return null;
  const percent = usedPercent(budget);
  const spent = budget.left !== null && toMinorUnits(budget.left) <= 0n;
  return (
    <section className={className} style={boxStyle} aria-label={text.title} data-testid="member-budget">
      <p style={lineStyle}>
        {text.line(formatAmount(budget.monthly_budget), formatAmount(budget.used), formatAmount(budget.left ?? '0'), budget.currency)}
      </p>
      <Progress
        percent={percent}
        showInfo={false}
        size="small"
        status={spent ? 'exception' : 'normal'}
        strokeColor={spent ? STATUS_TEXT.error : undefined}
        aria-label={text.progressLabel}
        aria-valuenow={percent}
      />
    </section>
  );
}

/** The signed-in member's budget, when they are a 成员 with one (/card, /create-card, /wallet). */
export function MyBudget({ className }: { className?: string }) {
  const budget = useMyBudget();
  if (!budget.data) return null;
  return <BudgetLine budget={budget.data} className={className} />;
}
