# The production image: the standalone server (`npm run build`) on the Node.js release in .nvmrc, as a non-root user.
# docker build --build-arg BUILD_ID=$(git rev-parse HEAD) --build-arg NEXT_PUBLIC_SENTRY_DSN=… -t web-foundation .
# docker run -p 3000:3000 -e SENTRY_DSN=… web-foundation
# The app's migrations, when it has them, before the image serves: docker run --rm -e DATABASE_URL=… web-foundation
# node scripts/migrate.mjs (docs/deployment.md, "Migrations"; the build put them in the standalone directory).

# Keep NODE_VERSION equal to .nvmrc (tests/unit/node-version.test.ts checks it).
ARG NODE_VERSION=26.10.0
FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
# Build-time values: the build's name (there is no .git in the image) and what the browser bundle inlines.
ARG BUILD_ID
ARG NEXT_PUBLIC_SENTRY_DSN=
ARG NEXT_PUBLIC_SENTRY_ENVIRONMENT=production
ARG SENTRY_RELEASE=
ENV BUILD_ID=$BUILD_ID NEXT_PUBLIC_SENTRY_DSN=$NEXT_PUBLIC_SENTRY_DSN \
    NEXT_PUBLIC_SENTRY_ENVIRONMENT=$NEXT_PUBLIC_SENTRY_ENVIRONMENT SENTRY_RELEASE=$SENTRY_RELEASE \
    NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
# The foundation's packages are workspaces of the app: npm links them, and installs their dependencies, from their
# manifests (the tests' harness too: the apps name it in their devDependencies).
COPY packages/foundation/package.json packages/foundation/
COPY packages/testing/package.json packages/testing/
# The foundation's bin, `web-foundation`, which `npm run build` runs: npm links a bin only if its file is there then.
COPY packages/foundation/scripts/cli.mjs packages/foundation/scripts/
COPY apps/web/package.json apps/web/
COPY apps/guide/package.json apps/guide/
COPY apps/reference/package.json apps/reference/
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:${NODE_VERSION}-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
COPY --from=build --chown=node:node /app/apps/web/.next/standalone ./
# The standalone directory keeps the repository's layout: the server is at the app's path in it.
WORKDIR /app/apps/web
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The preload drains on SIGTERM and exits 0 (packages/foundation/src/server/preload.mts); give it
# SHUTDOWN_DRAIN_SECONDS + timeout.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "./packages/foundation/src/server/preload.mts", "server.js"]
