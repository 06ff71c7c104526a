import { EVENT_TYPE_FREEZE } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useLocation } from 'react-router';
import { checkWalletStatus } from '../../domain/wallet/api/get-balance-status.ts';
import { isBatchOrExportEvent } from '../../features/batches/lib/apply-batch-event.ts';
import { isCardTransactionEvent } from '../../features/spending/lib/apply-spending-event.ts';
import { applyCardEvents } from './apply-card-events.ts';
import { applyMessageEvent } from '../../features/messages/lib/apply-event.ts';
import { isMessagePage } from '../../features/messages/lib/center-location.ts';
import { walletKeys } from '../../features/wallet/api/wallet-keys.ts';
import { applyBalanceEvent } from '../../features/wallet/lib/apply-balance-event.ts';
import { applyDepositEvent } from '../../features/wallet/lib/apply-deposit-event.ts';
import { type EventStream, openEventStream } from '../../lib/events.ts';
import { notifyError } from '../../lib/notify.ts';
import { useSessionStore } from '../../stores/session.ts';

/**
 * The event stream of the signed-in layout: each event updates the bell and the message lists, a
 * new message shows a floating notice (not on the message pages), a FREEZE event re-checks the
 * wallet, a BALANCE_CHANGED event shows the wallet's new balances, and the card screens read again
 * what CARD_STATUS, CARD_TRANSACTION, BALANCE_CHANGED and FREEZE change of them, and a THREE_DS_OTP
 * event opens the code's dialog; BATCH_PROGRESS moves the batch widget and EXPORT_PROGRESS the export page. A session the server refused ends here as it does for any call (spec §8).
 */
export function useSignedInEvents() {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const pathRef = useRef(pathname);
  const streamRef = useRef<EventStream | null>(null);

  useEffect(() => {
    pathRef.current = pathname;
  }, [pathname]);

  useEffect(() => {
    const stream = openEventStream({
      getToken: () => useSessionStore.getState().token,
      onEvent(event) {
        applyCardEvents(queryClient, event);
        if (event.type === EVENT_TYPES.balance) {
          applyBalanceEvent(queryClient, event);
          return;
        }
        // a USDT deposit's confirmations: its record moves, no message
        if (applyDepositEvent(queryClient, event)) return;
        // a card's status, a card's transaction and a 3-D Secure code are no messages: the card screens
        // and the code's dialog show them (a decline's station message comes as a message of its own)
        if (event.type === EVENT_TYPES.cardStatus || event.type === EVENT_TYPES.threeDs || isCardTransactionEvent(event) || isBatchOrExportEvent(event) || event.type === EVENT_TYPES.bulkProgress) return;
        applyMessageEvent(queryClient, event, { notice: !isMessagePage(pathRef.current) });
        if (event.type === EVENT_TYPE_FREEZE) {
          // the HTTP module reports a failed check; the last known status stays meanwhile
          checkWalletStatus().catch(() => {});
          void queryClient.invalidateQueries(walletKeys.all());
        }
      },
      onEnd(end) {
        if (end.reason !== 'session') return;
        notifyError(`${end.message}(${end.code})`);
        useSessionStore.getState().logout();
      },
    });
    streamRef.current = stream;
    // a stream that gave up while the network was down tries again once it is back
    const retry = () => stream.restart();
    window.addEventListener('online', retry);
    return () => {
      window.removeEventListener('online', retry);
      stream.close();
      if (streamRef.current === stream) streamRef.current = null;
    };
  }, [queryClient]);

  return useMemo(() => ({ close: () => streamRef.current?.close() }), []);
}
