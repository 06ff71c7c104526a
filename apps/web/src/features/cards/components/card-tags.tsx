import type { CardItem } from '@portal/contract/cards';
import { cardTagRules } from '@portal/contract/cards';
import { cardTagRule } from '@portal/contract/card-list';
import { EditOutlined } from '@ant-design/icons';
import { Button, Popover, Select, Tag } from 'antd';
import { useState } from 'react';
import { useCardTags } from '../../../domain/cards/api/get-card-tags.ts';
import { cardListText } from '../../../locales/zh-CN/card-list.ts';
import { useSetCardTags } from '../api/set-card-tags.ts';
import styles from './card-tags.module.css';

const text = cardListText.tags;

/** A card's tags as small labels (无标签 when it has none). */
export function CardTagList({ tags }: { tags: string[] }) {
  if (tags.length === 0) return <span className={styles.none}>{text.none}</span>;
  return (
    <span className={styles.tags} data-testid="card-tags">
      {tags.map((tag) => (
        <Tag key={tag} className={styles.tag} bordered={false}>
          {tag}
        </Tag>
      ))}
    </span>
  );
}

/** The editor inside the popover: the card's tags, the account's known ones offered, the contract's rules checked before saving. */
function TagsForm({ card, onDone }: { card: CardItem; onDone: () => void }) {
  const [tags, setTags] = useState<string[]>(card.tags);
  // the known tags are offered while a tag is typed, and out of the way (over 保存) otherwise
  const [typing, setTyping] = useState('');
  const known = useCardTags();
  const saving = useSetCardTags();
  const trimmed = [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
  const problem = trimmed.map(cardTagRule).find((message) => message !== null) ?? null;
  const tooMany = trimmed.length > cardTagRules.perCard;
  const save = async () => {
    await saving.mutateAsync({ id: card.id, tags: trimmed });
    onDone();
  };
  return (
    <div className={styles.form} data-testid="card-tags-editor">
      <Select
        className={styles.select}
        mode="tags"
        autoFocus
        aria-label={text.editOf(card.nickname)}
        placeholder={text.placeholder}
        value={tags}
        maxCount={cardTagRules.perCard}
        options={(known.data?.items ?? []).map((item) => ({ value: item.tag, label: item.tag }))}
        open={typing !== ''}
        searchValue={typing}
        onSearch={setTyping}
        onChange={(value: string[]) => {
          setTags(value);
          setTyping('');
        }}
        tokenSeparators={[',', '，']}
        data-testid="card-tags-input"
      />
      <div className={problem || tooMany ? styles.error : styles.hint} role={problem ? 'alert' : undefined}>
        {problem ?? text.hint(cardTagRules.perCard, cardTagRules.maxLength)}
      </div>
      <div className={styles.actions}>
        <Button size="small" onClick={onDone}>
          {text.cancel}
        </Button>
        <Button size="small" type="primary" loading={saving.isPending} disabled={problem !== null || tooMany} onClick={() => void save()} data-testid="card-tags-save">
          {text.save}
        </Button>
      </div>
    </div>
  );
}

/** The tags with a pencil that opens the small editor, when the member may change the card. */
export function CardTagsCell({ card, editable }: { card: CardItem; editable: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    // a click here edits the tags; it does not open the card
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops the row's click from opening the card
    <span className={styles.cell} onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
      <CardTagList tags={card.tags} />
      {editable ? (
        <Popover
          trigger="click"
          open={open}
          onOpenChange={setOpen}
          title={text.editOf(card.nickname)}
          destroyOnHidden
          content={<TagsForm card={card} onDone={() => setOpen(false)} />}
        >
          <Button type="text" size="small" className={styles.edit} icon={<EditOutlined />} aria-label={text.editOf(card.nickname)} data-testid="card-tags-edit" />
        </Popover>
      ) : null}
    </span>
  );
}
