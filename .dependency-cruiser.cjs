/**
 * The upstream's architecture rules (docs/architecture.md "The upstream's shape"), checked by
 * tests/unit/architecture.test.ts on every `npm test`:
 * - no import circle, type-only imports included;
 * - the modules and the platform never import the composition root (app.ts, main.ts);
 * - a module never imports another module's routes;
 * - the order engine and the money services import no HTTP or websocket code (only their routes
 *   and the trading pushes do);
 * - the platform imports module code only as types (the composition root hands services in).
 * Which files may hold SQL is checked beside it, by the same test (store files only).
 */
const ROUTES = "(routes\\.ts$|routes/)";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: two files that cannot be understood, tested or ported apart.",
      from: { path: "^(upstream|contract)/" },
      to: { circular: true },
    },
    {
      name: "no-composition-root",
      severity: "error",
      comment: "Modules and platform get what they need handed in; only the entry points build.",
      from: { path: "^upstream/(modules|platform)/" },
      to: { path: "^upstream/(app|main)\\.ts$" },
    },
    {
      name: "no-other-modules-routes",
      severity: "error",
      comment: "A module's routes are its own HTTP face; other modules use its services.",
      from: { path: "^upstream/modules/([^/]+)/" },
      to: { path: `^upstream/modules/[^/]+/${ROUTES}`, pathNot: "^upstream/modules/$1/" },
    },
    {
      name: "engine-and-money-without-http",
      severity: "error",
      comment: "The engine and the money services hold rules, not transport.",
      from: {
        path: "^upstream/modules/(trading|money)/",
        pathNot: `^upstream/modules/(trading|money)/(${ROUTES}|pushes\\.ts$)`,
      },
      to: {
        path: "(^node_modules/(fastify|@fastify|ws|fastify-type-provider-zod)/|^upstream/platform/(http|ws)/|^upstream/platform/context\\.ts$)",
      },
    },
    {
      name: "platform-without-modules",
      severity: "error",
      comment: "The platform serves every module and depends on none (types excepted).",
      from: { path: "^upstream/platform/" },
      to: { path: "^upstream/modules/", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".d.ts", ".json"],
    },
    exclude: { path: "^(build|public|test-results|data)/" },
  },
};
