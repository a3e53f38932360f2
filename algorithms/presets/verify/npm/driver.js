'use strict';
// chbench verify-presets driver for the npm systems "npm_hashring" and "npm_memcached".
// Runs the REAL pinned npm packages (hashring 3.2.0, memcached 2.2.2) offline: the memcached
// client is constructed but never used for I/O, so no connection is opened.
//
// usage: node driver.js NODE_PKG_DIR CONFIGS_TSV KEYS_TXT OUT_DIR
//   NODE_PKG_DIR: folder holding node_modules (npm ci --ignore-scripts of ./package-lock.json)
//   writes OUT_DIR/<stem>.tsv for every configs.tsv row whose system column is "npm".
//   replicas.tsv rows of system "npm": HashRing.range(key, R, true), the preference list, as
//   key<TAB>server<TAB>... (chbench map's form).
// Exit codes: 0 ok, 2 missing/wrong packages, 1 any other failure.

const { createRequire } = require('module');
const { die, req, version, keys, rows, replicaRows, servers: parseReplicaServers, writeTsv } =
  require('../verifylib.js').start('npm/driver.js', 'npm');

const PINNED = { hashring: '3.2.0', memcached: '2.2.2' };
for (const [name, want] of Object.entries(PINNED)) version(name, want);
// memcached's own hashring must be the pinned one too (it is deduplicated to the top level).
const HashRing = req('hashring');
const Memcached = req('memcached');
version('hashring', PINNED.hashring, createRequire(req.resolve('memcached/package.json')));

// host:port[:weight] -> {name, weight, explicit}
function parseServers(col) {
  return col.split(',').map((s) => {
    const m = /^(.+:\d+):(\d+)$/.exec(s);
    if (m) return { name: m[1], weight: Number(m[2]), explicit: true };
    return { name: s, weight: 1, explicit: false };
  });
}

for (const row of rows) {
  if (row.options) die(1, `${row.stem}: unexpected options "${row.options}"`);
  const servers = parseServers(row.servers);
  const weighted = servers.some((s) => s.explicit);
  const arg = weighted
    ? Object.fromEntries(servers.map((s) => [s.name, s.weight]))
    : servers.map((s) => s.name);
  if (weighted && Object.keys(arg).join(',') !== servers.map((s) => s.name).join(',')) {
    die(1, `${row.stem}: server order not preserved in the weights object`);
  }
  const argDesc = weighted ? '{name: weight}' : '[names]';

  let ring, client = null, head;
  if (row.preset === 'npm_hashring') {
    ring = new HashRing(arg);
    head = `hashring ${PINNED.hashring} (npm); new HashRing(${argDesc}) with defaults: ` +
      `algorithm ${ring.algorithm}, vnode count ${ring.vnode}, replicas ${ring.replicas}, ` +
      `no default port`;
    if (ring.defaultport !== null) die(1, 'hashring default port unexpectedly set');
  } else if (row.preset === 'npm_memcached') {
    client = new Memcached(arg);
    ring = client.HashRing;
    head = `memcached ${PINNED.memcached} client (npm) using hashring ${PINNED.hashring}; ` +
      `new Memcached(${argDesc}) defaults: algorithm ${client.algorithm}, ` +
      `compatibility ${client.compatibility}, default port ${ring.defaultport} ` +
      `(host-i vnode names for port ${ring.defaultport})`;
  } else {
    die(1, `${row.stem}: unknown preset ${row.preset}`);
  }

  const points = ring.points(servers.map((s) => s.name));
  const desc = servers.map((s) => `${s.name} weight=${s.weight} points=${points[s.name].length}`);
  const lookup = client ? 'client.HashRing.get() (no connection opened)' : 'HashRing.get()';
  const header = `${head}; servers [${desc.join(', ')}]; ring points=${ring.ring.length}; ` +
    `lookup=${lookup}; node ${process.version}; key<TAB>server`;
  const out = [];
  const valid = new Set(servers.map((s) => s.name));
  for (const k of keys) {
    const s = ring.get(k);
    if (!valid.has(s)) die(1, `${row.stem}: key ${JSON.stringify(k)} mapped to unknown server ${s}`);
    out.push(`${k}\t${s}`);
  }
  if (client) {
    if (Object.keys(client.connections).length !== 0) die(1, `${row.stem}: a connection was opened`);
  }
  writeTsv(row.stem, header, out);
}
for (const row of replicaRows) {
  if (row.preset !== 'npm_hashring' || row.options || row.remove) {
    die(1, `${row.stem}: only npm_hashring without options or removal`);
  }
  const servers = parseReplicaServers(row.servers);
  const weighted = servers.some((s) => s.explicit);
  const ring = new HashRing(weighted
    ? Object.fromEntries(servers.map((s) => [s.name, s.weight]))
    : servers.map((s) => s.name));
  const r = Number(row.replicas);
  const points = ring.points(servers.map((s) => s.name));
  const desc = servers.map((s) => `${s.name} weight=${s.weight} points=${points[s.name].length}`);
  const header = `hashring ${PINNED.hashring} (npm); new HashRing(${weighted ? '{name: weight}' : '[names]'}) ` +
    `with defaults; servers [${desc.join(', ')}]; ring points=${ring.ring.length}; ` +
    `range(key, ${r}, true) (unique: distinct servers, clockwise from the first point >= the key ` +
    `hash, one lap); node ${process.version}; key<TAB>server<TAB>...`;
  const out = [];
  for (const k of keys) {
    const list = ring.range(k, r, true);
    if (list.length !== Math.min(r, servers.length)) die(1, `${row.stem}: ${list.length} servers for ${JSON.stringify(k)}`);
    out.push(`${k}\t${list.join('\t')}`);
  }
  writeTsv(row.stem, header, out);
}
// No process.exit(): the script must end by itself (no sockets or timers left open).
