# Checkline: the server and its web UI in one image (docs/deployment.md).
# Node 20 and pnpm 10 from npm; the TypeScript sources run through tsx, as `pnpm start` runs them.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm install --global pnpm@10.34.9
# The git hook installer has no repository to hook into here.
ENV SKIP_INSTALL_SIMPLE_GIT_HOOKS=1
COPY . .
RUN pnpm install --frozen-lockfile
RUN pnpm build:web
RUN pnpm prune --prod

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    WEB_DIST_DIR=/app/apps/web/dist
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
# The process is up; /readyz (the database answers) is for the load balancer.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "apps/server/src/main.ts", "start"]
