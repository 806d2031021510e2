// ESLint (flat config): TypeScript, the rules of hooks, accessibility and no import cycles. Run by
// `npm run lint` and by `npm test`. Formatting is Prettier's job, not ESLint's.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "data/", "storage/", "test-results/", "playwright-report/", ".react-router/", "drizzle/", "public/", "bench/results/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })] },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      // `any` is used deliberately at a few library seams (drizzle, pg-boss); each is visible in review.
      "@typescript-eslint/no-explicit-any": "off",
      // Control characters in patterns are deliberate: input checks refuse or strip them.
      "no-control-regex": "off",
      "prefer-const": ["error", { destructuring: "all" }],
      // Empty catch blocks carry a comment saying why the error is dropped.
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  { files: ["app/**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
  {
    files: ["app/**/*.tsx"],
    rules: {
      // The data table restores its table roles explicitly: on a phone it is laid out as blocks, and
      // browsers drop a table's semantics when its display changes.
      "jsx-a11y/no-redundant-roles": ["error", { table: ["table"], thead: ["rowgroup"], tbody: ["rowgroup"], tr: ["row"], dialog: ["dialog"] }],
      "jsx-a11y/no-interactive-element-to-noninteractive-role": ["error", { tr: ["row"], td: ["cell"] }],
      // A labelled scrolling region takes focus so keyboard users can scroll it.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { roles: ["region", "tabpanel"] }],
      // Audio here is music (previews, masters, deliverables): there is no speech to caption.
      "jsx-a11y/media-has-caption": "off",
      // Alt texts name what a picture is for ("Header image of …"), which this heuristic misreads.
      "jsx-a11y/img-redundant-alt": "off",
    },
  },
  {
    // Test helpers named use… (useTestDatabase) are Vitest set-up functions, not React hooks.
    files: ["tests/**", "**/*.test.{ts,tsx}"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
);
