import type { AddressRequest, SimulatedDepositAnswer } from './protocol.ts';

/**
 * The crypto gateway as the portal asks it: the deposit address of an account. What arrives on the
 * address comes later as signed events on POST /api/v1/crypto/webhook (protocol.ts).
 */
export interface CryptoGateway {
  /** throws GatewayUnavailable when the gateway does not answer with an address */
  addressFor(request: Omit<AddressRequest, 'network'>): Promise<string>;
}

/** The simulated gateway's extra calls: make a deposit, raise its confirmations. */
export interface SimulatedCryptoGateway extends CryptoGateway {
  simulateDeposit(request: { address: string; amount: string; confirmations: number }): Promise<SimulatedDepositAnswer>;
  raiseConfirmations(depositId: string, confirmations: number): Promise<SimulatedDepositAnswer>;
}

/** The gateway did not take a request (unreachable, refused, timed out, or an answer that is none). */
export class GatewayUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayUnavailable';
  }
}
