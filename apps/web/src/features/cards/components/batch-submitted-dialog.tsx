import { Button, Modal, Result } from 'antd';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';

/** A batch was accepted: how many cards it opens, and whether to open more or go to the cards (the widget follows it on every page). */
export function BatchSubmittedDialog({ count, onStay, onToCards }: { count: number | null; onStay: () => void; onToCards: () => void }) {
  return (
    <Modal open={count !== null} footer={null} closable={false} centered width={440} destroyOnHidden>
      <Result
        status="success"
        title={cardBatchText.submitted.title}
        subTitle={cardBatchText.submitted.subTitle(count ?? 0)}
        extra={[
          <Button key="stay" onClick={onStay}>
            {cardBatchText.submitted.stay}
          </Button>,
          <Button key="cards" type="primary" onClick={onToCards} data-testid="batch-to-cards">
            {cardBatchText.submitted.toCards}
          </Button>,
        ]}
      />
    </Modal>
  );
}
