/** The console's pages under /index (issue 21); the sidebar lists those built and opened by the account's roles. */
import { ManageAnimationPage } from './Animation.tsx';
import { MachineManagePage } from './Machines.tsx';
import { ManageModelPage } from './Models.tsx';
import { BriefingPage, ExtensionPage } from './Reports.tsx';
import { AuditLogPage, ManageRolePage, ManageRouterPage } from './Roles.tsx';
import { ServicePage } from './Service.tsx';
import { ManageTomokagePage } from './Tomokage.tsx';
import { BlockPage, ManageUserPage } from './Users.tsx';
import { ManageCompanyPage, ManageVideoPage, ManageVideoTagPage, VideoDownHistoryPage } from './Videos.tsx';

export const adminRoutes = [
  { path: 'manageUser', element: <ManageUserPage /> },
  { path: 'manageCompany', element: <ManageCompanyPage /> },
  { path: 'block', element: <BlockPage /> },
  { path: 'service', element: <ServicePage /> },
  { path: 'briefing', element: <BriefingPage /> },
  { path: 'extension', element: <ExtensionPage /> },
  { path: 'manageVideo', element: <ManageVideoPage /> },
  { path: 'manageVideoTag', element: <ManageVideoTagPage /> },
  { path: 'videoDownHistory', element: <VideoDownHistoryPage /> },
  { path: 'manageModel', element: <ManageModelPage /> },
  { path: 'manageTomokage', element: <ManageTomokagePage /> },
  { path: 'manageAnimation', element: <ManageAnimationPage /> },
  // The spec's menu path for the same page (menu value animation 21).
  { path: 'animationManage', element: <ManageAnimationPage /> },
  { path: 'machineManage', element: <MachineManagePage /> },
  { path: 'manageRole', element: <ManageRolePage /> },
  { path: 'manageRouter', element: <ManageRouterPage /> },
  { path: 'auditLog', element: <AuditLogPage /> },
];

export const ADMIN_BUILT = new Set(adminRoutes.map((r) => r.path));
