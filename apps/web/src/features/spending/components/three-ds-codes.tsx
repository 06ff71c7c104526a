import { CloseOutlined, CopyOutlined, SafetyCertificateFilled } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { FloatingLayer } from '../../../components/floating-layers.tsx';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import { clockText, useSecondsLeft } from '../lib/use-seconds-left.ts';
import { type ShownThreeDs, useThreeDsStore } from '../stores/three-ds.ts';
import styles from './three-ds-codes.module.css';

const text = cardSpendingText.threeDs;
const MASK = '••••••';

const cardName = (otp: ShownThreeDs) => (otp.last4 ? `${otp.nickname} •••• ${otp.last4}` : otp.nickname);
const amountText = (otp: ShownThreeDs) => `${formatAmount(otp.amount)} ${otp.currency}`;

async function copy(code: string) {
  try {
    await navigator.clipboard.writeText(code);
    notifySuccess(text.copied);
  } catch {
    notifyError(text.copyFailed);
  }
}

function Countdown({ otp }: { otp: ShownThreeDs }) {
  const left = useSecondsLeft(otp.expires_at);
  return left > 0 ? (
    <span className={styles.countdown} data-testid="three-ds-countdown">
      {clockText(left)}
    </span>
  ) : (
    <span className={styles.expiredTag} data-testid="three-ds-expired">
      {text.expired}
    </span>
  );
}

function CodeDialog({ otp, onClose }: { otp: ShownThreeDs; onClose: () => void }) {
  const left = useSecondsLeft(otp.expires_at);
  const expired = left <= 0;
  const narrow = useNarrowScreen();
  return (
    <Modal
      open
      centered={narrow}
      title={
        <span className={styles.dialogTitle}>
          <SafetyCertificateFilled className={styles.titleIcon} aria-hidden />
          {text.title}
        </span>
      }
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {text.close}
        </Button>
      }
      width={420}
      destroyOnHidden
      data-testid="three-ds-dialog"
    >
      <p className={styles.intro}>{expired ? text.expiredHint : text.intro}</p>
      <div className={expired ? `${styles.codeBox} ${styles.codeBoxExpired}` : styles.codeBox}>
        <span className={styles.code} data-testid="three-ds-code">
          {expired ? MASK : otp.code}
        </span>
        <Button icon={<CopyOutlined />} onClick={() => void copy(otp.code)} disabled={expired} data-testid="three-ds-copy">
          {text.copy}
        </Button>
      </div>
      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>{text.expiresIn}</dt>
          <dd>
            <Countdown otp={otp} />
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>{text.merchant}</dt>
          <dd data-testid="three-ds-merchant">{otp.merchant_name || '—'}</dd>
        </div>
        <div className={styles.fact}>
          <dt>{text.amount}</dt>
          <dd className={styles.amount} data-testid="three-ds-amount">
            {amountText(otp)}
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>{text.card}</dt>
          <dd className={styles.cardName} data-testid="three-ds-card" title={cardName(otp)}>
            <span className={styles.nickname}>{otp.nickname}</span>
            {otp.last4 ? ` •••• ${otp.last4}` : null}
          </dd>
        </div>
      </dl>
      <p className={styles.warning}>{text.notYours}</p>
    </Modal>
  );
}

function CodeNotice({ otp }: { otp: ShownThreeDs }) {
  const { open, dismiss } = useThreeDsStore.getState();
  return (
    <div className={styles.notice} data-testid="three-ds-notice">
      <button type="button" className={styles.noticeBody} onClick={() => open(otp.key)}>
        <SafetyCertificateFilled className={styles.noticeIcon} aria-hidden />
        <span className={styles.noticeText}>
          <span className={styles.noticeTitle}>{text.notice}</span>
          <span className={styles.noticeDetail}>
            {otp.merchant_name ? `${otp.merchant_name} · ` : ''}
            {amountText(otp)}
          </span>
        </span>
        <Countdown otp={otp} />
      </button>
      <button type="button" className={styles.noticeClose} aria-label={text.closeNotice} onClick={() => dismiss(otp.key)}>
        <CloseOutlined />
      </button>
    </div>
  );
}

/**
 * 3-D Secure codes on every page of the signed-in layout: each THREE_DS_OTP event of the stream (it
 * reaches every open tab of the account) opens a dialog with the code, large, to copy, the merchant,
 * the amount and the card, counting down to its expiry, after which the code is masked and the
 * dialog says 已过期; a notice per code, one of the floating layers (components/floating-layers.tsx),
 * opens it again until closed.
 */
export function ThreeDsCodes() {
  const codes = useThreeDsStore((state) => state.codes);
  const openKey = useThreeDsStore((state) => state.openKey);
  const shown = codes.find((otp) => otp.key === openKey) ?? null;
  if (codes.length === 0) return null;
  return (
    <>
      <FloatingLayer layerKey="three-ds" side="left" order={1}>
        {() => (
          <section className={styles.notices} aria-label={text.title} aria-live="assertive" data-testid="three-ds-notices">
            {codes.map((otp) => (
              <CodeNotice key={otp.key} otp={otp} />
            ))}
          </section>
        )}
      </FloatingLayer>
      {shown ? <CodeDialog key={shown.key} otp={shown} onClose={() => useThreeDsStore.getState().close()} /> : null}
    </>
  );
}
