import { type RevealBody, type CardItem, REVEAL_SHOW_SECONDS, type RevealAnswer } from '@portal/contract/cards';
import type { SendType } from '@portal/contract/enums';
import { CardErrorCode } from '@portal/contract/card-errors';
import { ErrorCode } from '@portal/contract/errors';
import { messages, rules } from '@portal/contract/rules';
import { CopyOutlined, LockOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Form, Modal, Segmented, Spin } from 'antd';
import { useEffect, useReducer, useRef, useState } from 'react';
import { CodeInput } from '../../../components/code-input.tsx';
import { useCountdown } from '../../../components/use-countdown.ts';
import { busy } from '../../../lib/busy.ts';
import { accessCodeKey, codeRequest, forgetCodeRequest } from '../../../lib/code-send-limits.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { cardRevealText } from '../../../locales/zh-CN/card-reveal.ts';
import { useRevealCard } from '../api/reveal-card.ts';
import { useSendAccessCode } from '../../../domain/access-code/api/send-access-code.ts';
import { expiryText, groupedNumber, MASKED_CVV, MASKED_EXPIRY, maskedNumber } from '../lib/card-format.ts';
import { forgetAccessCode, markAccessCodeChecked, withinRevealWindow } from '../lib/reveal-window.ts';
import styles from './reveal-dialog.module.css';

const text = cardRevealText;

/** Refusals of the code itself, told next to the code field rather than as a toast. */
const CODE_REFUSALS: readonly number[] = [
  ErrorCode.CODE_WRONG,
  ErrorCode.CODE_EXPIRED,
  ErrorCode.CODE_BURNED,
  ErrorCode.CODE_NOT_SENT,
  CardErrorCode.REVEAL_CODE_REQUIRED,
];

interface RevealDialogProps {
  open: boolean;
  card: Pick<CardItem, 'id' | 'last4'>;
  onClose: () => void;
}

/**
 * 查看卡号 (product.md §4): the full number, CVV and expiry after a fresh access code (send/code-auto,
 * MARK_TYPE_ACCESS, with its 60 s countdown). They show for REVEAL_SHOW_SECONDS with a visible
 * countdown, then mask themselves again. Within five minutes of a checked code the dialog first tries
 * without one, and asks for a code only when the server says so (4009). Nothing revealed outlives
 * the dialog.
 */
export function RevealDialog({ open, card, onClose }: RevealDialogProps) {
  return (
    <Modal open={open} title={text.title} footer={null} onCancel={onClose} centered destroyOnHidden width={440}>
      {open ? <RevealFlow card={card} onClose={onClose} /> : null}
    </Modal>
  );
}

type Stage = 'trying' | 'code' | 'shown' | 'hidden';

function RevealFlow({ card, onClose }: { card: Pick<CardItem, 'id' | 'last4'>; onClose: () => void }) {
  const reveal = useRevealCard(card.id);
  const [stage, setStage] = useState<Stage>(() => (withinRevealWindow() ? 'trying' : 'code'));
  const [shown, setShown] = useState<RevealAnswer | null>(null);
  const { secondsLeft, start } = useCountdown();
  const tried = useRef(false);

  const show = (answer: RevealAnswer) => {
    setShown(answer);
    setStage('shown');
    start(REVEAL_SHOW_SECONDS);
  };

  const tryWithoutCode = async () => {
    setStage('trying');
    try {
      show(await reveal.mutateAsync({}));
    } catch (error) {
      if (isApiError(error) && error.code === CardErrorCode.REVEAL_CODE_REQUIRED) {
        // the window closed on the server's side: a code it is, said by the form itself
        markShownInPlace(error);
        forgetAccessCode();
      }
      setStage('code');
    }
  };

  useEffect(() => {
    // once per opening, also where React mounts twice to check effects
    if (stage !== 'trying' || tried.current) return;
    tried.current = true;
    void tryWithoutCode();
  });

  useEffect(() => {
    if (stage === 'shown' && secondsLeft === 0) {
      setShown(null);
      setStage('hidden');
    }
  }, [stage, secondsLeft]);

  if (stage === 'trying') {
    return (
      <div className={styles.trying} role="status" aria-live="polite">
        <Spin />
        <span>{text.trying}</span>
      </div>
    );
  }
  if (stage === 'code') {
    return (
      <CodeStep
        pending={reveal.isPending}
        reveal={(body) => reveal.mutateAsync(body)}
        onRevealed={(answer) => {
          markAccessCodeChecked();
          show(answer);
        }}
      />
    );
  }
  return (
    <div className={styles.shown}>
      <CardNumbers answer={shown} last4={card.last4} />
      {stage === 'shown' ? (
        <div className={styles.countdown} data-testid="reveal-countdown">
          <span>{text.hidesIn(secondsLeft)}</span>
          <span className={styles.bar} aria-hidden="true">
            <span className={styles.barFill} style={{ width: `${(secondsLeft / REVEAL_SHOW_SECONDS) * 100}%` }} />
          </span>
        </div>
      ) : (
        <div className={styles.hiddenNote} role="status" data-testid="reveal-hidden">
          <LockOutlined aria-hidden />
          <span>
            {text.hidden}
            {withinRevealWindow() ? <span className={styles.hiddenHint}>{text.hiddenHint}</span> : null}
          </span>
        </div>
      )}
      <p className={styles.keepSafe}>{text.keepSafe}</p>
      <div className={styles.footer}>
        <Button onClick={onClose}>{text.close}</Button>
        {stage === 'hidden' ? (
          <Button type="primary" onClick={() => (withinRevealWindow() ? void tryWithoutCode() : setStage('code'))}>
            {text.again}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** The full number, CVV and expiry with copy buttons, or their masks once hidden. */
function CardNumbers({ answer, last4 }: { answer: RevealAnswer | null; last4: string | null }) {
  const copy = (value: string) => {
    navigator.clipboard?.writeText(value).then(
      () => notifySuccess(text.copied),
      () => {},
    );
  };
  const rows = [
    { key: 'number', label: text.number, value: answer ? groupedNumber(answer.pan) : maskedNumber(last4), raw: answer?.pan.replace(/\D/g, '') },
    { key: 'expiry', label: text.expiry, value: answer ? expiryText(answer.exp_month, answer.exp_year) : MASKED_EXPIRY, raw: answer ? expiryText(answer.exp_month, answer.exp_year) : undefined },
    { key: 'cvv', label: text.cvv, value: answer ? answer.cvv : MASKED_CVV, raw: answer?.cvv },
  ];
  return (
    <dl className={styles.numbers} data-testid="reveal-numbers">
      {rows.map((row) => (
        <div key={row.key} className={`${styles.row} ${row.key === 'number' ? styles.wide : ''}`}>
          <dt>{row.label}</dt>
          <dd>
            <span className={styles.value} data-testid={`reveal-${row.key}`}>
              {row.value}
            </span>
            {row.raw ? (
              <Button
                type="text"
                size="small"
                className={styles.copy}
                icon={<CopyOutlined />}
                aria-label={text.copy(row.label)}
                title={text.copy(row.label)}
                onClick={() => copy(row.raw as string)}
              />
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

interface CodeValues {
  captcha: string;
}

function CodeStep({
  pending,
  reveal,
  onRevealed,
}: {
  pending: boolean;
  reveal: (body: RevealBody) => Promise<RevealAnswer>;
  onRevealed: (answer: RevealAnswer) => void;
}) {
  const [form] = Form.useForm<CodeValues>();
  const [sendType, setSendType] = useState<SendType>('SEND_TYPE_PHONE');
  const sending = useSendAccessCode();
  // the code already asked for (this dialog before it was closed, a reload, another dialog): still good
  const requestKey = accessCodeKey(sendType);
  const [, codeKept] = useReducer((count: number) => count + 1, 0);
  const requested = codeRequest(requestKey);
  const sentTo = requested?.sentTo ?? null;

  const sendCode = () => sending.mutateAsync(sendType);

  const submit = async ({ captcha }: CodeValues) => {
    if (!codeRequest(requestKey)) {
      notifyError(messages.codeNotRequested);
      return;
    }
    let answer: RevealAnswer;
    try {
      answer = await reveal({ captcha, send_type: sendType });
    } catch (error) {
      if (isApiError(error) && error.code !== null && CODE_REFUSALS.includes(error.code)) {
        form.setFields([{ name: 'captcha', errors: [error.message] }]);
        markShownInPlace(error);
      }
      return;
    }
    // the server used the code up: the next reveal asks for another
    forgetCodeRequest(requestKey);
    onRevealed(answer);
  };

  return (
    <div className={styles.code}>
      <p className={styles.intro}>
        <SafetyCertificateOutlined className={styles.introIcon} aria-hidden />
        {sentTo ? text.sentTo(sentTo) : text.intro}
      </p>
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
        <Form.Item name="captcha" label={text.code} rules={[formRule(rules.code)]} validateFirst>
          <CodeInput key={sendType} placeholder={text.codePlaceholder} onSend={sendCode} requestKey={requestKey} onRequestKept={codeKept} size="large" />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={busy(pending)}>
          {text.submit}
        </Button>
      </Form>
    </div>
  );
}
