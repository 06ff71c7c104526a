/** Query keys of the account screens. */
export const authKeys = {
  all: ['auth'] as const,
  signUpAgreement: () => [...authKeys.all, 'sign-up-agreement'] as const,
};
