#!/usr/bin/env bash
# Install the Debian packages the test suite drives: Chromium for the browser tests,
# PostgreSQL for the second run of the suite, a Noto font that covers Telugu, OpenSSL
# (an independent check of the certificates), Caddy (the app behind a proxy, and two
# instances behind one address) and Redis (the passcode's tries those instances share).
# Run as root (CI is); does nothing when all are present.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s fonts-noto-core >/dev/null 2>&1 || missing+=(fonts-noto-core)
ls -d /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "The tests need these Debian packages: ${missing[*]} (sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
