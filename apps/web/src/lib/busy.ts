/**
 * The `loading` of an antd button that sends a form. The spinner shows only once a call has taken a
 * moment: most answers come sooner, and a spinner that appears and leaves within the same instant can
 * be left behind by its animation, invisible but still naming the button "loading …".
 */
export const busy = (pending: boolean) => (pending ? { delay: 150 } : false);
