import { toUsdtMicros, USDT_NETWORK } from '@portal/contract/usdt';
import { z } from 'zod';

/**
 * The crypto gateway's HTTP API as the portal calls it, and the events it sends back. Every request
 * and every event is a POST with a JSON body signed with CRYPTO_WEBHOOK_SECRET the way the card issuer
 * signs (`Gateway-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, lib/issuer-signature.ts).
 * The simulator (simulator-server.ts) serves it and the HTTP adapter (http.ts) calls it.
 */
export const GATEWAY_SIGNATURE_HEADER = 'gateway-signature';

export const GATEWAY_PATHS = {
  addresses: '/v1/addresses',
  /** the deposits to one address, newest first */
  addressDeposits: '/v1/addresses/deposits',
  /** one deposit, by its chain transaction */
  transaction: (txId: string) => `/v1/transactions/${encodeURIComponent(txId)}`,
  simulatedDeposits: '/v1/simulator/deposits',
  simulatedDeposit: (depositId: string) => `/v1/simulator/deposits/${encodeURIComponent(depositId)}`,
} as const;

const id = z.string().min(1).max(100);

/** POST /v1/addresses: the deposit address of one account of one merchant (the same every time it is asked). */
export const addressRequestBody = z.object({ merchant_id: id, account_id: id, network: z.literal(USDT_NETWORK) });
export type AddressRequest = z.infer<typeof addressRequestBody>;
export const addressAnswer = z.object({ address: z.string().min(1).max(100), network: z.literal(USDT_NETWORK) });

/** A USDT amount as the gateway writes it: above zero, at most 6 decimals (TRC20 USDT's), kept exactly. */
export const usdtAmount = z.string().refine((text) => toUsdtMicros(text) !== null);

/** The event the gateway sends each time a deposit to one of its addresses is seen or gains confirmations. */
export const DEPOSIT_EVENT_TYPE = 'deposit.confirmations';
export const depositEventData = z.object({
  /** the gateway's own id of the deposit */
  deposit_id: id,
  /** the chain transaction: what the portal credits it under, once */
  tx_id: z.string().regex(/^[0-9a-f]{64}$/),
  address: z.string().min(1).max(100),
  amount: usdtAmount,
  confirmations: z.number().int().min(0).max(1_000_000),
  network: z.literal(USDT_NETWORK),
});
export type DepositEventData = z.infer<typeof depositEventData>;
/** A deposit as the gateway answers about it: what its event says. */
export const gatewayDeposit = depositEventData;
export type GatewayDeposit = DepositEventData;
export const gatewayEvent = z.object({ id, type: z.string().min(1).max(100), data: z.record(z.string(), z.unknown()) });

/** POST /v1/addresses/deposits: every deposit the gateway saw to the address, with its confirmations now. */
export const addressDepositsBody = z.object({ address: z.string().min(1).max(100), network: z.literal(USDT_NETWORK) });
export const addressDepositsAnswer = z.object({ items: z.array(gatewayDeposit) });
/** POST /v1/transactions/:tx_id: one deposit as it stands now; 404 when the gateway saw no such deposit. */
export const transactionBody = z.object({ tx_id: z.string().regex(/^[0-9a-f]{64}$/) });

/** POST /v1/simulator/deposits (the simulator only): a deposit to an address it made, with its confirmations so far. */
export const simulateDepositBody = z.object({
  address: z.string().min(1).max(100),
  amount: usdtAmount,
  confirmations: z.number().int().min(0).max(1000),
  /** true: the event is not sent, as if it were lost on its way (what the reconciliation finds) */
  lose_event: z.boolean().optional(),
});
/** POST /v1/simulator/deposits/:id (the simulator only): the deposit's confirmations now; they only rise. */
export const raiseConfirmationsBody = z.object({ deposit_id: id, confirmations: z.number().int().min(0).max(1000), lose_event: z.boolean().optional() });

/** How the event of a simulated change went: taken by the portal (2xx), or not after a few tries. */
export interface SimulatedDepositAnswer {
  deposit_id: string;
  tx_id: string;
  address: string;
  amount: string;
  confirmations: number;
  event_id: string;
  delivery: { delivered: boolean; status: number | null; error: string | null; lost?: boolean };
}
