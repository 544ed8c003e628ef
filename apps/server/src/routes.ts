/**
 * Every API module, registered under /product in this order. A module is a Fastify plugin (its routes with
 * zod schemas, `modules/<feature>/routes.ts`); add a line to register a new one.
 */
import type { FastifyPluginAsync } from 'fastify';
import adminRoutes from './modules/admin/routes.ts';
import animationRoutes from './modules/animation/routes.ts';
import authRoutes from './modules/auth/routes.ts';
import blocklistRoutes from './modules/blocklist/routes.ts';
import catalogRoutes from './modules/catalog/routes.ts';
import communityRoutes from './modules/community/routes.ts';
import companyRoutes from './modules/company/routes.ts';
import consoleRoutes from './modules/console/routes.ts';
import cosRoutes from './modules/cos/routes.ts';
import fileRoutes from './modules/file/routes.ts';
import goodsRoutes from './modules/goods/routes.ts';
import mailboxRoutes from './modules/mailbox/routes.ts';
import modelRoutes from './modules/models/routes.ts';
import motionRoutes from './modules/motion/routes.ts';
import musicRoutes from './modules/music/routes.ts';
import orderRoutes from './modules/order/routes.ts';
import pageViewRoutes from './modules/pageview/routes.ts';
import payRoutes from './modules/pay/routes.ts';
import rbacRoutes from './modules/rbac/routes.ts';
import retrackRoutes from './modules/retrack/routes.ts';
import statsRoutes from './modules/stats/routes.ts';
import systemRoutes from './modules/system/routes.ts';
import tomokageRoutes from './modules/tomokage/routes.ts';
import userRoutes from './modules/user/routes.ts';
import videoRoutes from './modules/video/routes.ts';

export const apiModules: FastifyPluginAsync[] = [
  authRoutes,
  userRoutes,
  adminRoutes,
  catalogRoutes,
  systemRoutes,
  videoRoutes,
  motionRoutes,
  retrackRoutes,
  musicRoutes,
  animationRoutes,
  cosRoutes,
  goodsRoutes,
  payRoutes,
  orderRoutes,
  rbacRoutes,
  consoleRoutes,
  statsRoutes,
  modelRoutes,
  blocklistRoutes,
  tomokageRoutes,
  companyRoutes,
  fileRoutes,
  pageViewRoutes,
  communityRoutes,
  mailboxRoutes,
];
