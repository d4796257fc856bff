# syntax=docker/dockerfile:1
# The portal's image (deploy/README.md, docs/decisions/0140). Built once; the same image runs every
# process: `npm start` (a web process, the default), `npm run worker` (the background jobs) and
# `npm run db:migrate` (the release step, before new web processes start). Only what CI already runs:
# `npm ci`, `npm run build`, `npm ci --omit=dev` (the production install of
# scripts/check-production-install.mjs: the sources, build/, server-build/, public/widgets/).
ARG NODE_IMAGE=node:20-bookworm-slim

# The production packages alone: no tsx, no esbuild, no Vite in the image that runs.
FROM ${NODE_IMAGE} AS production-packages
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# The build, with the development packages; nothing of this stage but its output is kept.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
	PORT=3000 \
	HOST=0.0.0.0 \
	DATA_DIR=/app/data \
	NPM_CONFIG_UPDATE_NOTIFIER=false \
	NPM_CONFIG_FUND=false
# Sources first (the scripts, locales, SQL migrations the build reads at run time), then the packages
# and the build over them; owned by root and read-only to the portal, which writes only to DATA_DIR.
COPY . .
COPY --from=production-packages /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/server-build ./server-build
COPY --from=build /app/public/widgets ./public/widgets
RUN mkdir -p /app/data && chown node:node /app/data
# The official image's unprivileged user (uid 1000).
USER node
EXPOSE 3000
# The release step and the worker are the same image with another command:
#   docker run … autohub npm run db:migrate
#   docker run … autohub npm run worker
CMD ["npm", "start"]
