/** The console's screens, below /console. */
export const paths = {
  signIn: { path: '/sign-in', getHref: () => '/sign-in' },
  overview: { path: '/', getHref: () => '/' },
  audit: { path: '/audit', getHref: () => '/audit' },
  operators: { path: '/operators', getHref: () => '/operators' },
  products: { path: '/products', getHref: () => '/products' },
  content: { path: '/content', getHref: () => '/content' },
  deposits: { path: '/deposits', getHref: () => '/deposits' },
  approvals: { path: '/approvals', getHref: () => '/approvals' },
  customers: { path: '/customers', getHref: () => '/customers' },
  customer: { path: '/customers/:id', getHref: (id: string) => `/customers/${id}` },
  cards: { path: '/cards', getHref: (query = '') => `/cards${query}` },
  transactions: { path: '/transactions', getHref: (query = '') => `/transactions${query}` },
} as const;
