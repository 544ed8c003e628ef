/**
 * The dependency rule (issue 17), checked by `npm run deps` in scripts/test.sh (CI): no cycles anywhere; the
 * packages never reach into the apps; in the server, routes → services → ports ← adapters (infra, repos), one
 * wiring file on top. A violation fails the build with the rule's name and the offending import.
 */
const S = '^apps/server/src/';
const TOP = `${S}(wiring|main|index|app|services|openapi)\\.ts$`;
const ADAPTER_LIBS =
  '(^|/)node_modules/(kysely|bullmq|ioredis|pg|better-sqlite3|@aws-sdk/[^/]+|nodemailer|pdfkit|sharp|alipay-sdk|wechatpay-axios-plugin)/';
const FRAMEWORK_LIBS = '(^|/)node_modules/(fastify|@fastify/[^/]+|fastify-type-provider-zod)/';
const FS = '^(node:)?fs(/promises)?$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, in any package or app.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-below-apps',
      severity: 'error',
      comment: 'Packages are the lower layer: they never import an app.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'contracts-browser-safe',
      severity: 'error',
      comment: '@mocap/contracts is imported by the browser: only zod, no Node built-ins, no other package.',
      from: { path: '^packages/contracts/' },
      to: { dependencyTypesNot: ['local'], pathNot: '(^|/)node_modules/zod/' },
    },
    {
      name: 'web-not-node-apps',
      severity: 'error',
      comment: 'The web app talks to the server over HTTP; it shares types through @mocap/contracts only.',
      from: { path: '^apps/web/' },
      to: { path: '^apps/(server|worker|cli)/' },
    },
    {
      name: 'server-front-door',
      severity: 'error',
      comment: 'Other apps use the server through its package front door (src/index.ts) only.',
      from: { path: '^apps/(worker|cli)/' },
      to: { path: S, pathNot: `${S}index\\.ts$` },
    },
    {
      name: 'server-nothing-reaches-up-to-wiring',
      severity: 'error',
      comment: 'wiring.ts / app.ts / main.ts / index.ts sit on top: nothing below imports them.',
      from: { path: S, pathNot: [TOP, `${S}paysandbox/mount\\.ts$`] },
      to: { path: TOP, pathNot: `${S}services\\.ts$` },
    },
    {
      name: 'server-infra-below-modules',
      severity: 'error',
      comment:
        "Adapters implement ports: infra imports ports (src/ports.ts, a slice's ports.ts), never slices, http or wiring.",
      from: { path: `${S}infra/` },
      to: {
        path: `${S}(modules/|http/|store\\.ts$|services\\.ts$)`,
        pathNot: `${S}modules/[^/]+/ports\\.ts$`,
      },
    },
    {
      name: 'server-routes-never-reach-infra',
      severity: 'error',
      comment: 'Routes call services: no adapter, repository, SQL, queue or S3 code from a route.',
      from: { path: `${S}modules/[^/]+/(routes|preflight)\\.ts$` },
      to: {
        path: [
          `${S}infra/`,
          `${S}migrations/`,
          `${S}store\\.ts$`,
          `${S}modules/[^/]+/(repo|store)\\.ts$`,
          ADAPTER_LIBS,
        ],
      },
    },
    {
      name: 'server-services-pure',
      severity: 'error',
      comment:
        'Services (and every slice file besides routes, their schemas and repositories) import ports only: never Fastify, Kysely, BullMQ, fs, the S3 SDK, infra or http.',
      from: {
        path: `${S}modules/`,
        pathNot: `${S}modules/[^/]+/(routes|preflight|schemas|repo|store)\\.ts$`,
      },
      to: {
        path: [
          `${S}infra/`,
          `${S}http/`,
          `${S}store\\.ts$`,
          `${S}modules/[^/]+/(routes|repo|store)\\.ts$`,
          ADAPTER_LIBS,
          FRAMEWORK_LIBS,
          FS,
        ],
      },
    },
    {
      name: 'server-repos-below-services',
      severity: 'error',
      comment: 'Repositories (the only SQL) implement ports: they never import services, routes or http.',
      from: { path: `${S}(modules/[^/]+/(repo|store)\\.ts|store\\.ts)$` },
      to: { path: [`${S}modules/[^/]+/(routes|service|preflight)\\.ts$`, `${S}http/`, FRAMEWORK_LIBS] },
    },
    {
      name: 'server-sql-only-in-repos',
      severity: 'error',
      comment: 'Kysely only in repositories, the database adapters, the migrations and the wiring.',
      from: {
        path: S,
        pathNot: [
          `${S}modules/[^/]+/(repo|store)\\.ts$`,
          `${S}store\\.ts$`,
          `${S}infra/(db|queue)/`,
          `${S}migrations/`,
        ],
      },
      to: { path: '(^|/)node_modules/kysely/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
    combinedDependencies: true,
  },
};
