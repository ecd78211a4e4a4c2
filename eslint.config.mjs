import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypeScript from 'eslint-config-next/typescript';

const eslintConfig = [
  ...nextCoreWebVitals,
  ...nextTypeScript,
  {
    // The Next.js apps of the repository (their pages, for rules such as no-html-link-for-pages).
    settings: { next: { rootDir: ['apps/*/'] } },
  },
  {
    // Playwright fixtures call their callback `use`, which is not React's hook.
    files: ['tests/e2e/**', 'tests/engines/**', 'apps/*/tests/**', 'packages/testing/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    // Builds (every app's and the benches', each a .next* folder), installs and test output, wherever they are.
    ignores: [
      '**/.next*/**',
      '.bench-app/**',
      '**/node_modules/**',
      '**/next-env.d.ts',
      '**/test-results/**',
      '.test-results/**',
      'playwright-report/**',
      'bench/.baseline-no-proxy/**',
    ],
  },
];

export default eslintConfig;
