#!/usr/bin/env bash
# Starts a throwaway Ceph cluster for tests: one monitor, one memstore OSD and radosgw, all on
# loopback, all state under DIR. Prints "READY <endpoint> <access key> <secret key>" when radosgw
# answers, then waits for its stdin to close (the test process ended, however it ended) or for
# SIGTERM, and stops every daemon it started. Nothing is installed, nothing outside DIR is written.
# While it waits, SIGUSR1 kills radosgw alone with SIGKILL (the monitor and the OSD, which holds the
# buckets and their objects, keep running) and prints "RGW-KILLED"; SIGUSR2 starts radosgw again on
# the same cluster and port and prints "RGW-UP" once it answers (or "RGW-FAIL <why>").
#
#   test/support/ceph-rgw.sh DIR MON_PORT RGW_PORT
set -euo pipefail
dir=$1 mon_port=$2 rgw_port=$3
for bin in ceph-authtool ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph; do
  command -v "$bin" >/dev/null || { echo "FAIL $bin not installed (apt-get install radosgw ceph-mon ceph-osd)"; exit 2; }
done
mkdir -p "$dir"/{run,log,mon-a,osd-0,rgw}
conf=$dir/ceph.conf
fsid=$(cat /proc/sys/kernel/random/uuid)
pids=()
# radosgw apart from the others: it is the one killed and started again.
rgw_pid=''
stop() {
  trap - EXIT TERM INT HUP USR1 USR2
  [ -n "$rgw_pid" ] && pids+=("$rgw_pid")
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  # Give them a moment, then make sure.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    alive=0; for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break; sleep 0.2
  done
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 143' TERM INT HUP

cat >"$conf" <<CONF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
mon initial members = a
public network = 127.0.0.0/8
keyring = $dir/keyring
run dir = $dir/run
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
pid file = $dir/run/\$name.pid
crash dir = $dir/crash
ms bind msgr1 = false
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
osd crush chooseleaf type = 0
[mon.a]
mon data = $dir/mon-a
[osd.0]
osd data = $dir/osd-0
osd objectstore = memstore
memstore device bytes = 1073741824
osd max object name len = 2048
osd max object namespace len = 64
[client.rgw]
rgw data = $dir/rgw
rgw frontends = beast endpoint=127.0.0.1:$rgw_port
rgw dns name = localhost
# The conformance cases use 50-byte parts; the adapter enforces its own minimum before RGW sees them.
rgw multipart min part size = 1
CONF

# One keyring for every entity; the monitor's mkfs imports it, with the caps, into its auth database.
ceph-authtool "$dir/keyring" --create-keyring --gen-key -n mon. --cap mon 'allow *' >/dev/null
ceph-authtool "$dir/keyring" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' >/dev/null
ceph-authtool "$dir/keyring" --gen-key -n osd.0 --cap mon 'allow profile osd' --cap osd 'allow *' >/dev/null
ceph-authtool "$dir/keyring" --gen-key -n client.rgw --cap mon 'allow rw' --cap osd 'allow rwx' >/dev/null
monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null
ceph-mon -c "$conf" -i a --mkfs --monmap "$dir/monmap" --keyring "$dir/keyring"
ceph-mon -c "$conf" -i a -f & pids+=($!)
osd_uuid=$(cat /proc/sys/kernel/random/uuid)
osd_id=$(ceph -c "$conf" --connect-timeout 20 osd new "$osd_uuid")
ceph-osd -c "$conf" -i "$osd_id" --mkfs --osd-uuid "$osd_uuid" 
ceph-osd -c "$conf" -i "$osd_id" -f & pids+=($!)
start_rgw() { radosgw -c "$conf" -n client.rgw -f & rgw_pid=$!; }
start_rgw
access=leakscan$RANDOM$RANDOM secret=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
# The caller bounds the whole start with its own timeout (it kills this process group).
# Any HTTP answer will do (bash's /dev/tcp: no curl needed).
rgw_up() {
  exec 4<>"/dev/tcp/127.0.0.1/$rgw_port" || return 1
  printf 'GET / HTTP/1.0\r\n\r\n' >&4
  local line=''; read -r -t 2 line <&4 || true
  exec 4<&-
  [[ $line == HTTP/* ]]
}
until rgw_up 2>/dev/null; do sleep 0.2; done
radosgw-admin -c "$conf" -n client.admin user create --uid leakscan --display-name leakscan \
  --access-key "$access" --secret-key "$secret" >/dev/null
echo "READY http://127.0.0.1:$rgw_port $access $secret"
# In the background so a TERM runs the trap at once (bash defers traps until a foreground job ends).
exec 3<&0
cat <&3 >/dev/null & watcher=$!
kill_rgw() {
  woken=1
  if [ -n "$rgw_pid" ]; then kill -KILL "$rgw_pid" 2>/dev/null || true; wait "$rgw_pid" 2>/dev/null || true; rgw_pid=''; fi
  echo RGW-KILLED
}
# Bounded, and given up when stdin closes, so a radosgw that never answers cannot keep this alive.
restart_rgw() {
  woken=1
  [ -z "$rgw_pid" ] || { echo 'RGW-FAIL radosgw is running'; return 0; }
  start_rgw
  local i
  for ((i = 0; i < 600; i++)); do
    rgw_up 2>/dev/null && { echo RGW-UP; return 0; }
    kill -0 "$rgw_pid" 2>/dev/null || { echo "RGW-FAIL radosgw exited: $(tail -n 2 "$dir/log/client.rgw.log" 2>/dev/null | tr '\n' ' ')"; rgw_pid=''; return 0; }
    kill -0 "$watcher" 2>/dev/null || return 0
    sleep 0.2
  done
  echo 'RGW-FAIL radosgw did not answer within 120 s'
}
# `|| true`, and `return 0` above: a bare `return` in a trap handler returns the status of the command
# it interrupted (the `wait` below, > 128), which `set -e` would take for a failure.
trap 'kill_rgw || true' USR1
trap 'restart_rgw || true' USR2
# A trapped signal ends `wait` early: wait again, until the watcher itself ends.
while :; do
  woken=0
  wait "$watcher" || true
  [ "$woken" = 1 ] || break
done
