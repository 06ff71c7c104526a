import { CheckCircleFilled, CloseCircleOutlined } from '@ant-design/icons';
import { passwordChecklist, passwordChecklistLabels } from '@portal/contract/rules';
import { signUpText } from '../../../locales/zh-CN/auth-sign-up.ts';
import styles from './password-checklist.module.css';

const lines = ['length', 'upper', 'lower', 'digit'] as const;

/** The sign-up password's four requirements, each marked as met while the password is typed (spec §5). */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const met = passwordChecklist(password);
  return (
    <ul id={id} className={styles.list} aria-label={signUpText.checklistTitle}>
      {lines.map((line) => (
        <li key={line} className={met[line] ? styles.met : styles.unmet} data-met={met[line]}>
          {met[line] ? <CheckCircleFilled aria-hidden="true" /> : <CloseCircleOutlined aria-hidden="true" />}
          <span>{passwordChecklistLabels[line]}</span>
          <span className={styles.hidden}>{met[line] ? signUpText.checklistMet : signUpText.checklistUnmet}</span>
        </li>
      ))}
    </ul>
  );
}
