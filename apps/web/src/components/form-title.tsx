import { ArrowLeftOutlined } from '@ant-design/icons';
import { commonText } from '../locales/zh-CN/common.ts';
import styles from './form-title.module.css';

/** The title row of a form screen, with a back button when there is somewhere to go back to. */
export function FormTitle({ title, onBack }: { title: string; onBack?: () => void }) {
  return (
    <div className={styles.row}>
      {onBack ? (
        <button type="button" className={styles.back} onClick={onBack} aria-label={commonText.back} title={commonText.back}>
          <ArrowLeftOutlined />
        </button>
      ) : null}
      <h1 className={styles.title}>{title}</h1>
    </div>
  );
}
