import type { Role } from '@portal/contract/team';
import { Radio } from 'antd';
import { roleOptions } from '../lib/team-form.ts';
import styles from './team-section.module.css';

/** The roles a member may be given, each with what it allows (ROLE_DESCRIPTIONS); an antd form control. */
export function RolePicker({ value, onChange, id }: { value?: Role | ''; onChange?: (role: Role) => void; id?: string }) {
  return (
    <Radio.Group id={id} className={styles.roles} value={value || undefined} onChange={(event) => onChange?.(event.target.value as Role)}>
      {roleOptions.map((option) => (
        <Radio key={option.value} value={option.value} className={styles.role}>
          <span className={styles.roleName}>{option.label}</span>
          <span className={styles.roleDescription}>{option.description}</span>
        </Radio>
      ))}
    </Radio.Group>
  );
}
