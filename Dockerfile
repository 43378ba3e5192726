# Browserdeck's container image (docs/deploy.md, docs/adr/0033-container-image.md).
#
#   docker build -t browserdeck .
#   docker run -p 3000:3000 -v browserdeck-data:/data \
#     --cap-add=SYS_ADMIN --security-opt seccomp=unconfined --security-opt systempaths=unconfined \
#     --security-opt apparmor=unconfined browserdeck
#
# Podman: `podman build --format docker` (the OCI format drops HEALTHCHECK), and
# `--security-opt unmask=ALL` in place of `systempaths=unconfined`. Without those settings the
# server still starts, and its start-up lines name the isolation level and the limits in force.
#
# BASE_IMAGE: any Debian 12 image; deploy/debian-base.sh builds one from Debian's packages.
ARG BASE_IMAGE=debian:bookworm-slim

# --- Node exactly as the repository pins it: the version of the `node` dev dependency in
# package-lock.json, from the npm registry's node-linux-<arch> package (the binary that dependency
# installs), and npm to run `npm ci` with.
# Behind a TLS-inspecting proxy, give its CA as the build secret `extra-ca`
# (`--secret id=extra-ca,src=proxy-ca.pem`): the build stages trust it, the final image does not.
FROM ${BASE_IMAGE} AS node
ARG NPM_VERSION=11.19.1
RUN --mount=type=secret,id=extra-ca \
  apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates curl \
  && rm -rf /var/lib/apt/lists/* \
  && if [ -s /run/secrets/extra-ca ]; then \
    cp /run/secrets/extra-ca /usr/local/share/ca-certificates/extra-ca.crt && update-ca-certificates; \
  fi
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
COPY package-lock.json /tmp/package-lock.json
# Each tarball is checked against the registry's sha512 integrity for it before it is unpacked.
RUN set -eu; \
  version=$(sed -n '/^    "node_modules\/node": {/,/^    }/ s/^      "version": "\([0-9.]*\)".*/\1/p' /tmp/package-lock.json); \
  test -n "$version"; \
  case "$(uname -m)" in \
    x86_64) arch=x64 ;; \
    aarch64) arch=arm64 ;; \
    *) echo "no node-linux build for $(uname -m)" >&2; exit 1 ;; \
  esac; \
  fetch() { \
    want=$(curl -fsSL "https://registry.npmjs.org/$1/$2" | sed -n 's/.*"integrity" *: *"\(sha512-[^"]*\)".*/\1/p'); \
    curl -fsSL -o "/tmp/$1.tgz" "https://registry.npmjs.org/$1/-/$1-$2.tgz"; \
    got="sha512-$(openssl dgst -sha512 -binary "/tmp/$1.tgz" | base64 -w0)"; \
    if [ -z "$want" ] || [ "$got" != "$want" ]; then echo "$1@$2: integrity $got, the registry says ${want:-nothing}" >&2; exit 1; fi; \
  }; \
  fetch "node-linux-$arch" "$version"; \
  fetch npm "$NPM_VERSION"; \
  mkdir -p /opt/node /opt/npm; \
  tar -xzf "/tmp/node-linux-$arch.tgz" -C /opt/node --strip-components=1 package/bin/node package/LICENSE; \
  tar -xzf /tmp/npm.tgz -C /opt/npm --strip-components=1; \
  rm /tmp/*.tgz; \
  ln -s /opt/npm/bin/npm-cli.js /opt/node/bin/npm; \
  /opt/node/bin/node --version
ENV PATH=/opt/node/bin:$PATH

# --- The workspace manifests, alone, so that the dependency layers below are rebuilt only when
# they or the lockfile change (a new workspace must be listed here: `npm ci` refuses a lockfile
# that names a workspace it cannot find).
FROM node AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/adapters/package.json packages/adapters/
COPY packages/console/package.json packages/console/
COPY packages/testing/package.json packages/testing/
COPY examples/server/package.json examples/server/
COPY examples/embedded/package.json examples/embedded/

# --- What the server runs on: the server workspace's production dependencies, install scripts off
# (none is needed; the `node` one would fetch a second Node). The npm package's Chromium binary
# goes: the image runs Debian's.
FROM manifests AS deps
RUN --mount=type=cache,target=/root/.npm \
  npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w @browserdeck/example-server \
  && rm -rf node_modules/@sparticuz/chromium/bin node_modules/.cache

# --- The console, built with every workspace's dependencies.
FROM manifests AS console
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build -w @browserdeck/console

# --- What runs: Debian's Chromium headless shell and its paired chromedriver, bubblewrap for the
# browsers' isolation, ffmpeg for recordings, tini as PID 1.
FROM ${BASE_IMAGE}
RUN apt-get update \
  && apt-get install -y --no-install-recommends \
    ca-certificates chromium-headless-shell chromium-driver bubblewrap ffmpeg tini \
    fonts-liberation fonts-noto-color-emoji \
  && apt-get clean \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log \
  && useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --user-group browserdeck-browser
COPY --from=node /opt/node/bin/node /usr/local/bin/node
WORKDIR /app
COPY --from=deps /app ./
COPY . .
COPY --from=console /app/packages/console/dist packages/console/dist
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data \
  SHUTDOWN_GRACE_SEC=8 \
  CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell \
  CHROMEDRIVER_PATH=/usr/bin/chromedriver
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "./examples/server/src/checkNode.mjs", "--conditions=source", "examples/server/src/main.ts"]
