/**
 * @mocap/web front door: the app component and the pure rules the pages follow (for tests and other packages).
 * The browser entry is `main.tsx`; `npm run build -w @mocap/web` writes `dist/` for the server's /capture.
 */
export { App, BASENAME, routes } from './App.tsx';
export { FORCED_LOGOUT_CODES, interpretEnvelope, type Outcome } from './lib/envelope.ts';
export { guard, PUBLIC_PATHS } from './lib/guard.ts';
export { ADMIN_MENU, COMPANY_MENU, isMenuItemActive, MENU_VALUES, menuFor, PHONE_MENU } from './lib/menu.ts';
export { PLAN_LIMITS, remakeCost, uploadCost } from './lib/plans.ts';
export { DESIGN_HEIGHT, DESIGN_WIDTH, designScale } from './lib/scale.ts';
export * as uploadValidation from './lib/uploadValidation.ts';
