# The service image: `npm start` (API, plus a worker unless RUN_WORKER=false) by default,
# `npm run worker` for a worker-only process. See temporal/docker-compose.yml.
FROM node:20-bookworm-slim

WORKDIR /app

# Installed the way README says, with the committed lock file: npm install, not npm ci, which
# refuses lock files written on this registry (they omit other platforms' optional binaries:
# FACTS.md, .ci/run). package.json's allowScripts says which dependencies' install scripts run.
# The postinstall generates the Prisma client, so the schema and its config come first; this
# layer is rebuilt only when dependencies or the schema change. The embedded Temporal server is a
# workspace (temporal/server): the install needs its package.json, and runs its postinstall (which
# installs nothing here: the UI app's sources come later).
COPY package.json package-lock.json prisma.config.ts ./
COPY temporal/server/package.json temporal/server/install-ui.mjs ./temporal/server/
COPY scripts ./scripts
COPY prisma ./prisma
RUN npm install --no-audit --no-fund && npm cache clean --force

COPY . .
# The compiled service, the compiled Temporal server package and the workflow bundle
# (scripts/build.mjs): npm start only checks them, and the node user could not write dist/. The
# Temporal UI's packages are not installed: the image runs against a Temporal cluster and its own
# UI (temporal/docker-compose.yml).
RUN node scripts/build.mjs
# The console (docs/console.md): its packages and its build, for the same reason (npm start only
# checks the stamp). Its node_modules is dropped after the build: the service serves console/dist.
RUN node scripts/install-console.mjs && node scripts/build-console.mjs && rm -rf console/node_modules

# The data directory holds generated TLS keys and other local state; the node user must own it.
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=8443
RUN mkdir -p /data && chown -R node:node /data
USER node

EXPOSE 8443
CMD ["npm", "start"]
