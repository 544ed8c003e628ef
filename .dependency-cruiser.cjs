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

/** A forbidden dependency: imports from `from` to `to` fail the build with the rule's name. */
const rule = (name, comment, from, to) => ({ name, severity: 'error', comment, from, to });

module.exports = {
  forbidden: [
    rule('no-circular', 'No import cycles, in any package or app.', {}, { circular: true }),
    rule(
      'packages-below-apps',
      'Packages are the lower layer: they never import an app.',
      { path: '^packages/' },
      { path: '^apps/' },
    ),
    rule(
      'contracts-browser-safe',
      '@mocap/contracts is imported by the browser: only zod, no Node built-ins, no other package.',
      { path: '^packages/contracts/' },
      { dependencyTypesNot: ['local'], pathNot: '(^|/)node_modules/zod/' },
    ),
    rule(
      'web-not-node-apps',
      'The web app talks to the server over HTTP; it shares types through @mocap/contracts only.',
      { path: '^apps/web/' },
      { path: '^apps/(server|worker|cli)/' },
    ),
    rule(
      'server-front-door',
      'Other apps use the server through its package front door (src/index.ts) only.',
      { path: '^apps/(worker|cli)/' },
      { path: S, pathNot: `${S}index\\.ts$` },
    ),
    rule(
      'server-nothing-reaches-up-to-wiring',
      'wiring.ts / app.ts / main.ts / index.ts sit on top: nothing below imports them.',
      { path: S, pathNot: [TOP, `${S}paysandbox/mount\\.ts$`] },
      { path: TOP, pathNot: `${S}services\\.ts$` },
    ),
    rule(
      'server-infra-below-modules',
      "Adapters implement ports: infra imports ports (src/ports.ts, a slice's ports.ts), never slices, http or wiring.",
      { path: `${S}infra/` },
      {
        path: `${S}(modules/|http/|store\\.ts$|services\\.ts$)`,
        pathNot: `${S}modules/[^/]+/ports\\.ts$`,
      },
    ),
    rule(
      'server-routes-never-reach-infra',
      'Routes call services: no adapter, repository, SQL, queue or S3 code from a route.',
      { path: `${S}modules/[^/]+/(routes|preflight)\\.ts$` },
      {
        path: [
          `${S}infra/`,
          `${S}migrations/`,
          `${S}store\\.ts$`,
          `${S}modules/[^/]+/(repo|store)\\.ts$`,
          ADAPTER_LIBS,
        ],
      },
    ),
    rule(
      'server-services-pure',
      'Services (and every slice file besides routes, their schemas and repositories) import ports only: never Fastify, Kysely, BullMQ, fs, the S3 SDK, infra or http.',
      {
        path: `${S}modules/`,
        pathNot: `${S}modules/[^/]+/(routes|preflight|schemas|repo|store)\\.ts$`,
      },
      {
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
    ),
    rule(
      'server-repos-below-services',
      'Repositories (the only SQL) implement ports: they never import services, routes or http.',
      { path: `${S}(modules/[^/]+/(repo|store)\\.ts|store\\.ts)$` },
      { path: [`${S}modules/[^/]+/(routes|service|preflight)\\.ts$`, `${S}http/`, FRAMEWORK_LIBS] },
    ),
    rule(
      'server-sql-only-in-repos',
      'Kysely only in repositories, the database adapters, the migrations and the wiring.',
      {
        path: S,
        pathNot: [
          `${S}modules/[^/]+/(repo|store)\\.ts$`,
          `${S}store\\.ts$`,
          `${S}infra/(db|queue)/`,
          `${S}migrations/`,
        ],
      },
      { path: '(^|/)node_modules/kysely/' },
    ),
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
