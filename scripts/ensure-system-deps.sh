#!/usr/bin/env bash
# What the tests need from the system, not from npm: Java 17+ (DynamoDB Local) and Debian's Chromium
# (the docs page's browser test). Installs them with apt-get when missing and allowed (root on
# Debian/Ubuntu); otherwise says how, and fails.
set -euo pipefail

missing=()
command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} (needed by the tests)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  exit 0
fi

echo "The tests need: ${missing[*]}." >&2
echo "  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
echo "  (Java 17+ runs DynamoDB Local; /usr/bin/chromium runs the docs page's browser test.)" >&2
exit 1
