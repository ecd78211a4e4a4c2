import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypeScript from 'eslint-config-next/typescript';

const eslintConfig = [
  ...nextCoreWebVitals,
  ...nextTypeScript,
  {
    // Playwright fixtures call their callback `use`, which is not React's hook.
    files: ['tests/e2e/**', 'tests/engines/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    ignores: [
      '.next/**',
      '.next-e2e/**',
      '.next-e2e-next/**',
      '.next-e2e-rebuild/**',
      '.next-load/**',
      '.next-bench/**',
      '.next-bench-logging/**',
      '.next-volume/**',
      '.next-bench-cache/**',
      '.next-ab/**',
      '.bench-app/**',
      'node_modules/**',
      'next-env.d.ts',
      'test-results/**',
      '.test-results/**',
      'playwright-report/**',
      'bench/baseline/.next/**',
      'bench/.baseline-no-proxy/**',
    ],
  },
];

export default eslintConfig;
