import type { Db } from '../../db/engine.ts';
import { Refused } from '../../lib/refused.ts';
import { findManagerByCode, findManagerById, insertManager } from './store.ts';

/** Letters and digits that cannot be taken for one another (no I, O, 0, 1). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The merchant's customer managers: an invitation code at sign-up ties the new account to one. */
export function createManagerService({ db }: { db: Db }) {
  return {
    findByCode: (merchantId: string, code: string) => findManagerByCode(db, merchantId, code),
    findById: (id: string) => findManagerById(db, id),

    /**
     * Adds a manager with the given invitation code (matched without regard to case, unique within the
     * merchant) or, without one, a free code drawn at random.
     */
    async create(values: { merchantId: string; name: string; invitationCode?: string | undefined }, slug = 'this merchant') {
      return db.transaction(async (tx) => {
        let code = values.invitationCode?.toUpperCase();
        if (code) {
          if (await findManagerByCode(tx, values.merchantId, code)) throw new Refused(`merchant ${slug} already has the invitation code ${code}`);
        } else {
          for (let attempt = 0; attempt < 50 && !code; attempt++) {
            const drawn = Array.from({ length: 4 }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');
            if (!(await findManagerByCode(tx, values.merchantId, drawn))) code = drawn;
          }
          if (!code) throw new Refused('could not draw a free invitation code; give one with --code');
        }
        return insertManager(tx, { merchantId: values.merchantId, name: values.name, invitationCode: code });
      });
    },
  };
}

export type ManagerService = ReturnType<typeof createManagerService>;
