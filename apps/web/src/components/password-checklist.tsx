import { CheckCircleFilled, CloseCircleOutlined } from '@ant-design/icons';
import { passwordChecklist, passwordChecklistLabels } from '@portal/contract/rules';
import { passwordChecklistText } from '../locales/zh-CN/password-checklist.ts';
import styles from './password-checklist.module.css';

const lines = ['length', 'upper', 'lower', 'digit'] as const;

/** A new password's four requirements (the sign-up checklist), each marked as met while the password is typed (spec §5). */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const met = passwordChecklist(password);
  return (
    <ul id={id} className={styles.list} aria-label={passwordChecklistText.title}>
      {lines.map((line) => (
        <li key={line} className={met[line] ? styles.met : styles.unmet} data-met={met[line]}>
          {met[line] ? <CheckCircleFilled aria-hidden="true" /> : <CloseCircleOutlined aria-hidden="true" />}
          <span>{passwordChecklistLabels[line]}</span>
          <span className={styles.hidden}>{met[line] ? passwordChecklistText.met : passwordChecklistText.unmet}</span>
        </li>
      ))}
    </ul>
  );
}
