#!/bin/sh
# Runs a command with DDS traffic confined to this machine: inside a private network namespace
# with only loopback up (`unshare -n`, needs root or user namespaces) when possible, else in the
# host namespace. Either way CycloneDDS gets the loopback-only configuration (127.0.0.1, no
# multicast) and the Fast-DDS peers whitelist 127.0.0.1, so no packet goes to another address.
# UBOT_NO_UNSHARE=1 forces the fallback (to test it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CYCLONEDDS_URI="file://$here/../../../config/cyclonedds-loopback.xml"
export CYCLONEDDS_URI
unset ROS_DOMAIN_ID
if [ -z "${UBOT_NO_UNSHARE:-}" ] && unshare -n true 2>/dev/null && command -v ip >/dev/null 2>&1; then
  echo "run_isolated: private network namespace (unshare -n), loopback only"
  exec unshare -n sh -c 'ip link set lo up && exec "$@"' sh "$@"
fi
echo "run_isolated: unshare not permitted; loopback-only DDS configuration in the host namespace"
exec "$@"
