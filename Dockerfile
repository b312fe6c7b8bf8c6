# One image with one compiled binary that carries its assets and migrations.
FROM oven/bun:1.4.5 AS build
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build:binary

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin csa \
  && mkdir -p /data && chown csa:csa /data
COPY --from=build /app/dist/csa /usr/local/bin/csa
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0 \
    SHUTDOWN_GRACE_MS=25000
VOLUME ["/data"]
EXPOSE 3000
USER csa
# SIGTERM drains requests in flight (a charge waiting on Square) and the running job for up to
# SHUTDOWN_GRACE_MS. Docker's stop timeout must be longer: `docker run --stop-timeout 30`, or
# `stop_grace_period: 30s` in compose (Docker's default of 10 s would cut the drain short).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=3s CMD ["/usr/local/bin/csa", "--healthcheck"]
CMD ["/usr/local/bin/csa"]
