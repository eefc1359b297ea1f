#!/usr/bin/env bash
# Brings up the real Neo4j and Redis that scopegraph runs on, without Docker:
#   Neo4j Community resolved from Maven Central with the machine's Maven (jars cached in ~/.m2),
#   Redis from Debian's redis-server package.
# Usage: scripts/services.sh up|down|status|reset|neo4j-up|neo4j-down
# (neo4j-up / neo4j-down: Neo4j alone; with SCOPEGRAPH_SERVICES_DIR, ports and NEO4J_PASSWORD in the
# environment they run a separate instance, as the outage tests do.)
# When NEO4J_URI (or REDIS_URL) is set in the environment or in .env, that service is external and
# nothing is started for it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVICES_DIR="${SCOPEGRAPH_SERVICES_DIR:-$ROOT/.services}"
ENV_FILE="$ROOT/.env"

# Newest Neo4j that runs on an installed JDK (2026.x needs Java 21+); 5.26 LTS runs on Java 17.
NEO4J_CURRENT="2026.08.1"
NEO4J_LTS="5.26.30"
READY_TIMEOUT_S="${SERVICES_READY_TIMEOUT_S:-180}"

log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

# Reads KEY from the environment first, then from .env (never printed).
env_value() {
  local key="$1"
  if [ -n "${!key:-}" ]; then printf '%s' "${!key}"; return; fi
  [ -f "$ENV_FILE" ] || return 0
  { grep -E "^${key}=" "$ENV_FILE" || true; } | tail -n 1 | cut -d= -f2- | sed -e 's/^"//' -e 's/"$//'
}

set_env_value() {
  local key="$1" value="$2"
  touch "$ENV_FILE"; chmod 600 "$ENV_FILE"
  if grep -qE "^${key}=" "$ENV_FILE"; then
    local tmp; tmp="$(mktemp)"; grep -vE "^${key}=" "$ENV_FILE" > "$tmp" || true; cat "$tmp" > "$ENV_FILE"; rm -f "$tmp"
  fi
  printf '%s=%s\n' "$key" "$value" >> "$ENV_FILE"
}

# Ports and memory: environment first, then .env, then defaults.
NEO4J_BOLT_PORT="$(env_value NEO4J_BOLT_PORT)"; NEO4J_BOLT_PORT="${NEO4J_BOLT_PORT:-7687}"
NEO4J_HTTP_PORT="$(env_value NEO4J_HTTP_PORT)"; NEO4J_HTTP_PORT="${NEO4J_HTTP_PORT:-7474}"
NEO4J_HEAP="$(env_value NEO4J_HEAP)"; NEO4J_HEAP="${NEO4J_HEAP:-1g}"
NEO4J_PAGECACHE="$(env_value NEO4J_PAGECACHE)"; NEO4J_PAGECACHE="${NEO4J_PAGECACHE:-512m}"
# Memory one transaction may hold: a query past it fails alone instead of exhausting the heap that every
# other query shares. Index writes are batched far below it.
NEO4J_TX_MEMORY_MAX="$(env_value NEO4J_TX_MEMORY_MAX)"; NEO4J_TX_MEMORY_MAX="${NEO4J_TX_MEMORY_MAX:-256m}"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# ---------- Java / Maven ----------
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = \([0-9]*\).*/\1/p' | head -n 1; }

# Prints "JAVA_HOME MAJOR" of the newest JDK found (JAVA_HOME, /usr/lib/jvm/*, java on PATH).
find_java() {
  local best="" best_major=0 cand major
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for d in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do [ -x "$d/bin/java" ] && candidates+=("$d"); done
  if command -v java >/dev/null 2>&1; then candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"); fi
  for cand in "${candidates[@]}"; do
    [ -x "$cand/bin/java" ] || continue
    major="$(java_major "$cand")"; [ -n "$major" ] || continue
    if [ "$major" -gt "$best_major" ]; then best="$cand"; best_major="$major"; fi
  done
  [ -n "$best" ] && printf '%s %s\n' "$best" "$best_major"
}

choose_neo4j() {
  local found; found="$(find_java)" || true
  [ -n "$found" ] || die "no Java found. Neo4j needs a JDK: Java 21+ for Neo4j $NEO4J_CURRENT or Java 17 for $NEO4J_LTS (Debian: apt-get install openjdk-17-jdk-headless)."
  JAVA_DIR="${found% *}"; JAVA_MAJOR="${found#* }"
  if [ -n "${NEO4J_VERSION:-}" ]; then return; fi
  if [ "$JAVA_MAJOR" -ge 21 ]; then NEO4J_VERSION="$NEO4J_CURRENT"
  elif [ "$JAVA_MAJOR" -ge 17 ]; then NEO4J_VERSION="$NEO4J_LTS"
  else die "Java $JAVA_MAJOR at $JAVA_DIR is too old: Neo4j needs Java 17+ (21+ for $NEO4J_CURRENT)."; fi
}

fetch_neo4j() {
  NEO4J_LIB="$SERVICES_DIR/neo4j/dist/$NEO4J_VERSION/lib"
  if [ -f "$NEO4J_LIB/.complete" ]; then return; fi
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is missing: it fetches Neo4j from Maven Central. Debian: apt-get install maven."
  log "fetching Neo4j Community $NEO4J_VERSION with Maven (cached in ~/.m2) ..."
  rm -rf "$NEO4J_LIB"; mkdir -p "$NEO4J_LIB"
  JAVA_HOME="$JAVA_DIR" mvn -q -B -f "$ROOT/scripts/neo4j/pom.xml" dependency:copy-dependencies \
    -Dneo4j.version="$NEO4J_VERSION" -DoutputDirectory="$NEO4J_LIB" -DincludeScope=runtime \
    > "$SERVICES_DIR/neo4j/maven.log" 2>&1 || { tail -n 30 "$SERVICES_DIR/neo4j/maven.log" >&2; die "Maven could not fetch Neo4j $NEO4J_VERSION (log: $SERVICES_DIR/neo4j/maven.log)"; }
  touch "$NEO4J_LIB/.complete"
}

# ---------- Neo4j ----------
neo4j_home() { NEO4J_HOME_DIR="$SERVICES_DIR/neo4j/home"; }

write_neo4j_conf() {
  mkdir -p "$NEO4J_HOME_DIR/conf" "$NEO4J_HOME_DIR/data" "$NEO4J_HOME_DIR/logs" "$NEO4J_HOME_DIR/run" "$NEO4J_HOME_DIR/plugins" "$NEO4J_HOME_DIR/import"
  ln -sfn "$NEO4J_LIB" "$NEO4J_HOME_DIR/lib"
  cat > "$NEO4J_HOME_DIR/conf/neo4j.conf" <<EOF
# Written by scripts/services.sh; edit that script instead.
server.default_listen_address=127.0.0.1
server.default_advertised_address=127.0.0.1
server.bolt.listen_address=127.0.0.1:$NEO4J_BOLT_PORT
server.http.listen_address=127.0.0.1:$NEO4J_HTTP_PORT
server.https.enabled=false
dbms.security.auth_enabled=true
dbms.usage_report.enabled=false
server.memory.heap.initial_size=$NEO4J_HEAP
server.memory.heap.max_size=$NEO4J_HEAP
server.memory.pagecache.size=$NEO4J_PAGECACHE
db.memory.transaction.max=$NEO4J_TX_MEMORY_MAX
db.tx_log.rotation.retention_policy=2 files
server.jvm.additional=--enable-native-access=ALL-UNNAMED
EOF
}

neo4j_cmd() { # runs the neo4j / neo4j-admin entry points that the distribution's shell scripts call
  local main="$1"; shift
  JAVA_HOME="$JAVA_DIR" NEO4J_HOME="$NEO4J_HOME_DIR" NEO4J_CONF="$NEO4J_HOME_DIR/conf" \
    "$JAVA_DIR/bin/java" -cp "$NEO4J_HOME_DIR/lib/*" "$main" "$@"
}

neo4j_pid() { local f="$NEO4J_HOME_DIR/run/neo4j.pid"; [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && cat "$f"; }

neo4j_up() {
  local uri; uri="$(env_value NEO4J_URI)"
  if [ -n "$uri" ]; then log "NEO4J_URI is set ($uri): using that Neo4j, starting none."; return; fi
  choose_neo4j; neo4j_home
  if neo4j_pid >/dev/null; then log "Neo4j already running (pid $(neo4j_pid))."; wait_neo4j; return; fi
  if port_open "$NEO4J_HTTP_PORT" || port_open "$NEO4J_BOLT_PORT"; then
    die "port $NEO4J_HTTP_PORT or $NEO4J_BOLT_PORT is taken by a process scopegraph did not start. Stop it, or point scopegraph at it with NEO4J_URI and NEO4J_PASSWORD, or choose NEO4J_BOLT_PORT/NEO4J_HTTP_PORT."
  fi
  mkdir -p "$SERVICES_DIR/neo4j"
  fetch_neo4j
  write_neo4j_conf
  local password; password="$(env_value NEO4J_PASSWORD)"
  # The initial password only takes effect before the first start, i.e. before the system database exists.
  if [ ! -d "$NEO4J_HOME_DIR/data/databases/system" ]; then
    if [ -z "$password" ]; then
      password="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' | cut -c1-32)"
      set_env_value NEO4J_PASSWORD "$password"
      log "generated a Neo4j password into .env (NEO4J_PASSWORD)."
    fi
    neo4j_cmd org.neo4j.server.startup.Neo4jAdminCommand dbms set-initial-password "$password" > "$NEO4J_HOME_DIR/logs/set-password.log" 2>&1 \
      || { cat "$NEO4J_HOME_DIR/logs/set-password.log" >&2; die "could not set the initial Neo4j password"; }
  elif [ -z "$password" ]; then
    die "Neo4j data exists in $NEO4J_HOME_DIR/data but NEO4J_PASSWORD is not in the environment or .env. Restore it, or wipe the local database with: npm run services:down && bash scripts/services.sh reset"
  fi
  log "starting Neo4j $NEO4J_VERSION (Java $JAVA_MAJOR) on bolt://127.0.0.1:$NEO4J_BOLT_PORT, http://127.0.0.1:$NEO4J_HTTP_PORT ..."
  neo4j_cmd org.neo4j.server.startup.Neo4jCommand start > "$NEO4J_HOME_DIR/logs/start.log" 2>&1 \
    || { cat "$NEO4J_HOME_DIR/logs/start.log" >&2; die "Neo4j did not start (logs: $NEO4J_HOME_DIR/logs)"; }
  wait_neo4j
}

wait_neo4j() {
  local password; password="$(env_value NEO4J_PASSWORD)"
  local deadline=$((SECONDS + READY_TIMEOUT_S))
  until curl -sf -o /dev/null -u "neo4j:$password" -H 'content-type: application/json' \
      -d '{"statement":"RETURN 1"}' "http://127.0.0.1:$NEO4J_HTTP_PORT/db/${NEO4J_DATABASE:-neo4j}/query/v2"; do
    if [ $SECONDS -ge $deadline ]; then
      tail -n 30 "$NEO4J_HOME_DIR/logs/neo4j.log" >&2 2>/dev/null || true
      die "Neo4j was not ready after ${READY_TIMEOUT_S}s (logs: $NEO4J_HOME_DIR/logs)"
    fi
    if ! neo4j_pid >/dev/null; then
      tail -n 30 "$NEO4J_HOME_DIR/logs/neo4j.log" >&2 2>/dev/null || true
      die "Neo4j exited during start-up (logs: $NEO4J_HOME_DIR/logs)"
    fi
    sleep 1
  done
  log "Neo4j ready (Browser: http://127.0.0.1:$NEO4J_HTTP_PORT/browser/)."
}

neo4j_down() {
  [ -n "$(env_value NEO4J_URI)" ] && return 0
  neo4j_home
  if neo4j_pid >/dev/null; then
    choose_neo4j; NEO4J_LIB="$(readlink -f "$NEO4J_HOME_DIR/lib")"
    log "stopping Neo4j (pid $(neo4j_pid)) ..."
    neo4j_cmd org.neo4j.server.startup.Neo4jCommand stop > "$NEO4J_HOME_DIR/logs/stop.log" 2>&1 || kill "$(neo4j_pid)" 2>/dev/null || true
  else
    log "Neo4j is not running."
  fi
}

# ---------- Redis ----------
redis_port() {
  local url; url="$(env_value REDIS_URL)"
  local port; port="$(env_value REDIS_PORT)"
  if [ -n "$url" ]; then echo ""; else echo "${port:-6379}"; fi
}

redis_up() {
  local url; url="$(env_value REDIS_URL)"
  if [ -n "$url" ]; then log "REDIS_URL is set: using that Redis, starting none."; return; fi
  local port; port="$(redis_port)"
  if ! command -v redis-server >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "redis-server is missing and apt-get is not available: install Redis >= 6.2 or set REDIS_URL."
    log "installing Debian's redis-server ..."
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server; } > "$SERVICES_DIR/redis-install.log" 2>&1 \
      || { tail -n 20 "$SERVICES_DIR/redis-install.log" >&2; die "apt-get could not install redis-server"; }
  fi
  local dir="$SERVICES_DIR/redis"; mkdir -p "$dir"
  if redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; then log "Redis already answering on 127.0.0.1:$port."; return; fi
  log "starting Redis on 127.0.0.1:$port ..."
  redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save '' --appendonly no \
    --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" || die "redis-server did not start (log: $dir/redis.log)"
  local deadline=$((SECONDS + 30))
  until redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; do
    [ $SECONDS -ge $deadline ] && die "Redis was not ready after 30s (log: $dir/redis.log)"
    sleep 0.2
  done
  log "Redis ready."
}

redis_down() {
  [ -n "$(env_value REDIS_URL)" ] && return 0
  local pidf="$SERVICES_DIR/redis/redis.pid"
  if [ -f "$pidf" ] && kill -0 "$(cat "$pidf")" 2>/dev/null; then
    local pid; pid="$(cat "$pidf")"
    log "stopping Redis (pid $pid) ..."; kill "$pid"
    # Wait for it to exit: an `up` right after would otherwise find it still answering, start
    # nothing, and be left without Redis a moment later.
    local deadline=$((SECONDS + 15))
    while kill -0 "$pid" 2>/dev/null; do
      [ $SECONDS -ge $deadline ] && die "Redis (pid $pid) did not stop within 15s"
      sleep 0.1
    done
  else
    log "Redis (started by scopegraph) is not running."
  fi
}

status() {
  local uri; uri="$(env_value NEO4J_URI)"
  if [ -n "$uri" ]; then echo "neo4j: external ($uri)"; else
    neo4j_home
    if neo4j_pid >/dev/null; then echo "neo4j: running (pid $(neo4j_pid)) bolt://127.0.0.1:$NEO4J_BOLT_PORT http://127.0.0.1:$NEO4J_HTTP_PORT/browser/"; else echo "neo4j: stopped"; fi
  fi
  if [ -n "$(env_value REDIS_URL)" ]; then echo "redis: external"; else
    local port; port="$(redis_port)"
    if redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; then echo "redis: running 127.0.0.1:$port ($(redis-cli -p "$port" info server | grep redis_version | tr -d '\r'))"; else echo "redis: stopped"; fi
  fi
}

mkdir -p "$SERVICES_DIR"
case "${1:-}" in
  up) redis_up; neo4j_up ;;
  down) neo4j_down; redis_down ;;
  status) status ;;
  neo4j-up) neo4j_up ;;
  neo4j-down) neo4j_down ;;
  reset) neo4j_home; neo4j_pid >/dev/null && die "stop Neo4j first: npm run services:down"; rm -rf "$NEO4J_HOME_DIR/data"; log "local Neo4j data removed." ;;
  *) echo "usage: $0 up|down|status|reset|neo4j-up|neo4j-down" >&2; exit 2 ;;
esac
