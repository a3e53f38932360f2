'use strict';
// chbench verify-presets driver for the npm systems "npm_hashring" and "npm_memcached".
// Runs the REAL pinned npm packages (hashring 3.2.0, memcached 2.2.2) offline: the memcached
// client is constructed but never used for I/O, so no connection is opened.
//
// usage: node driver.js NODE_PKG_DIR CONFIGS_TSV KEYS_TXT OUT_DIR
//   NODE_PKG_DIR: folder holding node_modules (npm ci --ignore-scripts of ./package-lock.json)
//   writes OUT_DIR/<stem>.tsv for every configs.tsv row whose system column is "npm".
// Exit codes: 0 ok, 2 missing/wrong packages, 1 any other failure.

const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

function die(code, msg) {
  process.stderr.write('npm/driver.js: ' + msg + '\n');
  process.exit(code);
}

const [pkgDir, configsPath, keysPath, outDir] = process.argv.slice(2);
if (!outDir) die(1, 'usage: node driver.js NODE_PKG_DIR CONFIGS_TSV KEYS_TXT OUT_DIR');

const req = createRequire(path.join(path.resolve(pkgDir), 'package.json'));
const PINNED = { hashring: '3.2.0', memcached: '2.2.2' };
for (const [name, want] of Object.entries(PINNED)) {
  let got;
  try {
    got = JSON.parse(fs.readFileSync(req.resolve(name + '/package.json'), 'utf8')).version;
  } catch (e) {
    die(2, `missing npm package ${name}@${want} under ${pkgDir}/node_modules (npm ci --ignore-scripts there)`);
  }
  if (got !== want) die(2, `npm package ${name} is ${got}, expected pinned ${want}`);
}
// memcached's own hashring must be the pinned one too (it is deduplicated to the top level).
const HashRing = req('hashring');
const Memcached = req('memcached');
const memcachedReq = createRequire(req.resolve('memcached/package.json'));
const hrForMemcached = JSON.parse(
  fs.readFileSync(memcachedReq.resolve('hashring/package.json'), 'utf8')).version;
if (hrForMemcached !== PINNED.hashring) die(2, `memcached resolves hashring ${hrForMemcached}`);

function readKeys(p) {
  const text = fs.readFileSync(p, 'utf8');
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function readConfigs(p, system) {
  const rows = [];
  let header = null;
  for (const line of fs.readFileSync(p, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const f = line.split('\t');
    if (!header) { header = f; continue; }
    const r = {};
    header.forEach((h, i) => { r[h] = f[i] === undefined ? '' : f[i]; });
    if (r.system === system) rows.push(r);
  }
  return rows;
}

// host:port[:weight] -> {name, weight, explicit}
function parseServers(col) {
  return col.split(',').map((s) => {
    const m = /^(.+:\d+):(\d+)$/.exec(s);
    if (m) return { name: m[1], weight: Number(m[2]), explicit: true };
    return { name: s, weight: 1, explicit: false };
  });
}

const keys = readKeys(keysPath);
const rows = readConfigs(configsPath, 'npm');
if (rows.length === 0) die(1, 'no configs.tsv rows with system "npm"');

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
  const out = [`# ${head}; servers [${desc.join(', ')}]; ring points=${ring.ring.length}; ` +
    `lookup=${lookup}; node ${process.version}; key<TAB>server`];
  const valid = new Set(servers.map((s) => s.name));
  for (const k of keys) {
    const s = ring.get(k);
    if (!valid.has(s)) die(1, `${row.stem}: key ${JSON.stringify(k)} mapped to unknown server ${s}`);
    out.push(`${k}\t${s}`);
  }
  if (client) {
    if (Object.keys(client.connections).length !== 0) die(1, `${row.stem}: a connection was opened`);
  }
  fs.writeFileSync(path.join(outDir, row.stem + '.tsv'), out.join('\n') + '\n');
}
// No process.exit(): the script must end by itself (no sockets or timers left open).
