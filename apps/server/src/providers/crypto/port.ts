import type { AddressRequest, GatewayDeposit, SimulatedDepositAnswer } from './protocol.ts';

/**
 * The crypto gateway as the portal asks it: the deposit address of an account. What arrives on the
 * address comes later as signed events on POST /api/v1/crypto/webhook (protocol.ts); when events may
 * have been lost, the reconciliation asks for an address's deposits, or for one deposit, as they stand.
 */
export interface CryptoGateway {
  /** throws GatewayUnavailable when the gateway does not answer with an address */
  addressFor(request: Omit<AddressRequest, 'network'>): Promise<string>;
  /** every deposit the gateway saw to the address, with its confirmations now; throws GatewayUnavailable */
  depositsTo(address: string): Promise<GatewayDeposit[]>;
  /** one deposit by its chain transaction, as it stands now; null when the gateway saw none; throws GatewayUnavailable */
  depositOf(txId: string): Promise<GatewayDeposit | null>;
}

/** The simulated gateway's extra calls: make a deposit, raise its confirmations. */
export interface SimulatedCryptoGateway extends CryptoGateway {
  simulateDeposit(request: { address: string; amount: string; confirmations: number; lose_event?: boolean }): Promise<SimulatedDepositAnswer>;
  raiseConfirmations(depositId: string, confirmations: number, options?: { loseEvent?: boolean }): Promise<SimulatedDepositAnswer>;
}

/** The gateway did not take a request (unreachable, refused, timed out, or an answer that is none). */
export class GatewayUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayUnavailable';
  }
}
