# Production image: builds the app, then runs it with only production dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production APP_ENV=production PORT=3000 DATA_DIR=/data STORAGE_DIR=/data/storage
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/server ./server
COPY --from=build /app/drizzle ./drizzle
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# SESSION_SECRET is required in production; set DATABASE_URL for PostgreSQL (PGlite in /data otherwise).
# A larger young generation (32 MB semi-spaces): page rendering allocates fast; see docs/decisions/013.
CMD ["node", "--max-semi-space-size=32", "server/start.js"]
