/** zod schemas of the rbac routes (roles, menus, audit log): the contract's (`@mocap/contracts`). */
export {
  AccessSchema,
  AuditSchema,
  AuditSearchBody,
  MenuSaveBody,
  MenuSchema,
  MyPageSchema,
  PageGrantSchema,
  RoleSaveBody,
  RoleSchema,
} from '@mocap/contracts';
