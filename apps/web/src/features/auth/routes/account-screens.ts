/**
 * The account screens of the login area, loaded as one module (route-table.ts picks each screen
 * from it). They end on /sign-in, and naming sign-in here too puts its whole module graph in the one
 * chunk both load: otherwise the code sign-in shares with these screens (inputs, rules, tabs) would
 * be cut out of sign-in's chunk into pieces of its own, and sign-in's first load would grow.
 */
export { default as ChangePasswordCheck } from './change-password-check.tsx';
export { default as ForgetPassword } from './forget-password.tsx';
export { default as ResetPassword } from './reset-password.tsx';
export { default as SignEmail } from './sign-email.tsx';
export { default as SignIn } from './sign-in.tsx';
export { default as SignUp } from './sign-up.tsx';
