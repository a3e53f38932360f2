'use strict';
// verifylib.js: shared by the node drivers of make verify-presets (npm/driver.js,
// cassandra/driver.js), loaded with require('../verifylib.js'). No network access.
//
// const vl = require('../verifylib.js').start('npm/driver.js', 'npm');
//   parses argv (NODE_PKG_DIR CONFIGS_TSV KEYS_TXT OUT_DIR) and returns
//   { die(code, msg), req (require() rooted at NODE_PKG_DIR), version(pkg, want, hint),
//     keys, rows (configs.tsv rows of the system, objects keyed by the header),
//     replicaRows (replicas.tsv rows of the system, beside configs.tsv),
//     servers(row) (a replicas.tsv row's servers: [{name, weight, location, explicit}]),
//     writeTsv(stem, header, lines) }.

const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

function readKeys(p) {
  const lines = fs.readFileSync(p, 'utf8').split('\n');
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

// A topology file (algorithms/topology.h): [{name, weight, location}], '#' lines skipped.
function readTopology(p) {
  const out = [];
  for (const line of fs.readFileSync(p, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const f = line.split('\t');
    if (f.length !== 3) throw new Error(`${p}: bad line ${JSON.stringify(line)}`);
    out.push({ name: f[0], weight: Number(f[1]), location: f[2] });
  }
  return out;
}

// host:port[:weight],... or topology:<file> (verify/topologies/<file>) ->
// [{name, weight, location, explicit (a weight was given)}].
function parseServers(col) {
  if (col.startsWith('topology:')) {
    return readTopology(path.join(__dirname, 'topologies', col.slice('topology:'.length)))
      .map((n) => ({ ...n, explicit: true }));
  }
  return col.split(',').map((s) => {
    const m = /^(.+:\d+):(\d+)$/.exec(s);
    if (m) return { name: m[1], weight: Number(m[2]), location: '', explicit: true };
    return { name: s, weight: 1, location: '', explicit: false };
  });
}

function start(name, system) {
  const die = (code, msg) => {
    process.stderr.write(name + ': ' + msg + '\n');
    process.exit(code);
  };
  const [pkgDir, configsPath, keysPath, outDir] = process.argv.slice(2);
  if (!outDir) die(1, 'usage: node driver.js NODE_PKG_DIR CONFIGS_TSV KEYS_TXT OUT_DIR');
  const req = createRequire(path.join(path.resolve(pkgDir), 'package.json'));
  // version(pkg, want): the installed version of npm package PKG, which must be WANT (exit 2).
  const version = (pkg, want, r = req) => {
    let got;
    try {
      got = JSON.parse(fs.readFileSync(r.resolve(pkg + '/package.json'), 'utf8')).version;
    } catch (e) {
      die(2, `missing npm package ${pkg}@${want} under ${pkgDir}/node_modules (npm ci --ignore-scripts there)`);
    }
    if (got !== want) die(2, `npm package ${pkg} is ${got}, expected pinned ${want}`);
    return got;
  };
  const rows = readConfigs(configsPath, system);
  if (rows.length === 0) die(1, `no configs.tsv rows with system "${system}"`);
  const replicasPath = path.join(path.dirname(configsPath), 'replicas.tsv');
  const replicaRows = fs.existsSync(replicasPath) ? readConfigs(replicasPath, system) : [];
  // header without '# ' and newline; lines without newlines. Written under a temporary
  // name and renamed: no partial file.
  const writeTsv = (stem, header, lines) => {
    const file = path.join(outDir, stem + '.tsv');
    fs.writeFileSync(file + '.part', ['# ' + header, ...lines].join('\n') + '\n');
    fs.renameSync(file + '.part', file);
  };
  return {
    die, req, version, keys: readKeys(keysPath), rows, replicaRows, servers: parseServers,
    writeTsv,
  };
}

module.exports = { start, readKeys, readConfigs, readTopology, parseServers };
