/** How long a lock still holds, in whole seconds (at least one). */
export const secondsLeft = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
