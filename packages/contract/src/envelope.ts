import { z } from 'zod';

/** Every answer of the API: code 0 is success and carries data; any other code is a failure. */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), message: z.string(), data });
