/** The console's pages under /index (issue 21); the sidebar lists those built and opened by the account's roles. */
import { AuditLogPage, ManageRolePage, ManageRouterPage } from './Roles.tsx';
import { ServicePage } from './Service.tsx';
import { BlockPage, ManageUserPage } from './Users.tsx';

export const adminRoutes = [
  { path: 'manageUser', element: <ManageUserPage /> },
  { path: 'block', element: <BlockPage /> },
  { path: 'service', element: <ServicePage /> },
  { path: 'manageRole', element: <ManageRolePage /> },
  { path: 'manageRouter', element: <ManageRouterPage /> },
  { path: 'auditLog', element: <AuditLogPage /> },
];

export const ADMIN_BUILT = new Set(adminRoutes.map((r) => r.path));
