// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import InvitationNote from './invitation-note.tsx';

const PREVIEW = '/team/invitations/by-token/tok-1';

describe('the invitation on /sign-up', () => {
  it('says who invites, to which team and with which role', async () => {
    stubApi({
      [PREVIEW]: { account_name: '蓝鲸科技', role: 'FINANCE', invited_by: '138****8000', phone_masked: null, email: 'new@mail.example', expires_at: '2026-03-04T00:00:00.000Z' },
    });
    renderScreen(<InvitationNote token="tok-1" />, { at: '/sign-up?invitation=tok-1' });
    expect(await screen.findByTestId('invitation-preview')).toHaveTextContent('138****8000 邀请你加入 蓝鲸科技，角色：财务');
  });

  it('says in the server’s words why an invitation cannot be used, and offers to sign up without it', async () => {
    stubApi({ [PREVIEW]: new ApiError({ kind: 'api', code: 2705, status: 400, message: '邀请已过期，请联系团队管理员重新邀请' }) });
    const { location } = renderScreen(<InvitationNote token="tok-1" />, { at: '/sign-up?invitation=tok-1' });
    expect(await screen.findByTestId('invitation-failed')).toHaveTextContent('邀请已过期，请联系团队管理员重新邀请');
    await userEvent.click(screen.getByRole('link', { name: '直接注册新账户' }));
    expect(location.current?.pathname).toBe('/sign-up');
    expect(location.current?.search).toBe('');
  });
});
