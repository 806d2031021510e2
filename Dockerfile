# Production image: builds the app, then runs it with only production dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Installs the embedded PostgreSQL's binaries for this image's platform too (an optional dependency).
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production APP_ENV=production PORT=3000 DATA_DIR=/data STORAGE_URL=file:/data/storage
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/server ./server
COPY --from=build /app/drizzle ./drizzle
RUN mkdir -p /data && chown node:node /data
# Not root: the app, and the embedded PostgreSQL it starts (PostgreSQL refuses to run as root), run as `node`.
USER node
# Without DATABASE_URL the embedded PostgreSQL keeps its cluster in /data/postgres (its password in
# /data/postgres-password), beside the uploads: keep /data on a volume. Set DATABASE_URL to use another
# PostgreSQL instead. SESSION_SECRET is required in production.
VOLUME ["/data"]
EXPOSE 3000
# SIGTERM (docker stop) drains requests and jobs, then stops PostgreSQL cleanly: give it time (--stop-timeout 30).
STOPSIGNAL SIGTERM
# A larger young generation (32 MB semi-spaces): page rendering allocates fast; see docs/decisions/013.
CMD ["node", "--max-semi-space-size=32", "server/start.js"]
