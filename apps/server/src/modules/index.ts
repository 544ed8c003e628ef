/**
 * Every API module, registered under /product in this order. A module is a Fastify plugin (its routes with
 * zod schemas); add a line to register a new one.
 */
import type { FastifyPluginAsync } from 'fastify';
import adminRoutes from './admin/routes.ts';
import animationRoutes from './animation/routes.ts';
import authRoutes from './auth/routes.ts';
import blocklistRoutes from './blocklist/routes.ts';
import catalogRoutes from './catalog/routes.ts';
import companyRoutes from './company/routes.ts';
import consoleRoutes from './console/routes.ts';
import cosRoutes from './cos/routes.ts';
import goodsRoutes from './goods/routes.ts';
import modelRoutes from './models/routes.ts';
import motionRoutes from './motion/routes.ts';
import musicRoutes from './music/routes.ts';
import orderRoutes from './order/routes.ts';
import payRoutes from './pay/routes.ts';
import rbacRoutes from './rbac/routes.ts';
import retrackRoutes from './retrack/routes.ts';
import statsRoutes from './stats/routes.ts';
import systemRoutes from './system/routes.ts';
import tomokageRoutes from './tomokage/routes.ts';
import userRoutes from './user/routes.ts';
import videoRoutes from './video/routes.ts';

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
];
