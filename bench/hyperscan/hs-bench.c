/*
 * Hyperscan as a reference for `npm run bench` (bench/hyperscan.ts builds and drives it).
 *
 *   hs-bench DB_FILE... -- BODY_FILE...
 *
 * Each DB_FILE holds one pattern a line, `FLAGS<TAB>PATTERN`, FLAGS a string of letters (`-` for none):
 * `i` caseless, `u` UTF-8, `s` dot-all, `m` multi-line. Every pattern is first compiled alone, with
 * HS_FLAG_SOM_LEFTMOST (start of match reported, as a scanner that redacts needs it) and, if Hyperscan
 * refuses that, without; a pattern it refuses both ways is left out and named. The accepted ones make
 * one block-mode database per file. Then the bodies are read into memory, and the program answers
 * commands on stdin, one a line, so the caller can interleave it with its own measurements:
 *
 *   scan DB BODY PASSES   ->  scan DB BODY PASSES BYTES MATCHES CPU_NS WALL_NS
 *
 * CPU_NS is this process's CPU time (CLOCK_PROCESS_CPUTIME_ID) over the PASSES scans of the body and
 * nothing else: compiling, reading files and talking on the pipe are outside it. MATCHES counts every
 * match callback of one pass (Hyperscan reports each end offset of each pattern). Start-up lines:
 *
 *   db DB PATTERNS ACCEPTED SOM_ACCEPTED COMPILE_MS
 *   reject DB INDEX MESSAGE          (a pattern Hyperscan refused; INDEX counts from 0 in its file)
 *   nosom DB INDEX MESSAGE           (accepted only without start of match)
 *   body BODY BYTES
 *   ready
 *
 * Errors go to stderr with exit code 2. Hyperscan's API as documented at
 * https://intel.github.io/hyperscan/dev-reference/ (hs_compile_multi, hs_scan, hs_alloc_scratch).
 */
#define _POSIX_C_SOURCE 200809L
#include <hs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define kMaxDbs 8
#define kMaxBodies 64

struct pattern {
  char *expr;
  unsigned flags;
};

struct db {
  hs_database_t *db;
};

struct body {
  char *bytes;
  size_t len;
};

static void die(const char *what, const char *detail) {
  fprintf(stderr, "hs-bench: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(2);
}

static unsigned long long now_ns(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static unsigned parse_flags(const char *s) {
  unsigned f = 0;
  for (; *s; s++) {
    if (*s == 'i') f |= HS_FLAG_CASELESS;
    else if (*s == 'u') f |= HS_FLAG_UTF8;
    else if (*s == 's') f |= HS_FLAG_DOTALL;
    else if (*s == 'm') f |= HS_FLAG_MULTILINE;
  }
  return f;
}

/* Reads `path` whole; returns its bytes (NUL-terminated) and sets *len. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) die("cannot open", path);
  if (fseek(f, 0, SEEK_END) != 0) die("cannot seek", path);
  long n = ftell(f);
  if (n < 0) die("cannot tell", path);
  rewind(f);
  char *buf = malloc((size_t)n + 1);
  if (!buf) die("out of memory", path);
  if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) die("cannot read", path);
  buf[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* Splits a pattern file into patterns; returns their count. */
static size_t parse_patterns(char *text, struct pattern **out) {
  size_t cap = 16, n = 0;
  struct pattern *ps = malloc(cap * sizeof *ps);
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    char *tab = strchr(line, '\t');
    if (!tab) die("pattern line without a tab", line);
    *tab = '\0';
    if (n == cap) ps = realloc(ps, (cap *= 2) * sizeof *ps);
    ps[n].flags = parse_flags(line);
    ps[n].expr = tab + 1;
    n++;
  }
  *out = ps;
  return n;
}

/* Compiles one pattern alone with `flags`; returns 1 when Hyperscan accepts it, else 0 and *msg. */
static int accepts(const char *expr, unsigned flags, char *msg, size_t msglen) {
  hs_database_t *db = NULL;
  hs_compile_error_t *err = NULL;
  if (hs_compile(expr, flags, HS_MODE_BLOCK, NULL, &db, &err) == HS_SUCCESS) {
    hs_free_database(db);
    return 1;
  }
  snprintf(msg, msglen, "%s", err && err->message ? err->message : "unknown error");
  hs_free_compile_error(err);
  return 0;
}

static hs_database_t *compile_file(int index, const char *path) {
  size_t len;
  char *text = read_file(path, &len);
  struct pattern *ps;
  size_t n = parse_patterns(text, &ps);
  const char **exprs = malloc((n ? n : 1) * sizeof *exprs);
  unsigned *flags = malloc((n ? n : 1) * sizeof *flags);
  unsigned *ids = malloc((n ? n : 1) * sizeof *ids);
  size_t kept = 0, som = 0;
  char msg[512];
  unsigned long long t0 = now_ns(CLOCK_MONOTONIC);
  for (size_t i = 0; i < n; i++) {
    unsigned f = ps[i].flags;
    if (accepts(ps[i].expr, f | HS_FLAG_SOM_LEFTMOST, msg, sizeof msg)) {
      f |= HS_FLAG_SOM_LEFTMOST;
      som++;
    } else if (accepts(ps[i].expr, f, msg, sizeof msg)) {
      /* The first message said why start of match was refused; the second call succeeded. */
      printf("nosom %d %zu %s\n", index, i, msg);
    } else {
      printf("reject %d %zu %s\n", index, i, msg);
      continue;
    }
    exprs[kept] = ps[i].expr;
    flags[kept] = f;
    ids[kept] = (unsigned)i;
    kept++;
  }
  hs_database_t *db = NULL;
  if (kept > 0) {
    hs_compile_error_t *err = NULL;
    if (hs_compile_multi(exprs, flags, ids, (unsigned)kept, HS_MODE_BLOCK, NULL, &db, &err) != HS_SUCCESS) {
      die("hs_compile_multi", err && err->message ? err->message : "unknown error");
    }
  }
  printf("db %d %zu %zu %zu %.1f\n", index, n, kept, som, (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e6);
  free(exprs);
  free(flags);
  free(ids);
  free(ps);
  /* `text` holds the expressions; Hyperscan copied what it needs, but it is small: kept until exit. */
  return db;
}

static int on_match(unsigned id, unsigned long long from, unsigned long long to, unsigned flags, void *ctx) {
  (void)id;
  (void)from;
  (void)to;
  (void)flags;
  ++*(unsigned long long *)ctx;
  return 0; /* go on scanning */
}

int main(int argc, char **argv) {
  if (hs_valid_platform() != HS_SUCCESS) die("this CPU lacks the instructions Hyperscan needs (SSSE3)", NULL);
  struct db dbs[kMaxDbs];
  struct body bodies[kMaxBodies];
  int ndb = 0, nbody = 0, in_bodies = 0;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--") == 0) {
      in_bodies = 1;
    } else if (!in_bodies) {
      if (ndb == kMaxDbs) die("too many pattern files", NULL);
      dbs[ndb].db = compile_file(ndb, argv[a]);
      ndb++;
    } else {
      if (nbody == kMaxBodies) die("too many bodies", NULL);
      bodies[nbody].bytes = read_file(argv[a], &bodies[nbody].len);
      printf("body %d %zu\n", nbody, bodies[nbody].len);
      nbody++;
    }
  }
  hs_scratch_t *scratch = NULL;
  for (int d = 0; d < ndb; d++) {
    if (dbs[d].db && hs_alloc_scratch(dbs[d].db, &scratch) != HS_SUCCESS) die("hs_alloc_scratch", NULL);
  }
  printf("ready\n");
  fflush(stdout);

  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    int d, b, passes;
    if (sscanf(line, "scan %d %d %d", &d, &b, &passes) != 3 || d < 0 || d >= ndb || b < 0 || b >= nbody || passes < 1) {
      die("bad command", line);
    }
    unsigned long long matches = 0;
    unsigned long long w0 = now_ns(CLOCK_MONOTONIC);
    unsigned long long c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    for (int p = 0; p < passes; p++) {
      matches = 0;
      if (dbs[d].db && hs_scan(dbs[d].db, bodies[b].bytes, (unsigned)bodies[b].len, 0, scratch, on_match, &matches) != HS_SUCCESS) {
        die("hs_scan failed", NULL);
      }
    }
    unsigned long long c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    unsigned long long w1 = now_ns(CLOCK_MONOTONIC);
    printf("scan %d %d %d %zu %llu %llu %llu\n", d, b, passes, bodies[b].len, matches, c1 - c0, w1 - w0);
    fflush(stdout);
  }
  hs_free_scratch(scratch);
  for (int d = 0; d < ndb; d++) hs_free_database(dbs[d].db);
  return 0;
}
