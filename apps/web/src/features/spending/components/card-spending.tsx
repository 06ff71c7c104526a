import type { CardItem } from '@portal/contract/cards';
import { useState } from 'react';
import { controlFieldOfDecline } from '../lib/controls-form.ts';
import { AutoRecharge } from './auto-recharge.tsx';
import { CardControls, type ControlsFocus } from './card-controls.tsx';
import { CardTransactions, type DeclineFixHandler } from './card-transactions.tsx';

/**
 * A card's spending on its details screen: its auto top-up and its controls (while the card exists at the issuer) and its
 * transactions. A decline's fix that changes a control brings that control into view; a top-up or an
 * unfreeze is the card screen's to open.
 */
export function CardSpending({ card, onRecharge, onUnfreeze }: { card: CardItem; onRecharge: () => void; onUnfreeze: () => void }) {
  const [controlsFocus, setControlsFocus] = useState<ControlsFocus | null>(null);
  const fix: DeclineFixHandler = (action, code) => {
    if (action === 'RECHARGE') onRecharge();
    else if (action === 'UNFREEZE') onUnfreeze();
    else setControlsFocus((previous) => ({ field: (code && controlFieldOfDecline[code]) || null, seq: (previous?.seq ?? 0) + 1 }));
  };
  const hasControls = card.last4 !== null && !['CARD_STATUS_INIT', 'FAIL', 'DELETE'].includes(card.status);
  return (
    <>
      {hasControls ? <AutoRecharge card={card} /> : null}
      {hasControls ? <CardControls card={card} focus={controlsFocus} /> : null}

      <CardTransactions card={card} onFix={fix} />
    </>
  );
}
