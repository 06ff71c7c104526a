import type { RevealBody } from '@portal/contract/cards';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';

/**
 * What the reveal call is sent: the access code, or nothing within five minutes of a checked one.
 * `send_type` says where the code went (the phone when left out); the server's card module reads it,
 * the contract's revealBody does not name it yet.
 */

/**
 * POST /card/:id/reveal: the full number, CVV and expiry. The answer is never cached: it
 * lives in the dialog that shows it, for REVEAL_SHOW_SECONDS.
 */
export const revealCard = (id: string, body: RevealBody) => call(cardCalls.reveal, { params: { id }, body });

export const useRevealCard = (id: string) => useMutation({ mutationFn: (body: RevealBody) => revealCard(id, body), gcTime: 0 });
