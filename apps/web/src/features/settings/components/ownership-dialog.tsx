import type { TeamMember } from '@portal/contract/team';
import { Modal } from 'antd';
import { MemberPicker, usePickedMember } from '../../../domain/team/components/member-picker.tsx';
import { TradePasswordConfirm, useTradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { useTransferOwnership } from '../api/team.ts';
import styles from './team-section.module.css';

const text = teamText.ownership;

/**
 * 转让所有权 (the owner only): to another active member, asking the trade password as every other
 * trade-password dialog does (domain/trade-password); the owner becomes an 管理员.
 */
export function OwnershipDialog({ open, members, onClose }: { open: boolean; members: TeamMember[]; onClose: () => void }) {
  const picked = usePickedMember();
  const trade = useTradePasswordConfirmation({ required: true });
  const transferring = useTransferOwnership();
  const candidates = members.filter((member) => !member.is_me && member.status === 'ACTIVE');

  const close = () => {
    picked.reset();
    onClose();
  };

  const confirm = async () => {
    if (transferring.isPending) return;
    const to = picked.require();
    if (to === null) return;
    const part = await trade.collect();
    if (part === null) return;
    try {
      await transferring.mutateAsync({ member_id: to, ...part });
    } catch (error) {
      trade.refused(error);
      return;
    }
    notifySuccess(text.done);
    close();
  };

  return (
    <Modal
      open={open}
      title={text.dialogTitle}
      okText={text.submit}
      cancelText={settingsText.cancel}
      okButtonProps={{ danger: true, loading: transferring.isPending, disabled: candidates.length === 0 }}
      onOk={() => void confirm()}
      onCancel={close}
      destroyOnHidden
      width={480}
      centered
    >
      <p className={styles.intro}>{text.intro}</p>
      {candidates.length === 0 ? (
        <p className={styles.intro} data-testid="ownership-no-candidate">
          {text.noCandidate}
        </p>
      ) : (
        <MemberPicker
          id="ownership-to"
          label={text.to}
          placeholder={text.toPlaceholder}
          missingHelp={text.toRequired}
          members={candidates}
          picked={picked}
        />
      )}
      {candidates.length > 0 ? <TradePasswordConfirm confirmation={trade} onSubmit={() => void confirm()} /> : null}
    </Modal>
  );
}
