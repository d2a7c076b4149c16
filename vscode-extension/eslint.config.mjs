// @ts-check
import eslint from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "out/**", "node_modules/**", "*.vsix"] },
  eslint.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      eqeqeq: "error",
      curly: "error",
    },
  },
  {
    // node:test's test() returns a promise the runner awaits itself.
    files: ["src/test/**/*.ts"],
    rules: { "@typescript-eslint/no-floating-promises": "off" },
  },
);
