import {
  agreementBody,
  announcementBody,
  announcementQuery,
  consoleAgreement,
  consoleAgreementList,
  consoleAnnouncement,
  consoleAnnouncementPage,
  consoleProduct,
  consoleProductList,
  productChangeBody,
  productCreateBody,
  productIdParams,
} from '../console-admin.ts';
import { type Call, defineCalls } from './call.ts';
import { operator } from './console-who.ts';

const tags = ['console'];

/** The console's calls of what an ADMIN keeps: card products and fees, agreements, announcements (every role reads them). */
export const consoleAdminCalls = defineCalls({
  products: {
    method: 'GET',
    path: '/products',
    answer: consoleProductList,
    summary: "The merchant's card products with their fees and limits, OFF ones included, in the portal's order",
    tags,
    who: operator('products.read'),
  },
  createProduct: {
    method: 'POST',
    path: '/products',
    body: productCreateBody,
    answer: consoleProduct,
    summary: 'Adds a card product to the merchant (name unique there); customers may open it at once unless its status is OFF',
    tags,
    who: operator('products.write'),
  },
  changeProduct: {
    method: 'PUT',
    path: '/products/:id',
    params: productIdParams,
    body: productChangeBody,
    answer: consoleProduct,
    summary:
      "Changes a card product's name, status, fees or limits; cards opened from then on are charged the new fees, cards already opened keep the fee terms they were opened under (top-up and decline fees)",
    tags,
    who: operator('products.write'),
  },
  agreements: {
    method: 'GET',
    path: '/agreements',
    answer: consoleAgreementList,
    summary: "The merchant's user agreements, newest first (the first is the one customers read)",
    tags,
    who: operator('content.read'),
  },
  publishAgreement: {
    method: 'POST',
    path: '/agreements',
    body: agreementBody,
    answer: consoleAgreement,
    summary: 'Publishes a user agreement; it becomes the one sign-up and the portal show',
    tags,
    who: operator('content.publish'),
  },
  announcements: {
    method: 'GET',
    path: '/announcements',
    query: announcementQuery,
    answer: consoleAnnouncementPage,
    summary: "The merchant's announcements to every customer, newest first",
    tags,
    who: operator('content.read'),
  },
  publishAnnouncement: {
    method: 'POST',
    path: '/announcements',
    body: announcementBody,
    answer: consoleAnnouncement,
    summary: "Publishes an announcement to every customer of the merchant: their message centres list it and open portal tabs show it at once",
    tags,
    who: operator('content.publish'),
  },
}) satisfies Record<string, Call>;
