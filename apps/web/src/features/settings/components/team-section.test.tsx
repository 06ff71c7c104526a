// @vitest-environment jsdom
import type { Role, TeamMember } from '@portal/contract/team';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { accountInfo } from '../../../domain/cards/testing/fixtures.ts';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { TeamSection } from './team-section.tsx';

const teamMember = (overrides: Partial<TeamMember>): TeamMember => ({
  id: 'm-1',
  phone_masked: '138****8000',
  email: 'boss@mail.example',
  role: 'OWNER',
  status: 'ACTIVE',
  monthly_budget: null,
  budget_used: '0.00',
  budget_currency: 'USD',
  cards_held: 2,
  joined_at: '2026-01-01T00:00:00.000Z',
  is_me: false,
  ...overrides,
});

const MEMBERS = [
  teamMember({ is_me: true }),
  teamMember({ id: 'm-2', phone_masked: '139****9000', email: null, role: 'MEMBER', monthly_budget: '500.00', budget_used: '120.50', cards_held: 3 }),
  teamMember({ id: 'm-3', phone_masked: '137****7000', email: 'fin@mail.example', role: 'FINANCE', status: 'SUSPENDED', cards_held: 0 }),
];

const INVITATION = {
  id: 'i-1',
  sent_to: 'new@mail.example',
  channel: 'EMAIL',
  role: 'VIEWER',
  monthly_budget: null,
  invited_by: '138****8000',
  created_at: '2026-03-01T00:00:00.000Z',
  expires_at: '2026-03-04T00:00:00.000Z',
};

function stubTeam(role: Role, more: Record<string, unknown> = {}) {
  return stubApi({
    '/account/info': { ...accountInfo(false), role, account_name: '蓝鲸科技' },
    '/team/members': { items: MEMBERS },
    '/team/invitations': { items: [INVITATION] },
    ...more,
  });
}

const rows = () => screen.getAllByTestId('team-member');

describe('团队成员', () => {
  it('lists the members with their role, status, budget used and left, cards held, and 我 on one’s own', async () => {
    stubTeam('OWNER');
    renderScreen(<TeamSection />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByTestId('team-name')).toHaveTextContent('蓝鲸科技');
    const [me, member, finance] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(me).toHaveTextContent('138****8000我');
    expect(me).toHaveTextContent('所有者');
    expect(member).toHaveTextContent('成员');
    expect(member).toHaveTextContent('500.00 USD');
    expect(member).toHaveTextContent('120.50 / 379.50');
    expect(member).toHaveTextContent('3 张');
    expect(finance).toHaveTextContent('已停用');
    // neither the owner's row nor one's own offers the manager's actions
    expect(within(me).queryByTestId('member-actions')).toBeNull();
    expect(within(member).getByTestId('member-actions')).toBeInTheDocument();
    expect(screen.getByTestId('team-invitations')).toHaveTextContent('new@mail.example');
    expect(screen.getByRole('button', { name: /转让所有权/ })).toBeInTheDocument();
  });

  it('shows an 观察员 the team without any of the manager’s buttons', async () => {
    stubTeam('VIEWER');
    renderScreen(<TeamSection />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.queryByRole('button', { name: /邀请成员/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /转让所有权/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /修改名称/ })).toBeNull();
    expect(screen.queryAllByTestId('member-actions')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /撤销/ })).toBeNull();
  });

  it('gives an 管理员 the manager’s buttons but not 转让所有权', async () => {
    stubTeam('ADMIN');
    renderScreen(<TeamSection />);
    expect(await screen.findByRole('button', { name: /邀请成员/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /转让所有权/ })).toBeNull();
  });

  it('invites by e-mail with a role, a 成员 with a budget checked first; the budget is offered for 成员 alone', async () => {
    const calls = stubTeam('OWNER', { '/team/invitations': (body: unknown) => (body === undefined ? { items: [] } : { id: 'i-2', expires_at: '2026-03-04T00:00:00.000Z' }) });
    const { notices } = renderScreen(<TeamSection />);
    await userEvent.click(await screen.findByRole('button', { name: /邀请成员/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: '邮箱' }), { target: { value: 'new@mail.example' } });
    await userEvent.click(within(dialog).getByRole('radio', { name: /财务/ }));
    expect(within(dialog).getByText('钱包、任意卡片的充值与提现、流水与导出；不能管理成员')).toBeInTheDocument();
    // a budget binds only a 成员's cards: none is offered to 财务
    expect(within(dialog).queryByRole('textbox', { name: '每月预算（USD，选填）' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('radio', { name: /^成员/ }));
    const budget = await within(dialog).findByRole('textbox', { name: '每月预算（USD，选填）' });
    fireEvent.change(budget, { target: { value: '12.345' } });
    await userEvent.click(within(dialog).getByRole('button', { name: '发送邀请' }));
    expect(await within(dialog).findByText('请输入正确的预算金额（不小于0，最多两位小数）')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'post')).toHaveLength(0);
    fireEvent.change(budget, { target: { value: '300' } });
    await userEvent.click(within(dialog).getByRole('button', { name: '发送邀请' }));
    await waitFor(() => expect(notices.successes).toEqual(['邀请已发送，链接 72 小时内有效']));
    expect(calls.filter((call) => call.method === 'post')).toEqual([
      { method: 'post', url: '/team/invitations', body: { role: 'MEMBER', monthly_budget: '300', email: 'new@mail.example' } },
    ]);
  });

  it('invites a 财务 with no budget in the body', async () => {
    const calls = stubTeam('OWNER', { '/team/invitations': (body: unknown) => (body === undefined ? { items: [] } : { id: 'i-3', expires_at: '2026-03-04T00:00:00.000Z' }) });
    renderScreen(<TeamSection />);
    await userEvent.click(await screen.findByRole('button', { name: /邀请成员/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: '邮箱' }), { target: { value: 'fin2@mail.example' } });
    await userEvent.click(within(dialog).getByRole('radio', { name: /^成员/ }));
    fireEvent.change(await within(dialog).findByRole('textbox', { name: '每月预算（USD，选填）' }), { target: { value: '50' } });
    // changed to 财务 after typing a budget: the budget is not sent
    await userEvent.click(within(dialog).getByRole('radio', { name: /财务/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: '发送邀请' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'post')).toEqual([{ method: 'post', url: '/team/invitations', body: { role: 'FINANCE', email: 'fin2@mail.example' } }]));
  });

  it('offers 设置预算 on a 成员’s row only', async () => {
    stubTeam('OWNER');
    renderScreen(<TeamSection />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    // the 财务's row first: no budget to set
    await userEvent.click(within(rows()[2] as HTMLElement).getByTestId('member-actions'));
    await screen.findByRole('menuitem', { name: '修改角色' });
    expect(screen.queryByRole('menuitem', { name: '设置预算' })).toBeNull();
    await userEvent.click(within(rows()[1] as HTMLElement).getByTestId('member-actions'));
    expect(await screen.findByRole('menuitem', { name: '设置预算' })).toBeInTheDocument();
  });

  it('removes a member after asking, freezing their cards when ticked', async () => {
    const calls = stubTeam('OWNER', { '/team/members/m-2': null });
    const { notices } = renderScreen(<TeamSection />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    await userEvent.click(within(rows()[1] as HTMLElement).getByTestId('member-actions'));
    await userEvent.click(await screen.findByRole('menuitem', { name: '移除' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('确定将 139****9000 移出团队吗？');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: '同时冻结其持有的卡片' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '确认移除' }));
    await waitFor(() => expect(notices.successes).toEqual(['成员已移除']));
    expect(calls.filter((call) => call.method === 'delete')).toEqual([{ method: 'delete', url: '/team/members/m-2', body: { freeze_cards: true } }]);
  });

  it('does not hand ownership over while the owner has no trade password: the dialog says to set one first', async () => {
    const calls = stubTeam('OWNER', { '/team/ownership': null });
    renderScreen(<TeamSection />);
    await userEvent.click(await screen.findByRole('button', { name: /转让所有权/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: '新的所有者' }));
    const choices = await screen.findAllByRole('option');
    fireEvent.click(choices[0] as HTMLElement);
    expect(await within(dialog).findByTestId('trade-password-unset')).toHaveTextContent('此操作须验证交易密码，您尚未设置，请先设置交易密码。');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认转让' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'post')).toEqual([]);
  });

  it('keeps the dialog open when the server refuses a role change (the HTTP module says why)', async () => {
    const refusal = new ApiError({ kind: 'api', code: 2701, status: 403, message: '权限不足：管理团队成员需要所有者或管理员角色' });
    const calls = stubTeam('OWNER', { '/team/members/m-2': refusal });
    const { notices } = renderScreen(<TeamSection />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    await userEvent.click(within(rows()[1] as HTMLElement).getByTestId('member-actions'));
    await userEvent.click(await screen.findByRole('menuitem', { name: '修改角色' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('radio', { name: /观察员/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'put')).toEqual([{ method: 'put', url: '/team/members/m-2', body: { role: 'VIEWER' } }]));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(notices.successes).toEqual([]);
  });
});
