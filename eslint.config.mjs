// eslint.config.mjs: ESLint's settings for the project's JavaScript (tests/repository/test_linters.py runs it).
// What it is: ESLint's recommended rules, with the globals of where each file runs: the page, a worker,
// the service worker, or Node (the build's hooks and the tests' drivers).
// What it is not: a formatter, nor a check of vendored or built code (node_modules/, .venv/, site/, build/).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "site/", "build/"] },
  js.configs.recommended,
  { rules: { "no-unused-vars": ["error", { argsIgnorePattern: "^_" }] } },  // _key: a parameter for subclasses
  { files: ["site_scripts/browser/**", "site_scripts/tutor/**", "tests/benchmarks/bare/**"],
    languageOptions: { globals: { ...globals.browser, document$: "readonly" } } },  // document$: Material's page events
  { files: ["site_scripts/browser/runtime/worker.mjs", "site_scripts/browser/search/search-worker.js"],
    languageOptions: { globals: globals.worker } },
  { files: ["site_scripts/browser/offline/service-worker.js"], languageOptions: { globals: globals.serviceworker } },
  { files: ["site_scripts/browser/**/*.js"], languageOptions: { sourceType: "script" } },
  { files: ["site_scripts/hooks/**", "tests/**/*.mjs", "eslint.config.mjs"], ignores: ["tests/benchmarks/bare/**"],
    languageOptions: { globals: globals.node } },
];
