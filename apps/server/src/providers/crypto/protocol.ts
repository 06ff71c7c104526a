import { USDT_NETWORK } from '@portal/contract/usdt';
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
  simulatedDeposits: '/v1/simulator/deposits',
  simulatedDeposit: (depositId: string) => `/v1/simulator/deposits/${encodeURIComponent(depositId)}`,
} as const;

const id = z.string().min(1).max(100);

/** POST /v1/addresses: the deposit address of one account of one merchant (the same every time it is asked). */
export const addressRequestBody = z.object({ merchant_id: id, account_id: id, network: z.literal(USDT_NETWORK) });
export type AddressRequest = z.infer<typeof addressRequestBody>;
export const addressAnswer = z.object({ address: z.string().min(1).max(100), network: z.literal(USDT_NETWORK) });

/** A USDT amount as the gateway writes it: above zero, at most two decimals. */
const usdtAmount = z
  .string()
  .regex(/^(0|[1-9]\d{0,11})(\.\d{1,2})?$/)
  .refine((text) => !/^0(\.0{1,2})?$/.test(text));

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
export const gatewayEvent = z.object({ id, type: z.string().min(1).max(100), data: z.record(z.string(), z.unknown()) });

/** POST /v1/simulator/deposits (the simulator only): a deposit to an address it made, with its confirmations so far. */
export const simulateDepositBody = z.object({ address: z.string().min(1).max(100), amount: usdtAmount, confirmations: z.number().int().min(0).max(1000) });
/** POST /v1/simulator/deposits/:id (the simulator only): the deposit's confirmations now; they only rise. */
export const raiseConfirmationsBody = z.object({ deposit_id: id, confirmations: z.number().int().min(0).max(1000) });

/** How the event of a simulated change went: taken by the portal (2xx), or not after a few tries. */
export interface SimulatedDepositAnswer {
  deposit_id: string;
  tx_id: string;
  address: string;
  amount: string;
  confirmations: number;
  event_id: string;
  delivery: { delivered: boolean; status: number | null; error: string | null };
}
