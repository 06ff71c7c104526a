/**
 * An operator's authenticator app, as the console's browser tests use it: the code computed with otplib from
 * the secret the enrolment shows. The server takes each step's code once and, after a code, only a later
 * step's, within one step either side of its clock (RFC 6238 §5.2). So each use takes the next step it may:
 * the first the step before now, then now, then the one after; only a fourth use within one 30-second step
 * waits for the clock's next step. A code is never handed out in the last seconds it would still be accepted.
 */
import { generate } from 'otplib';

const STEP_MS = 30_000;

export function authenticator(secret: string) {
  let last = Math.floor(Date.now() / STEP_MS) - 2;
  const nextCode = async (): Promise<string> => {
    for (;;) {
      const now = Math.floor(Date.now() / STEP_MS);
      const left = STEP_MS - (Date.now() % STEP_MS);
      const step = Math.max(last + 1, now - 1);
      // the code must still be inside the server's window when it reads it
      const tooLate = step === now - 1 && left < 3_000;
      const tooEarly = step === now + 1 && left > STEP_MS - 2_000;
      if (step <= now + 1 && !tooLate && !tooEarly) {
        last = step;
        return generate({ secret, epoch: step * 30 });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, tooEarly ? left - (STEP_MS - 2_000) : left) + 100));
    }
  };
  return nextCode;
}
