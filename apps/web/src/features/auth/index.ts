export { AccountPage } from './account-page.tsx';
export { AuthErrorPage } from './auth-error-page.tsx';
export { RequireSignIn } from './require-sign-in.tsx';
export { SignInPage } from './sign-in-page.tsx';
export { SignUpPage } from './sign-up-page.tsx';
export { UserMenu } from './user-menu.tsx';
