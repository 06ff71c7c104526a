// @vitest-environment jsdom
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BatchExportStatus, DEFAULT_EXPORT_COLUMNS } from '@portal/contract/card-batches';
import { CardErrorCode } from '@portal/contract/card-errors';
import { ErrorCode } from '@portal/contract/errors';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, http, type RawResponse } from '../../../lib/http.ts';
import { apiUrl, stubApi } from '../../../testing/api.ts';
import { keptCodeRequests } from '../../../testing/code-requests.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { applyBatchEvent } from '../lib/apply-batch-event.ts';
import { accountInfo, card, cardPage, openedAvailable } from '../../../domain/cards/testing/fixtures.ts';
import BulkExport from './bulk-export.tsx';

const CREATE = '/card/batch-export';
const STATUS = '/card/batch-export-status';
const LIST = '/card/batch-exports';

const exportOf = (overrides: Partial<BatchExportStatus> = {}): BatchExportStatus => ({
  export_id: 'e-1',
  status: 'DONE',
  done: 7,
  total: 7,
  file_name: '卡片导出-20260301-100000.xlsx',
  expires_at: '2026-03-02T02:00:00.000Z',
  size: 14_540,
  include_sensitive: false,
  downloadable: true,
  columns: DEFAULT_EXPORT_COLUMNS,
  created_at: '2026-03-01T02:00:00.000Z',
  finished_at: '2026-03-01T02:00:01.000Z',
  error: null,
  ...overrides,
});

function stubExport(answers: Record<string, unknown> = {}) {
  return stubApi({
    '/account/info': accountInfo(false),
    '/card': cardPage([card()], 7),
    '/card/opened-available': openedAvailable(),
    [LIST]: { items: [] },
    [CREATE]: { export_id: 'e-1' },
    [STATUS]: exportOf(),
    ...answers,
  });
}

const posts = (calls: ReturnType<typeof stubApi>) => calls.filter((call) => call.method === 'post' && call.url === CREATE);

describe('批量导出: choosing the cards and the columns', () => {
  it('exports the cards the address’s filters choose, with the default columns in the contract’s order', async () => {
    const calls = stubExport();
    const { location } = renderScreen(<BulkExport />, { at: '/bulk-export?status=NORMAL&keyword=FB' });
    expect(await screen.findByText('符合条件的卡片共 7 张')).toBeInTheDocument();
    const listQuery = calls.find((call) => call.url === '/card')?.params;
    expect(listQuery).toMatchObject({ status: 'NORMAL', keyword: 'FB' });
    // the default columns are ticked; the sensitive ones say they are masked
    const columns = screen.getByTestId('export-columns');
    expect(within(columns).getByRole('checkbox', { name: /^卡片昵称/ })).toBeChecked();
    expect(within(columns).getByRole('checkbox', { name: /^CVV/ })).not.toBeChecked();
    expect(within(columns).getByRole('checkbox', { name: /^卡号/ }).closest('label')).toHaveTextContent('脱敏');
    await userEvent.click(within(columns).getByRole('checkbox', { name: /^卡片ID/ }));
    await userEvent.click(screen.getByTestId('export-submit'));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]?.body).toEqual({ filters: { status: 'NORMAL', keyword: 'FB' }, columns: [...DEFAULT_EXPORT_COLUMNS, 'id'] });
    // the export is followed in the address, so a reload keeps following it
    await waitFor(() => expect(location.current?.search).toContain('export=e-1'));
  });

  it('says when no card matches, and sends nothing then', async () => {
    stubExport({ '/card': cardPage([], 0) });
    renderScreen(<BulkExport />, { at: '/bulk-export?keyword=nothing' });
    expect(await screen.findByText('没有符合条件的卡片，请调整筛选条件')).toBeInTheDocument();
    expect(screen.getByTestId('export-submit')).toBeDisabled();
  });

  it('refuses an export without columns', async () => {
    stubExport();
    renderScreen(<BulkExport />, { at: '/bulk-export' });
    await screen.findByText('符合条件的卡片共 7 张');
    for (const box of within(screen.getByTestId('export-columns')).getAllByRole('checkbox')) {
      if ((box as HTMLInputElement).checked) await userEvent.click(box);
    }
    expect(screen.getByRole('alert')).toHaveTextContent('请至少选择一列');
    expect(screen.getByTestId('export-submit')).toBeDisabled();
  });

  it('exports the cards ticked on /card, carried in navigation state', async () => {
    const calls = stubExport();
    renderScreen(<BulkExport />, { at: '/bulk-export', state: { exportIds: ['c-1', 'c-2'] } });
    expect(await screen.findByTestId('export-ids')).toHaveTextContent('勾选的 2 张卡片');
    expect(screen.getByText('勾选的卡片（2 张）')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('export-submit'));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]?.body).toEqual({ filters: {}, ids: ['c-1', 'c-2'], columns: DEFAULT_EXPORT_COLUMNS });
  });
});

describe('批量导出: full numbers need a fresh access code', () => {
  it('asks for a code first, sends it with the export, and puts a wrong code on its field', async () => {
    let answer: unknown = new ApiError({ kind: 'api', code: 2001, status: 400, message: '验证码错误' });
    const calls = stubExport({
      [CREATE]: () => answer,
      '/account/send/code-auto': { resend_after: 60, masked_target: '+86 138****8000' },
    });
    renderScreen(<BulkExport />, { at: '/bulk-export' });
    await screen.findByText('符合条件的卡片共 7 张');
    await userEvent.click(screen.getByRole('switch', { name: '包含完整卡号' }));
    expect(screen.queryByText('脱敏')).toBeNull();
    await userEvent.click(screen.getByTestId('export-submit'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('验证身份');
    expect(posts(calls)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: /获取验证码/ }));
    expect(await within(dialog).findByText('验证码已发送至 +86 138****8000')).toBeInTheDocument();
    expect(calls.find((call) => call.url === '/account/send/code-auto')?.body).toEqual({ send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: '验证码' }), { target: { value: '123456' } });
    await userEvent.click(within(dialog).getByTestId('export-code-submit'));
    expect(await within(dialog).findByText('验证码错误')).toBeInTheDocument();
    expect(keptCodeRequests()).toEqual(['MARK_TYPE_ACCESS:send_type_phone']);
    answer = { export_id: 'e-2' };
    await userEvent.click(within(dialog).getByTestId('export-code-submit'));
    await waitFor(() => expect(screen.queryByText('导出完整卡号前，请获取并输入验证码。')).toBeNull());
    // the server used the code up: the next export asks for another
    expect(keptCodeRequests()).toEqual([]);
    expect(posts(calls).at(-1)?.body).toMatchObject({ include_sensitive: true, captcha: '123456', send_type: 'SEND_TYPE_PHONE' });
  });

  it('asks for the trade password with the code once one is set, and puts a wrong one on its field', async () => {
    const answers: unknown[] = [new ApiError({ kind: 'api', code: ErrorCode.TRX_PASSWORD_WRONG, status: 400, message: '交易密码错误，还可尝试4次' }), { export_id: 'e-2' }];
    const calls = stubExport({
      [CREATE]: () => answers.shift(),
      '/account/send/code-auto': { resend_after: 60, masked_target: '+86 138****8000' },
      '/account/info': accountInfo(true),
    });
    renderScreen(<BulkExport />, { at: '/bulk-export' });
    await screen.findByText('符合条件的卡片共 7 张');
    await userEvent.click(screen.getByRole('switch', { name: '包含完整卡号' }));
    await userEvent.click(screen.getByTestId('export-submit'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /获取验证码/ }));
    await within(dialog).findByText('验证码已发送至 +86 138****8000');
    fireEvent.change(within(dialog).getByRole('textbox', { name: '验证码' }), { target: { value: '123456' } });
    fireEvent.change(await within(dialog).findByLabelText('交易密码'), { target: { value: 'Wrong123' } });
    await userEvent.click(within(dialog).getByTestId('export-code-submit'));
    expect(await within(dialog).findByTestId('trade-password-refusal')).toHaveTextContent('交易密码错误，还可尝试4次');
    fireEvent.change(within(dialog).getByLabelText('交易密码'), { target: { value: 'Right123' } });
    await userEvent.click(within(dialog).getByTestId('export-code-submit'));
    await waitFor(() => expect(posts(calls)).toHaveLength(2));
    expect(posts(calls).map((call) => (call.body as { trx_password?: string }).trx_password)).toEqual(['Wrong123', 'Right123']);
    expect(posts(calls)[1]?.body).toMatchObject({ include_sensitive: true, captcha: '123456', send_type: 'SEND_TYPE_PHONE' });
  });
});

describe('批量导出: a refusal of the caps', () => {
  it('is told in the code dialog in the server’s words, as the one HTTP module reads the answer, and not again as a toast', async () => {
    // the server's answers over HTTP, so the refusal goes through the HTTP module as it does in the app
    const refusals = [
      { status: 429, body: { code: CardErrorCode.SENSITIVE_EXPORT_DAILY_LIMIT, message: '今日导出完整卡号已达5次上限，请明天再试', data: { limit: 5, retry_at: '2026-03-01T16:00:00.000Z' } } },
      { status: 429, body: { code: CardErrorCode.REVEAL_LIMIT, message: '查看和导出完整卡号过于频繁，请120秒后再试', data: { seconds: 120 } } },
    ];
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const answer =
          request.url === apiUrl('/account/send/code-auto')
            ? { status: 200, body: { code: 0, message: 'ok', data: { resend_after: 60, masked_target: '+86 138****8000' } } }
            : (refusals.shift() ?? { status: 500, body: { code: 1000, message: '未预期的请求', data: null } });
        response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify(answer.body));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const calls = stubExport();
    vi.mocked(http.post).mockRestore();
    http.client.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { notices } = renderScreen(<BulkExport />, { at: '/bulk-export' });
      await screen.findByText('符合条件的卡片共 7 张');
      await userEvent.click(screen.getByRole('switch', { name: '包含完整卡号' }));
      await userEvent.click(screen.getByTestId('export-submit'));
      const dialog = await screen.findByRole('dialog');
      await userEvent.click(within(dialog).getByRole('button', { name: /获取验证码/ }));
      await within(dialog).findByText('验证码已发送至 +86 138****8000');
      fireEvent.change(within(dialog).getByRole('textbox', { name: '验证码' }), { target: { value: '123456' } });
      await userEvent.click(within(dialog).getByTestId('export-code-submit'));
      expect(await within(dialog).findByTestId('export-code-limit')).toHaveTextContent('今日导出完整卡号已达5次上限，请明天再试');
      expect(within(dialog).getByRole('alert')).toHaveTextContent('今日导出完整卡号已达5次上限');
      await userEvent.click(within(dialog).getByTestId('export-code-submit'));
      await waitFor(() => expect(within(dialog).getByTestId('export-code-limit')).toHaveTextContent('查看和导出完整卡号过于频繁，请120秒后再试'));
      // the dialog stays open, nothing followed, and the toast did not tell it a second time
      expect(screen.getByRole('dialog')).toBeInTheDocument();
      // the HTTP module decides on its toast in the task after the call failed (a 0 ms timer, queued before this one)
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(notices.errors).toEqual([]);
      expect(calls.filter((call) => call.url.includes('batch-export-status'))).toEqual([]);
    } finally {
      http.client.defaults.baseURL = '';
      server.close();
    }
  });
});

describe('批量导出: the export’s state and the recent exports', () => {
  it('follows a running export to its end, then downloads the file under the server’s name', async () => {
    let status = exportOf({ status: 'RUNNING', done: 3, total: 7, size: null, expires_at: null });
    stubExport({ [STATUS]: () => status });
    const download = vi.spyOn(http, 'download').mockResolvedValue({
      data: new Blob(['xlsx']),
      headers: { 'content-disposition': "attachment; filename*=UTF-8''%E5%8D%A1%E7%89%87%E5%AF%BC%E5%87%BA.xlsx" },
    } as unknown as RawResponse);
    URL.createObjectURL = vi.fn(() => 'blob:export');
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { notices, queryClient } = renderScreen(<BulkExport />, { at: '/bulk-export?export=e-1' });
    const current = await screen.findByTestId('export-current');
    expect(await within(current).findByText('已写入 3 / 7 行')).toBeInTheDocument();
    expect(within(current).getByTestId('export-status')).toHaveTextContent('导出中');
    expect(within(current).queryByTestId('export-current-download')).toBeNull();
    // an EXPORT_PROGRESS event on the stream brings the end at once
    status = exportOf();
    act(() => applyBatchEvent(queryClient, { type: 'EXPORT_PROGRESS', export_id: 'e-1', status: 'DONE', done: 7, total: 7 } as never));
    await waitFor(() => expect(within(current).getByTestId('export-status')).toHaveTextContent('已完成'));
    await userEvent.click(within(current).getByTestId('export-current-download'));
    await waitFor(() => expect(notices.successes).toEqual(['已下载 卡片导出.xlsx']));
    expect(download).toHaveBeenCalledWith(apiUrl('/card/batch-export/e-1/file'));
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it('lists the recent exports with state, size and times; an expired one cannot be downloaded', async () => {
    stubExport({
      [LIST]: {
        items: [exportOf(), exportOf({ export_id: 'e-0', status: 'EXPIRED', file_name: '卡片导出-旧.xlsx', include_sensitive: true })],
      },
    });
    renderScreen(<BulkExport />, { at: '/bulk-export' });
    const rows = await screen.findAllByTestId('export-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByTestId('export-status')).toHaveTextContent('已完成');
    expect(rows[0]).toHaveTextContent('14.2 KB');
    expect(within(rows[0] as HTMLElement).getByTestId('export-download')).toBeEnabled();
    expect(within(rows[1] as HTMLElement).getByTestId('export-status')).toHaveTextContent('已过期');
    expect(rows[1]).toHaveTextContent('含完整卡号');
    expect(within(rows[1] as HTMLElement).getByTestId('export-download')).toBeDisabled();
  });

  it('offers no download of a file with full numbers that another session made, and says where it may be taken', async () => {
    const elsewhere = exportOf({ export_id: 'e-2', include_sensitive: true, downloadable: false, file_name: '卡片导出-别处.xlsx' });
    stubExport({ [LIST]: { items: [exportOf(), elsewhere] }, [STATUS]: elsewhere });
    const download = vi.spyOn(http, 'download');
    renderScreen(<BulkExport />, { at: '/bulk-export?export=e-2' });
    const rows = await screen.findAllByTestId('export-row');
    expect(within(rows[0] as HTMLElement).getByTestId('export-download')).toBeEnabled();
    expect(within(rows[0] as HTMLElement).queryByTestId('export-elsewhere')).toBeNull();
    expect(within(rows[1] as HTMLElement).getByTestId('export-download')).toBeDisabled();
    expect(within(rows[1] as HTMLElement).getByTestId('export-elsewhere')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByTestId('export-download')).toHaveAccessibleName('下载 卡片导出-别处.xlsx（含完整卡号的文件仅限发起导出的登录设备下载）');
    const current = await screen.findByTestId('export-current');
    expect(await within(current).findByTestId('export-current-elsewhere')).toHaveTextContent('含完整卡号的文件仅限发起导出的登录设备下载');
    expect(within(current).queryByTestId('export-current-download')).toBeNull();
    expect(download).not.toHaveBeenCalled();
  });

  it('says when there is no export yet, and when the list could not be read', async () => {
    stubExport();
    const view = renderScreen(<BulkExport />, { at: '/bulk-export' });
    expect(await screen.findByText('暂无导出记录')).toBeInTheDocument();
    view.unmount();
    stubExport({ [LIST]: new ApiError({ kind: 'network', message: '网络异常' }) });
    renderScreen(<BulkExport />, { at: '/bulk-export' });
    expect(await screen.findByText('导出记录加载失败')).toBeInTheDocument();
  });
});
