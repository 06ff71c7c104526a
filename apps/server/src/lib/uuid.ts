/** Whether `text` is a UUID, as every row id here is: anything else names no row, and is not sent to the database. */
export const isUuid = (text: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
