import { cardCalls } from '@portal/contract/api/cards';
import type { VerificationAnswer, VerificationBody } from '@portal/contract/cards';
import type { Db } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import { findVerification, saveVerification } from './store.ts';

/** "11010519491231002X" → "110***********002X": enough to recognise, not enough to use. */
export const maskIdNumber = (idNumber: string) => `${idNumber.slice(0, 3)}${'*'.repeat(Math.max(0, idNumber.length - 7))}${idNumber.slice(-4)}`;

/** What a holder gives before opening cards: the ID number sealed with the card data key, never answered whole. */
export function verificationPart({ db, clock, sealer }: { db: Db; clock: Clock; sealer: Sealer }) {
  const verificationOf = async (merchantId: string, accountId: string): Promise<VerificationAnswer> => {
    const row = await findVerification(db, merchantId, accountId);
    return {
      basic: row?.basicAt && row.realName && row.idNumberMasked ? { real_name: row.realName, id_number_masked: row.idNumberMasked } : null,
      secondary: row?.secondaryAt && row.latinName && row.website ? { latin_name: row.latinName, website: row.website } : null,
    };
  };

  return {
    /** GET /card/verification: what the account has given, the ID number masked. */
    verification: verificationOf,

    /**
     * PUT /card/verification: keeps each pair given (a pair given again replaces the one before) and
     * answers what the account has given now. The body has passed the contract's rules.
     */
    async saveVerification(merchantId: string, accountId: string, body: VerificationBody): Promise<VerificationAnswer> {
      const now = clock.now();
      const basic =
        body.real_name !== undefined && body.id_number !== undefined
          ? {
              realName: body.real_name.trim(),
              idNumberSealed: sealer.seal(body.id_number.toUpperCase()),
              idNumberMasked: maskIdNumber(body.id_number.toUpperCase()),
              basicAt: now,
            }
          : {};
      const secondary =
        body.latin_name !== undefined && body.website !== undefined
          ? { latinName: body.latin_name.trim().replace(/\s+/g, ' '), website: body.website.trim(), secondaryAt: now }
          : {};
      await db.transaction(async (tx) => {
        await saveVerification(tx, { accountId, merchantId, ...basic, ...secondary });
        await traceWithin(tx, cardCalls.saveVerification, null);
      });
      return verificationOf(merchantId, accountId);
    },
  };
}
