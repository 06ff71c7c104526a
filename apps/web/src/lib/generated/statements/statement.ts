// Generated from packages/contract/src/api/statements.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { statementCalls as declared } from '@portal/contract/api/statements';
import type { CallRef } from '../../api-client.ts';

export const statement: CallRef<(typeof declared)['statement']> = { method: 'GET', path: '/statements', raw: 'file' };
