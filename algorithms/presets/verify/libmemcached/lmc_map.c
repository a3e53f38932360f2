/* lmc_map: map keys to servers with the real libmemcached (Debian libmemcached-dev).
 *
 * usage: lmc_map MODE SERVERS VERSION_TEXT < keys > out
 *   MODE     ketama   : BEHAVIOR_HASH=MD5, BEHAVIOR_DISTRIBUTION=CONSISTENT_KETAMA
 *            weighted : BEHAVIOR_KETAMA_WEIGHTED=1
 *            default  : BEHAVIOR_KETAMA=1 only (key hash stays one-at-a-time)
 *   SERVERS  comma-separated host:port[:weight], added in order with
 *            memcached_server_add_with_weight (weight 1 when absent)
 * Prints a '#' header line, then key<TAB>host:port per input line, where the
 * server is memcached_generate_hash()'s index into the insertion order.
 * No connection is opened: memcached_generate_hash only consults the continuum.
 */
#include <libmemcached/memcached.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SERVERS 128

/* Layout of libmemcached 1.1.4's private continuum item (src/libmemcached/continuum.hpp):
 * only used to count points per server for the header; checked against
 * ketama.continuum_points_counter below. */
struct continuum_item {
  uint32_t index;
  uint32_t value;
};

static char *labels[MAX_SERVERS];
static unsigned weights[MAX_SERVERS];

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: lmc_map ketama|weighted|default SERVERS VERSION_TEXT < keys\n");
    return 2;
  }
  const char *mode = argv[1];
  memcached_st *mc = memcached_create(NULL);
  if (!mc) { fprintf(stderr, "lmc_map: memcached_create failed\n"); return 1; }

  memcached_return_t rc = MEMCACHED_SUCCESS;
  if (strcmp(mode, "ketama") == 0) {
    rc = memcached_behavior_set(mc, MEMCACHED_BEHAVIOR_HASH, MEMCACHED_HASH_MD5);
    if (rc == MEMCACHED_SUCCESS)
      rc = memcached_behavior_set(mc, MEMCACHED_BEHAVIOR_DISTRIBUTION,
                                  MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA);
  } else if (strcmp(mode, "weighted") == 0) {
    rc = memcached_behavior_set(mc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
  } else if (strcmp(mode, "default") == 0) {
    rc = memcached_behavior_set(mc, MEMCACHED_BEHAVIOR_KETAMA, 1);
  } else {
    fprintf(stderr, "lmc_map: unknown mode %s\n", mode);
    return 2;
  }
  if (rc != MEMCACHED_SUCCESS) {
    fprintf(stderr, "lmc_map: behavior_set: %s\n", memcached_strerror(mc, rc));
    return 1;
  }

  /* Parse and add servers in order. */
  char *list = strdup(argv[2]);
  unsigned n = 0;
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    if (n == MAX_SERVERS) { fprintf(stderr, "lmc_map: too many servers\n"); return 2; }
    char *c1 = strchr(tok, ':');
    if (!c1) { fprintf(stderr, "lmc_map: bad server %s (want host:port[:weight])\n", tok); return 2; }
    char *c2 = strchr(c1 + 1, ':');
    unsigned w = 1;
    if (c2) { w = (unsigned)strtoul(c2 + 1, NULL, 10); *c2 = '\0'; }
    labels[n] = strdup(tok); /* host:port, as written, without the weight */
    weights[n] = w;
    *c1 = '\0';
    in_port_t port = (in_port_t)strtoul(c1 + 1, NULL, 10);
    rc = memcached_server_add_with_weight(mc, tok, port, w);
    if (rc != MEMCACHED_SUCCESS) {
      fprintf(stderr, "lmc_map: server_add_with_weight(%s): %s\n", labels[n], memcached_strerror(mc, rc));
      return 1;
    }
    /* The library keeps insertion order (SORT_HOSTS off): check the instance. */
    const memcached_instance_st *inst = memcached_server_instance_by_position(mc, n);
    char got[300];
    snprintf(got, sizeof got, "%s:%u", memcached_server_name(inst), (unsigned)memcached_server_port(inst));
    if (strcmp(got, labels[n]) != 0) {
      fprintf(stderr, "lmc_map: server %u is %s, expected %s\n", n, got, labels[n]);
      return 1;
    }
    n++;
  }
  if (memcached_server_count(mc) != n) { fprintf(stderr, "lmc_map: server count mismatch\n"); return 1; }

  /* Force the continuum to be built before reading it for the header. */
  (void)memcached_generate_hash(mc, "x", 1);

  unsigned points[MAX_SERVERS] = {0};
  uint32_t total = mc->ketama.continuum_points_counter;
  const struct continuum_item *ci = (const struct continuum_item *)mc->ketama.continuum;
  uint32_t sum = 0;
  for (uint32_t i = 0; ci && i < total; i++) {
    if (ci[i].index >= n) { fprintf(stderr, "lmc_map: unexpected continuum layout\n"); return 1; }
    points[ci[i].index]++;
    sum++;
  }

  printf("# %s; mode=%s; behaviours read back after adding servers: HASH=%llu KETAMA_HASH=%llu "
         "DISTRIBUTION=%llu KETAMA_WEIGHTED=%llu (hash ids: 0=default one-at-a-time, 1=MD5; "
         "distribution ids: 2=CONSISTENT_KETAMA, 5=CONSISTENT_WEIGHTED); servers in insertion order [",
         argv[3], mode,
         (unsigned long long)memcached_behavior_get(mc, MEMCACHED_BEHAVIOR_HASH),
         (unsigned long long)memcached_behavior_get(mc, MEMCACHED_BEHAVIOR_KETAMA_HASH),
         (unsigned long long)memcached_behavior_get(mc, MEMCACHED_BEHAVIOR_DISTRIBUTION),
         (unsigned long long)memcached_behavior_get(mc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED));
  for (unsigned i = 0; i < n; i++)
    printf("%s%s weight=%u points=%u", i ? ", " : "", labels[i], weights[i], points[i]);
  printf("]; continuum points=%u; lookup=memcached_generate_hash(); key\tserver\n", (unsigned)sum);

  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, stdin)) > 0) {
    if (line[len - 1] == '\n') line[--len] = '\0';
    uint32_t idx = memcached_generate_hash(mc, line, (size_t)len);
    if (idx >= n) { fprintf(stderr, "lmc_map: index %u out of range\n", idx); return 1; }
    printf("%s\t%s\n", line, labels[idx]);
  }
  free(line);
  memcached_free(mc);
  return ferror(stdout) ? 1 : 0;
}
