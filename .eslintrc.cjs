/** ESLint 8 (classic config): TypeScript, React and the rules of hooks, for the whole repository. */
module.exports = {
  root: true,
  parser: "@typescript-eslint/parser",
  parserOptions: { ecmaVersion: "latest", sourceType: "module", ecmaFeatures: { jsx: true } },
  env: { browser: true, node: true, es2022: true },
  ignorePatterns: [
    "node_modules/",
    "build/",
    "public/build/",
    ".cache/",
    "data/",
    "test-results/",
    "playwright-report/",
    "*.log",
    // The config vite bundles for a moment while vitest starts (beside the lint in npm test).
    "*.timestamp-*.mjs",
  ],
  plugins: ["@typescript-eslint", "react", "react-hooks"],
  extends: [
    "eslint:recommended",
    "plugin:@typescript-eslint/recommended",
    "plugin:react/recommended",
    "plugin:react/jsx-runtime",
    "plugin:react-hooks/recommended",
  ],
  settings: { react: { version: "18.3" } },
  rules: {
    "@typescript-eslint/no-unused-vars": [
      "error",
      { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
    ],
    "react/prop-types": "off",
    "react/no-unescaped-entities": "off",
  },
  overrides: [
    {
      files: ["tests/**/*.ts", "scripts/**/*", "upstream/**/*.ts"],
      rules: { "@typescript-eslint/no-explicit-any": "off" },
    },
    {
      // Playwright fixtures call `use(...)`, which is not a React hook.
      files: ["tests/e2e/**/*.ts", "playwright.config.ts"],
      rules: { "react-hooks/rules-of-hooks": "off" },
    },
    {
      files: ["*.cjs", "remix.config.js"],
      rules: { "@typescript-eslint/no-require-imports": "off" },
    },
  ],
};
