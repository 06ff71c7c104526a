// @vitest-environment jsdom
import type { TeamMember } from '@portal/contract/team';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../../testing/render.tsx';
import { MemberPicker, usePickedMember } from './member-picker.tsx';

const member = (id: string, phone: string, role: TeamMember['role']): TeamMember =>
  ({ id, phone_masked: phone, email: null, role, status: 'ACTIVE', monthly_budget: null, budget_used: '0.00', cards_held: 0, is_me: false }) as unknown as TeamMember;

/** A dialog's submit as 更换持卡人 and 转让所有权 do it: the picked member, or the field marked. */
function Harness({ members }: { members: TeamMember[] }) {
  const picked = usePickedMember();
  const [sent, setSent] = useState<string | null>(null);
  return (
    <div>
      <MemberPicker id="to" label="转给" placeholder="请选择成员" missingHelp="请选择要转给的成员" members={members} picked={picked} />
      <button type="button" onClick={() => setSent(picked.require())}>
        提交
      </button>
      <button type="button" onClick={() => picked.reset()}>
        取消
      </button>
      <output data-testid="sent">{sent ?? 'none'}</output>
    </div>
  );
}

describe('choosing a member', () => {
  it('lists each member by masked phone and role, asks for one on an empty submit, and answers the one picked', async () => {
    renderScreen(<Harness members={[member('m1', '138****0001', 'ADMIN'), member('m2', '138****0002', 'MEMBER')]} />);
    fireEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('请选择要转给的成员')).toBeInTheDocument();
    expect(screen.getByTestId('sent')).toHaveTextContent('none');

    fireEvent.mouseDown(screen.getByRole('combobox'));
    expect(await screen.findByText('138****0001（管理员）')).toBeInTheDocument();
    fireEvent.click(await screen.findByText('138****0002（成员）'));
    await waitFor(() => expect(screen.queryByText('请选择要转给的成员')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(screen.getByTestId('sent')).toHaveTextContent('m2');

    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    fireEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(screen.getByTestId('sent')).toHaveTextContent('none');
    expect(await screen.findByText('请选择要转给的成员')).toBeInTheDocument();
  });
});
