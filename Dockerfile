# syntax=docker/dockerfile:1
# Youju in a container: build in one stage, run the built program with production dependencies only,
# as an unprivileged user, with every piece of state in the /data volume. See README.md
# ("Production").

# ---- build: install everything, compile the server and the web client --------------------------
FROM node:20-bookworm-slim AS build
# better-sqlite3 compiles its native module when no prebuilt one can be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
# npm install rather than npm ci: the lock file omits optional platform packages the registry
# lacks (see .ci/run), which npm ci would call out of sync.
RUN npm install --no-audit --no-fund
COPY . .
# The web client is built with the permission-payload key; run the server with the same
# PERMISSION_KEY (the default when neither is set).
ARG PERMISSION_KEY
RUN PERMISSION_KEY="${PERMISSION_KEY}" node scripts/build.mjs --force \
 && npm prune --omit=dev --no-audit --no-fund
# What runs, gathered in /runtime: the built code, the production dependencies, including the ones
# npm keeps inside a workspace (apps/server/node_modules when two versions of a package are needed).
RUN mkdir -p /runtime/scripts \
 && cp -a package.json package-lock.json CHANGELOG.md node_modules /runtime/ \
 && cp scripts/youju.mjs /runtime/scripts/ \
 && for workspace in packages/contract apps/server apps/web; do \
      mkdir -p "/runtime/$workspace" \
      && cp -a "$workspace/package.json" "$workspace/dist" "/runtime/$workspace/" \
      && if [ -d "$workspace/node_modules" ]; then cp -a "$workspace/node_modules" "/runtime/$workspace/"; fi; \
    done

# ---- run: the built program and its production dependencies ------------------------------------
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8080 \
    SMTP_PORT=2525 \
    SUBMISSION_PORT=1587 \
    IMAP_PORT=1143 \
    POP3_PORT=1110
WORKDIR /app
# Unprivileged ports inside the container; the host maps 25, 587, 993… onto them (compose.yaml).
RUN groupadd --system youju \
 && useradd --system --gid youju --home-dir /data --shell /usr/sbin/nologin youju \
 && mkdir -p /data && chown youju:youju /data && chmod 0700 /data
COPY --from=build --chown=root:root /runtime /app
USER youju
VOLUME ["/data"]
# HTTP, HTTPS, ACME HTTP-01, SMTP, submission (STARTTLS and implicit TLS), IMAP(S), POP3(S)
EXPOSE 8080 8443 8880 2525 1587 1465 1143 1993 1110 1995
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) shuts down cleanly within 10 s: give `docker stop` at least 15 (compose.yaml).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=4", "apps/server/dist/server.js"]
