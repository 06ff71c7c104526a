import { cardLimits, nicknameRule } from '@portal/contract/cards';
import { EditOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import Input from 'antd/es/input/Input';
import { type KeyboardEvent, useId, useState } from 'react';
import { busy } from '../../../lib/busy.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { useRenameCard } from '../api/rename-card.ts';
import styles from './nickname-editor.module.css';

const text = cardDetailsText.nickname;

/** The card's nickname as its title, changed in place: 修改昵称, then 保存 (Enter) or 取消 (Esc). */
export function NicknameEditor({ id, nickname, editable }: { id: string; nickname: string; editable: boolean }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(nickname);
  const [error, setError] = useState<string | null>(null);
  const rename = useRenameCard(id);
  const errorId = useId();

  const start = () => {
    setValue(nickname);
    setError(null);
    setEditing(true);
  };

  const save = async () => {
    const problem = nicknameRule(value);
    if (problem) {
      setError(problem);
      return;
    }
    if (value.trim() === nickname) {
      setEditing(false);
      return;
    }
    try {
      await rename.mutateAsync(value.trim());
    } catch (failure) {
      const field = isApiError(failure) ? failure.fields.find((item) => item.field === 'nickname') : undefined;
      if (field) {
        setError(field.message);
        markShownInPlace(failure);
      }
      return;
    }
    setEditing(false);
    notifySuccess(text.done);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') setEditing(false);
  };

  if (!editing) {
    return (
      <div className={styles.view}>
        <h2 className={styles.name} data-testid="card-title">
          {nickname}
        </h2>
        {editable ? (
          <Button type="text" size="small" className={styles.edit} icon={<EditOutlined />} onClick={start} aria-label={text.edit} title={text.edit} />
        ) : null}
      </div>
    );
  }
  return (
    <div className={styles.editing}>
      <div className={styles.row}>
        <Input
          className={styles.input}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          onPressEnter={() => void save()}
          onKeyDown={onKeyDown}
          maxLength={cardLimits.nicknameMax}
          showCount
          autoFocus
          aria-label={text.label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          status={error ? 'error' : undefined}
        />
        <Button type="primary" onClick={() => void save()} loading={busy(rename.isPending)}>
          {text.save}
        </Button>
        <Button onClick={() => setEditing(false)} disabled={rename.isPending}>
          {text.cancel}
        </Button>
      </div>
      {error ? (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
