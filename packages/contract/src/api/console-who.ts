import type { ConsoleAction, OperatorStage } from '../console.ts';
import type { OperatorCaller } from './call.ts';

/** A signed-in operator (FULL) whose role may take `action`. */
export const operator = (action: ConsoleAction): OperatorCaller => ({ operator: ['FULL'], action });
/** An operator's session in one of `stages`, any role: their own sign-in. */
export const operatorSession = (...stages: OperatorStage[]): OperatorCaller => ({ operator: stages });
