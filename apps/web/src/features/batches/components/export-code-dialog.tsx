import { CardBatchErrorCode } from '@portal/contract/card-batches';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { SendType } from '@portal/contract/enums';
import { Alert, Button, Form, Modal } from 'antd';
import { useState } from 'react';
import { busy } from '../../../lib/busy.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { AccessCodeFields, AccessCodeIntro, type AccessCodeValues, useAccessCodeStep } from '../../../domain/access-code/components/access-code-step.tsx';
import styles from './export-code-dialog.module.css';
import { TradePasswordConfirm, type TradePasswordConfirmation, type TradePasswordPart } from '../../../domain/trade-password/components/trade-password-confirm.tsx';

const text = bulkExportText.code;

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

function CodeForm({ pending, trade, onSubmit, onCancel }: Omit<ExportCodeDialogProps, 'open'>) {
  const step = useAccessCodeStep(CardBatchErrorCode.EXPORT_CODE_REQUIRED);
  const [limited, setLimited] = useState<string | null>(null);

  const submit = ({ captcha }: AccessCodeValues) =>
    step.submit(
      captcha,
      async (code) => {
        const confirmation = await trade.collect();
        if (!confirmation) return null;
        setLimited(null);
        try {
          await onSubmit({ ...code, ...confirmation });
        } catch (error) {
          if (trade.refused(error)) return null;
          throw error;
        }
        return true;
      },
      (error) => {
        if (isApiError(error) && error.code !== null && LIMIT_REFUSALS.includes(error.code)) {
          setLimited(error.message);
          markShownInPlace(error);
        }
      },
    );

  return (
    <div>
      <AccessCodeIntro step={step} text={text} className={styles.intro} iconClassName={styles.icon} />
      {limited ? <Alert type="error" showIcon role="alert" title={limited} className={styles.refusal} data-testid="export-code-limit" /> : null}
      <Form<AccessCodeValues> form={step.form} layout="vertical" requiredMark={false} initialValues={{ captcha: '' }} onFinish={(values) => void submit(values)} noValidate>
        <AccessCodeFields step={step} text={text} codeClassName={styles.last} />
      </Form>
      <TradePasswordConfirm confirmation={trade} onSubmit={() => step.form.submit()} />
      <div className={styles.footer}>
        <Button onClick={onCancel} disabled={pending}>
          {text.cancel}
        </Button>
        <Button type="primary" onClick={() => step.form.submit()} loading={busy(pending)} data-testid="export-code-submit">
          {text.ok}
        </Button>
      </div>
    </div>
  );
}
