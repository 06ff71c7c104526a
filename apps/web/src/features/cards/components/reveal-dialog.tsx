import { type RevealBody, type CardItem, REVEAL_SHOW_SECONDS, type RevealAnswer } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import { CopyOutlined, LockOutlined } from '@ant-design/icons';
import { Button, Form, Modal, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useCountdown } from '../../../components/use-countdown.ts';
import { busy } from '../../../lib/busy.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { cardRevealText } from '../../../locales/zh-CN/card-reveal.ts';
import { useRevealCard } from '../api/reveal-card.ts';
import { AccessCodeFields, AccessCodeIntro, type AccessCodeValues, useAccessCodeStep } from '../../../domain/access-code/components/access-code-step.tsx';
import { expiryText, groupedNumber, MASKED_CVV, MASKED_EXPIRY, maskedNumber } from '../lib/card-format.ts';
import { forgetAccessCode, markAccessCodeChecked, withinRevealWindow } from '../lib/reveal-window.ts';
import styles from './reveal-dialog.module.css';

const text = cardRevealText;

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

function CodeStep({
  pending,
  reveal,
  onRevealed,
}: {
  pending: boolean;
  reveal: (body: RevealBody) => Promise<RevealAnswer>;
  onRevealed: (answer: RevealAnswer) => void;
}) {
  const step = useAccessCodeStep(CardErrorCode.REVEAL_CODE_REQUIRED);

  const submit = async ({ captcha }: AccessCodeValues) => {
    const answer = await step.submit(captcha, reveal);
    if (answer) onRevealed(answer);
  };

  return (
    <div className={styles.code}>
      <AccessCodeIntro step={step} text={text} className={styles.intro} iconClassName={styles.introIcon} />
      <Form<AccessCodeValues> form={step.form} layout="vertical" requiredMark={false} initialValues={{ captcha: '' }} onFinish={(values) => void submit(values)} noValidate>
        <AccessCodeFields step={step} text={text} />
        <Button type="primary" htmlType="submit" size="large" block loading={busy(pending)}>
          {text.submit}
        </Button>
      </Form>
    </div>
  );
}
