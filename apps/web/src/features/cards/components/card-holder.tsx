import type { CardItem } from '@portal/contract/cards';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { useTeamMembers } from '../../../domain/team/api/get-team-members.ts';
import { MemberPicker, usePickedMember } from '../../../domain/team/components/member-picker.tsx';
import { useCan } from '../../../domain/team/lib/use-can.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { useSetCardHolder } from '../api/set-card-holder.ts';
import styles from '../routes/card-details.module.css';

const text = teamText.holder;

/** 持卡成员 among the card's facts, with 更换持卡人 for the roles that assign cards (cards.assign). */
export function CardHolder({ card }: { card: CardItem }) {
  const mayAssign = useCan('cards.assign');
  const [open, setOpen] = useState(false);
  if (!card.holder_label && !mayAssign) return null;
  return (
    <div className={styles.fact} data-testid="card-holder">
      <dt>{text.label}</dt>
      <dd>
        {card.holder_label ?? '—'}
        {mayAssign && card.status !== 'DELETE' ? (
          <Button size="small" type="link" onClick={() => setOpen(true)} data-testid="change-holder">
            {text.change}
          </Button>
        ) : null}
        {mayAssign ? <HolderDialog card={card} open={open} onClose={() => setOpen(false)} /> : null}
      </dd>
    </div>
  );
}

function HolderDialog({ card, open, onClose }: { card: CardItem; open: boolean; onClose: () => void }) {
  const members = useTeamMembers();
  const picked = usePickedMember();
  const changing = useSetCardHolder(card.id);
  const candidates = (members.data ?? []).filter((member) => member.status === 'ACTIVE' && member.id !== card.holder_member_id);

  const close = () => {
    picked.reset();
    onClose();
  };
  const confirm = async () => {
    if (changing.isPending) return;
    const to = picked.require();
    if (to === null) return;
    try {
      await changing.mutateAsync(to);
    } catch {
      return; // the HTTP module said why
    }
    notifySuccess(text.done);
    close();
  };

  return (
    <Modal
      open={open}
      title={`${text.dialogTitle} · ${card.nickname}`}
      okText={text.submit}
      cancelText={cardDetailsText.cancel}
      okButtonProps={{ loading: changing.isPending }}
      onOk={() => void confirm()}
      onCancel={close}
      destroyOnHidden
      width={440}
      centered
    >
      <MemberPicker
        id="holder-to"
        label={text.to}
        placeholder={text.toPlaceholder}
        missingHelp={text.toPlaceholder}
        members={candidates}
        picked={picked}
        loading={members.isPending}
      />
    </Modal>
  );
}
