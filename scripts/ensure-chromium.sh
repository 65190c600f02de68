#!/usr/bin/env bash
# The /api/docs test renders the reference in Debian's chromium (driven by playwright-core):
# installs it when it is missing, so the test command works on a fresh machine.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
sudo_if_needed=$([ "$(id -u)" -eq 0 ] || echo sudo)
echo "test: installing Debian's chromium for the /api/docs rendering test"
$sudo_if_needed apt-get update -qq && $sudo_if_needed apt-get install -y -qq chromium >/dev/null
