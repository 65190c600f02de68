#!/usr/bin/env bash
# The browser tests (/api/docs, the e-mail layout) drive Debian's chromium through playwright-core;
# `.ci/run` installs it here when it is missing. `pnpm test` installs nothing: without chromium
# those tests fail saying what to install.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
sudo_if_needed=$([ "$(id -u)" -eq 0 ] || echo sudo)
echo "ci: installing Debian's chromium for the browser tests"
$sudo_if_needed apt-get update -qq && $sudo_if_needed apt-get install -y -qq chromium >/dev/null
