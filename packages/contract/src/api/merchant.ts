import { agreementIdParams, agreementSchema, agreementTitleListSchema, merchantSchema } from '../merchant.ts';
import { defineCalls, PUBLIC } from './call.ts';

const tags = ['merchant'];

/** The merchant that owns the request's host: its branding and its published user agreements. */
export const merchantCalls = defineCalls({
  merchant: {
    method: 'GET',
    path: '/merchant',
    answer: merchantSchema,
    summary: 'Branding of the merchant that owns the request host',
    tags,
    who: PUBLIC,
  },
  agreementTitles: {
    method: 'GET',
    path: '/merchant/user-agreement/title',
    answer: agreementTitleListSchema,
    summary: 'Published user agreements of this merchant, newest first',
    tags,
    who: PUBLIC,
  },
  agreement: {
    method: 'GET',
    path: '/merchant/user-agreement/:id',
    params: agreementIdParams,
    answer: agreementSchema,
    summary: 'One user agreement: title and HTML text',
    tags,
    who: PUBLIC,
  },
});
