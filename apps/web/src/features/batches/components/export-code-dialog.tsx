import { CardBatchErrorCode } from '@portal/contract/card-batches';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { SendType } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { messages, rules } from '@portal/contract/rules';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Modal, Segmented } from 'antd';
import { useReducer, useState } from 'react';
import { CodeInput } from '../../../components/code-input.tsx';
import { accessCodeKey, codeRequest, forgetCodeRequest } from '../../../lib/code-send-limits.ts';
import { busy } from '../../../lib/busy.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { notifyError } from '../../../lib/notify.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { useSendAccessCode } from '../../../domain/access-code/api/send-access-code.ts';
import styles from './export-code-dialog.module.css';
import { TradePasswordConfirm, type TradePasswordConfirmation, type TradePasswordPart } from '../../../domain/trade-password/components/trade-password-confirm.tsx';

const text = bulkExportText.code;

/** Refusals of the code itself, told next to the code field rather than as a toast. */
const CODE_REFUSALS: readonly number[] = [
  ErrorCode.CODE_WRONG,
  ErrorCode.CODE_EXPIRED,
  ErrorCode.CODE_BURNED,
  ErrorCode.CODE_NOT_SENT,
  CardBatchErrorCode.EXPORT_CODE_REQUIRED,
];

/**
 * Refusals no other code or password can change (the hourly cap of reveals and exports, the daily cap of
 * exports with full numbers): told in the dialog, where they stay in sight, in the server's words.
 */
const LIMIT_REFUSALS: readonly number[] = [CardErrorCode.REVEAL_LIMIT, CardErrorCode.SENSITIVE_EXPORT_DAILY_LIMIT];

interface ExportCodeDialogProps {
  open: boolean;
  pending: boolean;
  /** full numbers leave with the file: the trade password, once one is set */
  trade: TradePasswordConfirmation;
  /** sends the export with the code (and the trade password); a refusal is thrown back */
  onSubmit: (code: { captcha: string; send_type: SendType } & TradePasswordPart) => Promise<void>;
  onCancel: () => void;
}

/**
 * 包含完整卡号: the same fresh access code a reveal asks for (send/code-auto, MARK_TYPE_ACCESS, its 60 s
 * countdown), sent with the export, and the trade password once one is set.
 */
export function ExportCodeDialog({ open, pending, trade, onSubmit, onCancel }: ExportCodeDialogProps) {
  return (
    <Modal open={open} title={text.title} footer={null} onCancel={onCancel} centered destroyOnHidden width={440} maskClosable={!pending}>
      {open ? <CodeForm pending={pending} trade={trade} onSubmit={onSubmit} onCancel={onCancel} /> : null}
    </Modal>
  );
}

interface CodeValues {
  captcha: string;
}

function CodeForm({ pending, trade, onSubmit, onCancel }: Omit<ExportCodeDialogProps, 'open'>) {
  const [form] = Form.useForm<CodeValues>();
  const [sendType, setSendType] = useState<SendType>('SEND_TYPE_PHONE');
  const [limited, setLimited] = useState<string | null>(null);
  const sending = useSendAccessCode();
  // the code already asked for (this dialog before it was closed, a reload, another dialog): still good
  const requestKey = accessCodeKey(sendType);
  const [, codeKept] = useReducer((count: number) => count + 1, 0);
  const sentTo = codeRequest(requestKey)?.sentTo ?? null;

  const sendCode = () => sending.mutateAsync(sendType);

  const submit = async ({ captcha }: CodeValues) => {
    if (!codeRequest(requestKey)) {
      notifyError(messages.codeNotRequested);
      return;
    }
    const confirmation = await trade.collect();
    if (!confirmation) return;
    setLimited(null);
    try {
      await onSubmit({ captcha, send_type: sendType, ...confirmation });
      // the server used the code up: the next export asks for another
      forgetCodeRequest(requestKey);
    } catch (error) {
      if (trade.refused(error)) return;
      if (isApiError(error) && error.code !== null && CODE_REFUSALS.includes(error.code)) {
        form.setFields([{ name: 'captcha', errors: [error.message] }]);
        markShownInPlace(error);
      } else if (isApiError(error) && error.code !== null && LIMIT_REFUSALS.includes(error.code)) {
        setLimited(error.message);
        markShownInPlace(error);
      }
    }
  };

  return (
    <div>
      <p className={styles.intro}>
        <SafetyCertificateOutlined className={styles.icon} aria-hidden />
        {sentTo ? text.sentTo(sentTo) : text.intro}
      </p>
      {limited ? <Alert type="error" showIcon role="alert" title={limited} className={styles.refusal} data-testid="export-code-limit" /> : null}
      <Form<CodeValues> form={form} layout="vertical" requiredMark={false} initialValues={{ captcha: '' }} onFinish={(values) => void submit(values)} noValidate>
        <Form.Item label={text.channel}>
          <Segmented<SendType>
            block
            value={sendType}
            onChange={setSendType}
            options={[
              { value: 'SEND_TYPE_PHONE', label: text.phone },
              { value: 'SEND_TYPE_EMAIL', label: text.email },
            ]}
          />
        </Form.Item>
        <Form.Item name="captcha" label={text.code} rules={[formRule(rules.code)]} validateFirst className={styles.last}>
          <CodeInput key={sendType} placeholder={text.codePlaceholder} onSend={sendCode} requestKey={requestKey} onRequestKept={codeKept} size="large" />
        </Form.Item>
      </Form>
      <TradePasswordConfirm confirmation={trade} onSubmit={() => form.submit()} />
      <div className={styles.footer}>
        <Button onClick={onCancel} disabled={pending}>
          {text.cancel}
        </Button>
        <Button type="primary" onClick={() => form.submit()} loading={busy(pending)} data-testid="export-code-submit">
          {text.ok}
        </Button>
      </div>
    </div>
  );
}
