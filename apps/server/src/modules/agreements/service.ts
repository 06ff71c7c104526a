import type { Db, Tx } from '../../db/engine.ts';
import { findAgreement, insertAgreement, listAgreements, listAgreementTitles, publishAgreement } from './store.ts';

/** A merchant's user agreements: the newest is the one customers read; earlier ones stay readable by id. */
export function createAgreementService({ db }: { db: Db }) {
  return {
    titles: (merchantId: string) => listAgreementTitles(db, merchantId),
    find: (merchantId: string, id: string) => findAgreement(db, merchantId, id),
    /** Every agreement with when it was published and its length, newest first (the console's list). */
    list: (merchantId: string) => listAgreements(db, merchantId),
    /** Publishes a new agreement, inside `tx` when given (a console change's); it becomes the first of the list. */
    publish: (values: { merchantId: string; title: string; text: string }, tx: Tx = db) => publishAgreement(tx, values),
    /** Adds an agreement with the given publication time (the demo data's). */
    insert: (values: Parameters<typeof insertAgreement>[1]) => insertAgreement(db, values),
  };
}

export type AgreementService = ReturnType<typeof createAgreementService>;
