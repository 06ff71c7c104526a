import { Alert, Button, Modal, Typography } from 'antd';
import styles from './secret-once-dialog.module.css';

interface SecretOnceDialogProps {
  /** the secret just made or rotated; null: the dialog is closed */
  secret: string | null;
  title: string;
  /** that it is shown this once */
  warning: string;
  doneText: string;
  /** how the secret is used, under it */
  usage?: string;
  secretTestId: string;
  doneTestId?: string;
  onClose: () => void;
}

/** A secret (an API key's, a webhook endpoint's) shown the one time it can be, with a copy button; closed only by its button. */
export function SecretOnceDialog({ secret, title, warning, doneText, usage, secretTestId, doneTestId, onClose }: SecretOnceDialogProps) {
  return (
    <Modal
      open={secret !== null}
      title={title}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid={doneTestId}>
          {doneText}
        </Button>
      }
      centered
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Alert type="warning" showIcon message={warning} className={styles.warning} />
      <div className={styles.secret}>
        <Typography.Text copyable={{ text: secret ?? '' }} code data-testid={secretTestId}>
          {secret}
        </Typography.Text>
      </div>
      {usage ? <p className={styles.usage}>{usage}</p> : null}
    </Modal>
  );
}
