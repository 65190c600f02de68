export { HomePage } from './home-page.tsx';
export { NotFoundPage } from './not-found-page.tsx';
