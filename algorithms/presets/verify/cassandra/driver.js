'use strict';
// chbench verify-presets driver for "cassandra": the REAL npm cassandra-driver 4.10.0, offline.
// Murmur3Tokenizer + Metadata.buildTokens() with fake hosts (no Client, no connection) +
// Metadata.getReplicas(null, keyBytes)[0] = the primary replica of the key's token.
// replicas.tsv rows of system "cassandra": a keyspace made by the driver's own schema parser
// (getByVersion(..., [4,0,0])._createKeyspace with SimpleStrategy {replication_factor: R} or
// NetworkTopologyStrategy {dc: rf, ...}), then Metadata.getReplicas('ks', keyBytes): the
// replica list in the driver's order, written as key<TAB>replica<TAB>... (chbench map's form).
//
// usage: node driver.js NODE_PKG_DIR CONFIGS_TSV KEYS_TXT OUT_DIR
// configs.tsv options:
//   tokens=even           one token per server: initial_token_i = i*floor(2^64/N) - 2^63
//   tokens=splitmix64:T   T tokens per server: token_(i,j) = signed64(splitmix64(1000*(i+1)+j))
//                          (splitmix64(x) = first output of SplitMix64 seeded with state x)
// Exit codes: 0 ok, 2 missing/wrong package, 1 any other failure.

const { die, req, version: pinned, keys, rows, replicaRows, servers: parseServers, writeTsv } =
  require('../verifylib.js').start('cassandra/driver.js', 'cassandra');
const PINNED = '4.10.0';
const version = pinned('cassandra-driver', PINNED);
const Metadata = req('cassandra-driver/lib/metadata');
const clientOptions = req('cassandra-driver/lib/client-options');
const schemaParser = req('cassandra-driver/lib/metadata/schema-parser');

const M64 = (1n << 64n) - 1n;
function splitmix64(x) {
  let z = (BigInt(x) + 0x9e3779b97f4a7c15n) & M64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
if (splitmix64(0) !== 0xe220a8397b1dcdafn) die(1, 'splitmix64 self-test failed');
const signed64 = (u) => BigInt.asIntN(64, u);

function tokensFor(option, n) {
  if (option === 'tokens=even') {
    const step = (1n << 64n) / BigInt(n);
    return {
      perServer: Array.from({ length: n }, (_, i) => [BigInt(i) * step - (1n << 63n)]),
      desc: 'num_tokens=1, initial_token_i = i*floor(2^64/N) - 2^63 for i = 0..N-1 in server order',
    };
  }
  const m = /^tokens=splitmix64:(\d+)$/.exec(option);
  if (m) {
    const t = Number(m[1]);
    return {
      perServer: Array.from({ length: n }, (_, i) =>
        Array.from({ length: t }, (_, j) => signed64(splitmix64(1000 * (i + 1) + j)))),
      desc: `num_tokens=${t}, token_(i,j) = signed64(splitmix64(1000*(i+1)+j)), ` +
        `i = 0-based server index, j = 0..${t - 1} (a fixed stand-in for random allocation)`,
    };
  }
  die(1, `unknown options "${option}"`);
}

for (const row of rows) {
  const names = row.servers.split(',');
  for (const s of names) {
    if (/^.+:\d+:\d+$/.test(s)) die(1, `${row.stem}: weights are not supported (${s})`);
  }
  const { perServer, desc } = tokensFor(row.options, names.length);
  const fakeHosts = names.map((name, i) => ({
    address: name,
    datacenter: 'dc1',
    rack: 'rack1',
    tokens: perServer[i].map((t) => t.toString()),
  }));
  const hostMap = { values: () => fakeHosts };

  const meta = new Metadata(clientOptions.defaultOptions(), null);
  meta.setPartitioner('org.apache.cassandra.dht.Murmur3Partitioner');
  if (meta.tokenizer.constructor.name !== 'Murmur3Tokenizer') die(1, 'not a Murmur3Tokenizer');
  meta.buildTokens(hostMap);
  const total = perServer.reduce((a, t) => a + t.length, 0);
  if (!meta.ring || meta.ring.length !== total) {
    die(1, `${row.stem}: ring has ${meta.ring && meta.ring.length} tokens, expected ${total} (duplicate token?)`);
  }

  const serverDesc = names.map((n, i) => `${n} tokens=${perServer[i].join('|')}`).join(', ');
  const header = `cassandra-driver ${version} (npm) Murmur3Tokenizer + Metadata.buildTokens/` +
    `getReplicas(null, key bytes) = primary replica; Murmur3Partitioner; partition key = UTF-8 ` +
    `bytes of the key (single text column); ${desc}; servers [${serverDesc}]; ` +
    `ring tokens=${meta.ring.length}; node ${process.version}; key<TAB>server`;
  const out = [];
  for (const k of keys) {
    const replicas = meta.getReplicas(null, Buffer.from(k, 'utf8'));
    if (!replicas || replicas.length !== 1 || !replicas[0]) die(1, `${row.stem}: no replica for ${JSON.stringify(k)}`);
    out.push(`${k}\t${replicas[0].address}`);
  }
  writeTsv(row.stem, header, out);
}

// replicas.tsv: options tokens=...[,strategy=nts,rf=DC:N/DC:N]; R replicas; remove = a host
// left out after its tokens were assigned (the others keep theirs).
for (const row of replicaRows) {
  const opts = Object.fromEntries(row.options.split(',').map((kv) => kv.split('=')));
  const all = parseServers(row.servers);
  const r = Number(row.replicas);
  const { perServer, desc } = tokensFor(`tokens=${opts.tokens}`, all.length);
  const hosts = [];
  all.forEach((s, i) => {
    if (s.name === row.remove) return;
    const [dc, rack] = s.location ? s.location.split('/') : ['dc1', 'rack1'];
    hosts.push({
      address: s.name, datacenter: dc, rack: rack || '',
      tokens: perServer[i].map((t) => t.toString()),
    });
  });
  if (row.remove && hosts.length !== all.length - 1) die(1, `${row.stem}: no host ${row.remove}`);
  let strategy, replication;
  if (opts.strategy === 'nts') {
    strategy = 'org.apache.cassandra.locator.NetworkTopologyStrategy';
    replication = Object.fromEntries(opts.rf.split('/').map((x) => {
      const i = x.lastIndexOf(':');
      return [x.slice(0, i), x.slice(i + 1)];
    }));
    const sum = Object.values(replication).reduce((a, v) => a + Number(v), 0);
    if (sum !== r) die(1, `${row.stem}: replicas ${r} is not the sum of rf ${opts.rf}`);
  } else {
    strategy = 'org.apache.cassandra.locator.SimpleStrategy';
    replication = { replication_factor: String(r) };
  }
  const meta = new Metadata(clientOptions.defaultOptions(), null);
  meta.setPartitioner('org.apache.cassandra.dht.Murmur3Partitioner');
  meta.buildTokens({ values: () => hosts });
  const parser = schemaParser.getByVersion(clientOptions.defaultOptions(), null, null, [4, 0, 0]);
  meta.keyspaces.ks = parser._createKeyspace('ks', true, strategy, replication);

  const hostDesc = hosts.map((h) => `${h.address} dc=${h.datacenter} rack=${h.rack} ` +
    `tokens=${h.tokens.join('|')}`).join('; ');
  const header = `cassandra-driver ${version} (npm) Metadata.getReplicas('ks', key bytes), ` +
    `keyspace from schema-parser getByVersion([4,0,0])._createKeyspace('ks', true, ` +
    `'${strategy}', ${JSON.stringify(replication)}); Murmur3Partitioner; ${desc}` +
    `${row.remove ? `; ${row.remove} removed after token assignment` : ''}; hosts [${hostDesc}]; ` +
    `ring tokens=${meta.ring.length}; order as getReplicas returns it; node ${process.version}; ` +
    'key<TAB>replica<TAB>...';
  const out = [];
  for (const k of keys) {
    const replicas = meta.getReplicas('ks', Buffer.from(k, 'utf8'));
    if (!replicas || replicas.length === 0) die(1, `${row.stem}: no replicas for ${JSON.stringify(k)}`);
    out.push(`${k}\t${replicas.map((h) => h.address).join('\t')}`);
  }
  writeTsv(row.stem, header, out);
}
