/*
 * leakscan's prefilter pass in C: the same three state machines as `Prefilter.scan` in
 * src/engine/prefilter.ts (an Aho-Corasick DFA over the rules' keywords, a digit-run tracker with
 * per-separator-set sub-runs, an alphanumeric-token tracker), over the same column bytes, reporting
 * the same trigger events in the same order. The TypeScript class is the specification; the
 * conformance suite (test/engine/prefilter-native.test.ts) runs both over the same inputs and
 * requires identical event sequences.
 *
 * Events are written to a caller's Float64Array as (rule, start, end) triples. A call stops early,
 * before a character whose events might not fit, and reports where it stopped; the caller dispatches
 * the events and calls again from there. State carries across calls exactly as in the TypeScript.
 */
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define K_COLS 128
#define K_DIGIT 1
#define K_LETTER 2
#define K_SEP 4
#define K_KELVIN 0x81
#define K_MAX_RUN_SPAN 256
#define K_LENS (K_MAX_RUN_SPAN + 2)

typedef struct {
  int refs;
  int32_t n_states;
  /*
   * The transitions, one of d16 / d32, stored pre-scaled (see prescale): an entry holds its state's row
   * offset in 8-byte units, row × scale (a row of `width` columns, 2 or 4 bytes each: scale is width / 4
   * in d16, width / 2 in d32), so a step is one load at `table + 8 × entry + column × entry size`: the
   * column part is known ahead, and nothing but the load stays on the chain from one character to the
   * next. The columns are classes of column bytes that every state moves alike on (the bytes of no
   * keyword are one): 64 of them where they fit, else the 128 bytes themselves. Half-width rows halve
   * the cache lines the states in use take.
   */
  uint16_t *d16;
  int32_t *d32;
  int32_t width, scale, scale_shift; /* scale = 1 << scale_shift */
  int32_t first_out;
  /*
   * In the pre-scaled tables the states are renumbered: those before first_out keep their numbers, the
   * output states move up by out_shift to start at out_base, a power of two, so that OR-ing every state
   * a stretch of characters visits tells whether one was an output state (see scan_loop).
   */
  int32_t out_base, out_shift;
  int32_t *depth;
  int32_t *out_start, *out_rule, *out_len;
  uint8_t cls[K_COLS];
  uint8_t sep_bit[K_COLS];
  /* Derived here, per column byte (all 256): its class (cls, 0 past ASCII) and its column in the
     transition table (that of itself, of 'k' for the Kelvin sign, of 0 for the other non-ASCII bytes). */
  uint8_t cls256[256];
  uint8_t col256[256];
  /* Per column byte: 1 for a digit, 2 for a letter (exactly those classes), else 0. */
  uint8_t alnum256[256];
  /* Per column byte: 1 when every state goes to the root on it (it is in no keyword): the state after
     it is known without the states before (see walk). */
  uint8_t reset256[256];
  /* Per column byte, for the blocks (see settle_block): bit 0 a digit, bit 1 a letter or digit, bit 2 a
     separator (each exactly that class, as the one-by-one pass tells them). */
  uint8_t kind256[256];
  /* The blocks' screens: a digit run needs at least run_win characters to reach min_digits digits, a
     token at least tok_win to have a token rule's length (each within 1..64). */
  int32_t run_win, tok_win;
  /* The separators (at most 8), and 1 when none is a letter or digit: the kinds are then those of
     ASCII's letters and digits and these bytes, which classify_block tells 16 at a time. */
  uint8_t seps[8];
  int32_t n_seps, plain_kinds;
  /* Per token length 0 .. max_tok: 1 when some token rule takes that length. */
  uint8_t *tok_has;
  int32_t n_sets;
  uint8_t *set_masks;
  int32_t *set_min, *set_from, *set_idx;
  int32_t n_digit;
  int32_t *d_rule, *d_min;
  double *d_max;
  int32_t min_digits;
  int32_t max_tok;
  int32_t *tok_from, *tok_rule;
  uint8_t *tok_flags; /* bit 0: needs a digit, bit 1: needs a letter */
  int32_t n_tok;
  int32_t max_events_per_char;
  int32_t rule_count;  /* keyword outputs from rule_count on are context words of rule - rule_count */
  double *ctx_within;  /* per rule: its context screen's reach, 0 for none */
  /* Per digit rule, its run shape: `digitFirst`, `digitSides` (skip, count per side: before and after
     the run, before and after the firing sub-run), `digitSideSets` (a 128-column row per side) and
     `digitGroups` (within, first, separator bits, required), as in `PrefilterTables`. */
  uint16_t *d_first;
  uint8_t *d_sides, *d_side_sets;
  int32_t *d_groups;
  /* Derived here: per separator set j and sub-run length c (0..K_MAX_RUN_SPAN), the set's digit rules
     whose [min, max] holds c are len_idx[len_from[j * K_LENS + c] .. len_from[j * K_LENS + c + 1]),
     in the set's (ascending minimum) order. Past the sets, j = n_sets lists every set's rules for c,
     set after set: a run without separators is one sub-run of every set. */
  int32_t *len_from, *len_idx;
  /* The separator set without separators (rules of contiguous digits), -1 if no digit rule has it. */
  int32_t pure_set;
  struct run_memo *memo; /* NULL when the rule set has more digit rules than a byte numbers */
  /* For the cache's keys: bytes every shape treats alike (the same in or out of every side's set, the
     skip character of the same sides) share a class, and so do first digits every rule's `first`
     treats alike; a look is keyed by classes, so hex letters around a run are one look, not sixteen. */
  uint8_t byte_class[256];
  uint8_t first_class[10];
  /* Per rule: the gap within which its keyword hits join (0: reported one by one), the longest joined
     span, and the offset of its `next` columns in next_cols (-1: none); see `PrefilterSpec.joins`. */
  double *join_gap, *join_span;
  int32_t *next_of;
  uint8_t *next_cols;
  int32_t n_joined; /* rules with a join: the most spans open at once */
} tables_t;

/*
 * What a digit run's shapes made of it, by the run's look: its digit count, separators (where and
 * which), first digit, the three characters before it and the two after. The digit rules whose shape
 * one of its sub-runs has, in the order they first do; the context screens, which change as the text
 * goes, are applied to that list each time. Real text repeats a few looks over and over (timestamps,
 * dates, addresses), and working the shapes out again for each run was about a quarter of the native
 * pass on a log. A direct-mapped cache of K_MEMO looks per tables (one thread's), runs of at most
 * K_MEMO_SEPS separators, looks whose runs wake at most K_MEMO_RULES digit rules.
 */
#define K_MEMO 512
#define K_MEMO_SEPS 8
#define K_MEMO_RULES 39
/* One cache line: the look packed in three words (see look_of), then the rules. A look that wakes more
   rules than fit is worked out each time; a rule set of any size keeps the cache for the others. */
struct __attribute__((aligned(64))) run_memo {
  uint64_t key;       /* 0: empty */
  uint64_t sep_at;    /* digits before each separator, one byte each (a run spans at most 256 bytes) */
  uint64_t sep_chars; /* the separators' column bytes */
  uint8_t n;
  uint8_t rules[K_MEMO_RULES];
};

typedef struct {
  tables_t *t;
  int32_t st;
  int64_t pos;
  int64_t run_start, run_end, tok_start;
  int32_t run_digits;
  int run_sep, run_piece, tok_digit, tok_letter;
  /* The separators of the run in progress: digits before each, and its column byte. */
  int32_t sep_at[K_MAX_RUN_SPAN];
  uint8_t sep_chars[K_MAX_RUN_SPAN];
  /* For block shapes: per separator set, the separator that began its current sub-run (-1: the run's
     start); around the sub-run being ended, the separators before and after it (-1: the run's start,
     and its end or a separator after its last digit, which is what the run's end saw). */
  int32_t *sub_sep;
  int32_t block_from, block_to;
  int32_t seps;
  uint32_t gen;
  uint32_t *fired;
  int32_t *sub_start;
  /* While a run is cut into pieces: the digits of the stretch without separators that the last piece
     ended in (see flush_piece). */
  int64_t carry;
  double *ctx_end; /* per rule: where its latest context word ended */
  /* While a run's look is worked out for the cache: where the passing digit rules go (see run_memo). */
  uint8_t *rec;
  int32_t rec_n;
  /* For the run shapes: the run's first digit and the three column bytes before it (nearest lowest;
     -1 until a shape needs them, or the call the run started in ends), the characters after it at its
     flush (its trailing separator, then the next; -1 unseen), and the last three column bytes scanned.
     `cols`, `from` and `off` are the current call's (cols NULL in finish). */
  int32_t run_first, run_before, after1, after2, tail;
  const uint8_t *cols;
  int32_t from;
  int64_t off;
  /* Per joined rule, its open span of keyword hits (start -1: none), and how many are open. */
  int64_t *join_start, *join_end;
  int32_t joins_open;
} state_t;

static void tables_release(tables_t *t) {
  if (--t->refs > 0) return;
  free(t->d16); free(t->d32); free(t->depth); free(t->out_start); free(t->out_rule); free(t->out_len);
  free(t->set_masks); free(t->set_min); free(t->set_from); free(t->set_idx);
  free(t->d_rule); free(t->d_min); free(t->d_max);
  free(t->tok_from); free(t->tok_rule); free(t->tok_flags);
  free(t->ctx_within);
  free(t->d_first); free(t->d_sides); free(t->d_side_sets); free(t->d_groups);
  free(t->len_from); free(t->len_idx); free(t->memo); free(t->tok_has);
  free(t->join_gap); free(t->join_span); free(t->next_of); free(t->next_cols);
  free(t);
}

static void tables_finalize(napi_env env, void *data, void *hint) { (void)env; (void)hint; tables_release((tables_t *)data); }

static void state_finalize(napi_env env, void *data, void *hint) {
  (void)env; (void)hint;
  state_t *s = (state_t *)data;
  tables_release(s->t);
  free(s->fired); free(s->sub_start); free(s->ctx_end); free(s->sub_sep); free(s->join_start); free(s->join_end); free(s);
}

/* ---- argument helpers ---------------------------------------------------------------------- */

/* Type tags: a tables handle passed where a state is expected (or any other external) is refused. */
static const napi_type_tag kTablesTag = { 0x6c65616b7363616eULL, 0x7461626c65730001ULL };
static const napi_type_tag kStateTag = { 0x6c65616b7363616eULL, 0x7374617465000001ULL };

/* The C object behind a handle made by this module with `tag`, or NULL. */
static void *unwrap(napi_env env, napi_value v, const napi_type_tag *tag) {
  bool ok = false;
  void *data = NULL;
  if (napi_check_object_type_tag(env, v, tag, &ok) != napi_ok || !ok) return NULL;
  if (napi_get_value_external(env, v, &data) != napi_ok) return NULL;
  return data;
}

static int throw_type(napi_env env, const char *msg) { napi_throw_type_error(env, "LS_NATIVE_ARGS", msg); return 0; }

/* Copies a typed array property of `obj` (of the expected element type) into fresh memory. */
static void *copy_array(napi_env env, napi_value obj, const char *name, napi_typedarray_type want, size_t *len_out) {
  napi_value v;
  if (napi_get_named_property(env, obj, name, &v) != napi_ok) return NULL;
  bool is_ta = false;
  napi_is_typedarray(env, v, &is_ta);
  if (!is_ta) { throw_type(env, name); return NULL; }
  napi_typedarray_type type; size_t length; void *data; napi_value ab; size_t off;
  napi_get_typedarray_info(env, v, &type, &length, &data, &ab, &off);
  if (type != want) { throw_type(env, name); return NULL; }
  size_t el = (type == napi_float64_array) ? 8 : (type == napi_int32_array || type == napi_uint32_array) ? 4 : (type == napi_uint16_array) ? 2 : 1;
  void *copy = malloc(length * el + 8);
  if (copy == NULL) { napi_throw_error(env, "LS_NATIVE_MEMORY", "out of memory"); return NULL; }
  if (length > 0) memcpy(copy, data, length * el);
  if (len_out) *len_out = length;
  return copy;
}

/*
 * The handle `argv[0]` of an entry point taking `want` arguments (all read into `argv`), made by this
 * module with `tag`; NULL, with a TypeError quoting `usage`, when it is missing or of another kind.
 */
static void *handle_arg(napi_env env, napi_callback_info info, size_t want, napi_value *argv, const napi_type_tag *tag, const char *usage) {
  size_t argc = want;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void *h = argc < want ? NULL : unwrap(env, argv[0], tag);
  if (h == NULL) throw_type(env, usage);
  return h;
}

static int get_int(napi_env env, napi_value obj, const char *name, int32_t *out) {
  napi_value v;
  if (napi_get_named_property(env, obj, name, &v) != napi_ok) return 0;
  if (napi_get_value_int32(env, v, out) != napi_ok) return throw_type(env, name);
  return 1;
}

/* A typed array argument of element type `want` (`what` names it in the error): its data and length. */
static int get_typed(napi_env env, napi_value v, napi_typedarray_type want, const char *what, void **data, size_t *len) {
  bool is_ta = false;
  napi_is_typedarray(env, v, &is_ta);
  napi_typedarray_type type = napi_int8_array;
  napi_value ab; size_t off;
  if (is_ta) napi_get_typedarray_info(env, v, &type, len, data, &ab, &off);
  if (!is_ta || type != want) return throw_type(env, what);
  return 1;
}

static int get_bytes(napi_env env, napi_value v, uint8_t **data, size_t *len) {
  return get_typed(env, v, napi_uint8_array, "expected a Uint8Array", (void **)data, len);
}

static int get_f64(napi_env env, napi_value v, double **data, size_t *len) {
  return get_typed(env, v, napi_float64_array, "expected a Float64Array", (void **)data, len);
}

/*
 * True when every index the pass follows stays inside its array: transitions name states, outputs and
 * their lengths sit inside the output arrays, separator sets and token lengths inside theirs, and
 * every reported rule inside [0, rule_count) (context outputs inside [rule_count, 2 * rule_count)).
 * The tables normally come from `PrefilterTables`; this keeps a hand-made object from reading out of
 * bounds.
 */
static int tables_valid(const tables_t *t, size_t n_delta, size_t n_depth, size_t n_out_start, size_t n_out_rule, size_t n_out_len,
                        size_t n_set_min, size_t n_set_from, size_t n_set_idx, size_t n_d_min, size_t n_d_max, size_t n_tok_from,
                        size_t n_tok_flags, size_t n_ctx) {
  const int64_t ns = t->n_states, rc = t->rule_count;
  if (ns < 1 || n_delta != (size_t)ns * K_COLS || n_depth != (size_t)ns || n_out_start != (size_t)ns + 1) return 0;
  if (rc < 0 || n_ctx != (size_t)rc || t->first_out < 0 || t->first_out > ns) return 0;
  for (size_t j = 0; j < n_delta; j++) if ((t->d16 ? (int64_t)t->d16[j] : (int64_t)t->d32[j]) >= ns || (t->d32 && t->d32[j] < 0)) return 0;
  if (n_out_len != n_out_rule || t->out_start[0] != 0 || t->out_start[ns] != (int32_t)n_out_rule) return 0;
  for (int64_t q = 0; q < ns; q++) {
    if (t->out_start[q] > t->out_start[q + 1] || t->depth[q] < 0) return 0;
    /* Only states from first_out on have outputs (the hot loop looks no further). */
    if ((q < t->first_out) != (t->out_start[q] == t->out_start[q + 1])) return 0;
  }
  for (size_t q = 0; q < n_out_rule; q++) if (t->out_rule[q] < 0 || t->out_rule[q] >= 2 * rc || t->out_len[q] < 0) return 0;
  if (n_set_min != (size_t)t->n_sets || n_set_from != (size_t)t->n_sets + 1) return 0;
  if (n_d_min != (size_t)t->n_digit || n_d_max != (size_t)t->n_digit || t->set_from[0] != 0 || t->set_from[t->n_sets] != (int32_t)n_set_idx) return 0;
  for (int32_t j = 0; j < t->n_sets; j++) if (t->set_from[j] > t->set_from[j + 1]) return 0;
  for (size_t q = 0; q < n_set_idx; q++) if (t->set_idx[q] < 0 || t->set_idx[q] >= t->n_digit) return 0;
  for (int32_t i = 0; i < t->n_digit; i++) if (t->d_rule[i] < 0 || t->d_rule[i] >= rc) return 0;
  if (t->max_tok < 0 || n_tok_from != (size_t)t->max_tok + 2 || t->tok_from[0] != 0 || t->tok_from[t->max_tok + 1] != t->n_tok || n_tok_flags != (size_t)t->n_tok) return 0;
  for (int32_t len = 0; len <= t->max_tok; len++) if (t->tok_from[len] > t->tok_from[len + 1]) return 0;
  for (int32_t q = 0; q < t->n_tok; q++) if (t->tok_rule[q] < 0 || t->tok_rule[q] >= rc) return 0;
  for (int64_t r = 0; r < rc; r++) if (!(t->ctx_within[r] >= 0)) return 0;
  /* A side looks at most three characters away (x0 .. x2, past one skip character); groups fit a run. */
  for (int32_t i = 0; i < t->n_digit; i++) {
    for (int k = 0; k < 4; k++) if (t->d_sides[8 * i + 2 * k + 1] > 2) return 0;
    if (t->d_groups[4 * i] < 0 || t->d_groups[4 * i] > K_MAX_RUN_SPAN) return 0;
  }
  return 1;
}

/* Fills `len_from` / `len_idx` (see tables_t) from the validated set and digit-rule arrays; 0 when out of memory. */
static int build_len_index(tables_t *t) {
  const size_t slots = ((size_t)t->n_sets + 1) * K_LENS + 1;
  t->len_from = (int32_t *)calloc(slots, sizeof(int32_t));
  size_t total = 0;
  for (int pass = 0; pass < 2; pass++) {
    size_t n = 0;
    for (int32_t j = 0; j <= t->n_sets; j++) {
      const int32_t j0 = j < t->n_sets ? j : 0, j1 = j < t->n_sets ? j + 1 : t->n_sets;
      for (int32_t c = 0; c < K_LENS; c++) {
        if (pass == 1) t->len_from[(size_t)j * K_LENS + c] = (int32_t)n;
        for (int32_t jj = j0; jj < j1; jj++) {
          for (int32_t q = t->set_from[jj]; q < t->set_from[jj + 1]; q++) {
            const int32_t i = t->set_idx[q];
            if (t->d_min[i] > c || (double)c > t->d_max[i]) continue;
            if (pass == 1) t->len_idx[n] = i;
            n++;
          }
        }
      }
    }
    if (pass == 0) {
      total = n;
      t->len_idx = (int32_t *)malloc((total + 1) * sizeof(int32_t));
      if (t->len_from == NULL || t->len_idx == NULL) return 0;
    } else {
      t->len_from[slots - 1] = (int32_t)n;
    }
  }
  return 1;
}

/* Whether byte c is in side k of digit rule i's set, and whether it is that side's skip character. */
static inline int side_bits(const tables_t *t, int32_t i, int k, int c) {
  const uint8_t *side = t->d_sides + 8 * (size_t)i + 2 * k;
  const int in = c < K_COLS && t->d_side_sets[128 * (4 * (size_t)i + k) + c] != 0;
  return in | ((side[0] != 0 && c == side[0]) << 1);
}

/* Fills byte_class and first_class (see tables_t). */
static void shape_classes(tables_t *t) {
  int rep[256], n = 0;
  for (int c = 0; c < 256; c++) {
    int found = -1;
    for (int e = 0; e < n && found < 0; e++) {
      int same = 1;
      for (int32_t i = 0; i < t->n_digit && same; i++)
        for (int k = 0; k < 4 && same; k++) same = side_bits(t, i, k, c) == side_bits(t, i, k, rep[e]);
      if (same) found = e;
    }
    if (found < 0) { rep[n] = c; found = n++; }
    t->byte_class[c] = (uint8_t)found;
  }
  int drep[10], m = 0;
  for (int d = 0; d < 10; d++) {
    int found = -1;
    for (int e = 0; e < m && found < 0; e++) {
      int same = 1;
      for (int32_t i = 0; i < t->n_digit && same; i++) same = ((t->d_first[i] >> d) & 1) == ((t->d_first[i] >> drep[e]) & 1);
      if (same) found = e;
    }
    if (found < 0) { drep[m] = d; found = m++; }
    t->first_class[d] = (uint8_t)found;
  }
}

/* A state's number in the pre-scaled tables (see tables_t), and back. */
static inline int32_t renumbered(const tables_t *t, int32_t st) {
  return st < t->first_out ? st : st + t->out_shift;
}

static inline int32_t original(const tables_t *t, int32_t sn) {
  return sn < t->out_base ? sn : sn - t->out_shift;
}

/* The validated transition from state st on column byte c. */
static inline int32_t delta_at(const tables_t *t, int32_t st, int32_t c) {
  const size_t j = (size_t)st * K_COLS + (size_t)c;
  return t->d16 != NULL ? (int32_t)t->d16[j] : t->d32[j];
}

/*
 * Fills col_of (per column byte, its class: bytes every state moves alike on share one, numbered in
 * order of first byte) and returns how many there are.
 */
static int32_t column_classes(const tables_t *t, uint8_t col_of[K_COLS]) {
  int32_t rep[K_COLS], n = 0;
  uint64_t hash[K_COLS];
  for (int32_t c = 0; c < K_COLS; c++) {
    uint64_t h = 0;
    for (int32_t st = 0; st < t->n_states; st++) h = (h ^ (uint64_t)delta_at(t, st, c)) * 0x100000001b3ULL;
    hash[c] = h;
    int32_t found = -1;
    for (int32_t e = 0; e < n && found < 0; e++) {
      if (hash[rep[e]] != h) continue;
      int32_t st = 0;
      while (st < t->n_states && delta_at(t, st, c) == delta_at(t, st, rep[e])) st++;
      if (st == t->n_states) found = e;
    }
    if (found < 0) { rep[n] = c; found = n++; }
    col_of[c] = (uint8_t)found;
  }
  return n;
}

/* Fills reset256 (see tables_t) from the validated transitions. */
static void find_resets(tables_t *t) {
  for (int32_t c = 0; c < K_COLS; c++) {
    int32_t st = 0;
    while (st < t->n_states && delta_at(t, st, c) == 0) st++;
    t->reset256[c] = st == t->n_states;
  }
  for (int32_t c = K_COLS; c < 256; c++) t->reset256[c] = t->reset256[c == K_KELVIN ? 107 : 0];
}

/*
 * Renumbers and pre-scales the validated transitions (see tables_t) into rows of column classes (or of
 * the bytes themselves, col_of then the identity): rows out_base onwards hold the output states, rows
 * first_out .. out_base are never reached (zero). A 16-bit table whose entries would pass 65,535
 * becomes a 32-bit one.
 */
static int prescale(tables_t *t, uint8_t col_of[K_COLS]) {
  int32_t base = 1;
  while (base < t->first_out) base *= 2;
  t->out_base = base;
  t->out_shift = base - t->first_out;
  if (column_classes(t, col_of) > 64) {
    for (int32_t c = 0; c < K_COLS; c++) col_of[c] = (uint8_t)c;
    t->width = K_COLS;
  } else {
    t->width = 64;
  }
  const int32_t rows = t->n_states + t->out_shift;
  const int wide = t->d16 == NULL || (int64_t)(rows - 1) * (t->width / 4) > 0xffff;
  t->scale = wide ? t->width / 2 : t->width / 4;
  t->scale_shift = __builtin_ctz((unsigned)t->scale);
  const size_t n = (size_t)rows * (size_t)t->width;
  void *next = calloc(n, wide ? sizeof(int32_t) : sizeof(uint16_t));
  if (next == NULL) return 0;
  find_resets(t);
  for (int32_t st = 0; st < t->n_states; st++) {
    const size_t to = (size_t)renumbered(t, st) * (size_t)t->width;
    for (int32_t c = 0; c < K_COLS; c++) {
      const int32_t v = renumbered(t, delta_at(t, st, c)) * t->scale;
      if (wide) ((int32_t *)next)[to + col_of[c]] = v;
      else ((uint16_t *)next)[to + col_of[c]] = (uint16_t)v;
    }
  }
  free(t->d16);
  free(t->d32);
  t->d16 = wide ? NULL : (uint16_t *)next;
  t->d32 = wide ? (int32_t *)next : NULL;
  return 1;
}

/* ---- tables(spec) -> external ---------------------------------------------------------------- */

static napi_value create_tables(napi_env env, napi_callback_info info) {
  size_t argc = 1; napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1) { throw_type(env, "tables(spec)"); return NULL; }
  napi_value o = argv[0];
  tables_t *t = (tables_t *)calloc(1, sizeof(tables_t));
  if (t == NULL) { napi_throw_error(env, "LS_NATIVE_MEMORY", "out of memory"); return NULL; }
  t->refs = 1;
  size_t n = 0, m = 0;
  napi_value dv; bool ta = false;
  napi_get_named_property(env, o, "delta", &dv);
  napi_is_typedarray(env, dv, &ta);
  napi_typedarray_type dtype = napi_uint8_array;
  if (ta) { size_t l; void *d; napi_value ab; size_t off; napi_get_typedarray_info(env, dv, &dtype, &l, &d, &ab, &off); }
  if (dtype == napi_uint16_array) t->d16 = (uint16_t *)copy_array(env, o, "delta", napi_uint16_array, &n);
  else t->d32 = (int32_t *)copy_array(env, o, "delta", napi_int32_array, &n);
  int ok = (t->d16 != NULL || t->d32 != NULL);
  t->n_states = (int32_t)(n / K_COLS);
  ok = ok && get_int(env, o, "firstOut", &t->first_out);
  size_t n_depth = 0, n_out_start = 0, n_out_rule = 0, n_out_len = 0, n_set_min = 0, n_set_from = 0, n_set_idx = 0, n_d_min = 0, n_d_max = 0;
  size_t n_tok_from = 0, n_tok_flags = 0, n_ctx = 0, n_first = 0, n_sides = 0, n_side_sets = 0, n_groups = 0;
  ok = ok && (t->depth = (int32_t *)copy_array(env, o, "depth", napi_int32_array, &n_depth)) != NULL;
  ok = ok && (t->out_start = (int32_t *)copy_array(env, o, "outStart", napi_int32_array, &n_out_start)) != NULL;
  ok = ok && (t->out_rule = (int32_t *)copy_array(env, o, "outRule", napi_int32_array, &n_out_rule)) != NULL;
  ok = ok && (t->out_len = (int32_t *)copy_array(env, o, "outLen", napi_int32_array, &n_out_len)) != NULL;
  uint8_t *cls = NULL, *sep_bit = NULL;
  ok = ok && (cls = (uint8_t *)copy_array(env, o, "cls", napi_uint8_array, &m)) != NULL && m == K_COLS;
  ok = ok && (sep_bit = (uint8_t *)copy_array(env, o, "sepBit", napi_uint8_array, &m)) != NULL && m == K_COLS;
  if (ok) { memcpy(t->cls, cls, K_COLS); memcpy(t->sep_bit, sep_bit, K_COLS); }
  free(cls); free(sep_bit);
  ok = ok && (t->set_masks = (uint8_t *)copy_array(env, o, "setMasks", napi_uint8_array, &m)) != NULL;
  t->n_sets = (int32_t)m;
  ok = ok && (t->set_min = (int32_t *)copy_array(env, o, "setMin", napi_int32_array, &n_set_min)) != NULL;
  ok = ok && (t->set_from = (int32_t *)copy_array(env, o, "setFrom", napi_int32_array, &n_set_from)) != NULL;
  ok = ok && (t->set_idx = (int32_t *)copy_array(env, o, "setIdx", napi_int32_array, &n_set_idx)) != NULL;
  ok = ok && (t->d_rule = (int32_t *)copy_array(env, o, "digitRule", napi_int32_array, &m)) != NULL;
  t->n_digit = (int32_t)m;
  ok = ok && (t->d_min = (int32_t *)copy_array(env, o, "digitMin", napi_int32_array, &n_d_min)) != NULL;
  ok = ok && (t->d_max = (double *)copy_array(env, o, "digitMax", napi_float64_array, &n_d_max)) != NULL;
  ok = ok && get_int(env, o, "minDigits", &t->min_digits);
  ok = ok && get_int(env, o, "maxTokenLen", &t->max_tok);
  ok = ok && (t->tok_from = (int32_t *)copy_array(env, o, "tokFrom", napi_int32_array, &n_tok_from)) != NULL;
  ok = ok && (t->tok_rule = (int32_t *)copy_array(env, o, "tokRule", napi_int32_array, &m)) != NULL;
  t->n_tok = (int32_t)m;
  ok = ok && (t->tok_flags = (uint8_t *)copy_array(env, o, "tokFlags", napi_uint8_array, &n_tok_flags)) != NULL;
  ok = ok && get_int(env, o, "ruleCount", &t->rule_count);
  ok = ok && (t->ctx_within = (double *)copy_array(env, o, "ctxWithin", napi_float64_array, &n_ctx)) != NULL;
  ok = ok && (t->d_first = (uint16_t *)copy_array(env, o, "digitFirst", napi_uint16_array, &n_first)) != NULL;
  ok = ok && (t->d_sides = (uint8_t *)copy_array(env, o, "digitSides", napi_uint8_array, &n_sides)) != NULL;
  ok = ok && (t->d_side_sets = (uint8_t *)copy_array(env, o, "digitSideSets", napi_uint8_array, &n_side_sets)) != NULL;
  ok = ok && (t->d_groups = (int32_t *)copy_array(env, o, "digitGroups", napi_int32_array, &n_groups)) != NULL;
  ok = ok && n_first == (size_t)t->n_digit && n_sides == 8 * (size_t)t->n_digit && n_side_sets == 512 * (size_t)t->n_digit &&
       n_groups == 4 * (size_t)t->n_digit;
  size_t n_join_gap = 0, n_join_span = 0, n_next_of = 0, n_next_cols = 0;
  ok = ok && (t->join_gap = (double *)copy_array(env, o, "joinGap", napi_float64_array, &n_join_gap)) != NULL;
  ok = ok && (t->join_span = (double *)copy_array(env, o, "joinSpan", napi_float64_array, &n_join_span)) != NULL;
  ok = ok && (t->next_of = (int32_t *)copy_array(env, o, "nextOf", napi_int32_array, &n_next_of)) != NULL;
  ok = ok && (t->next_cols = (uint8_t *)copy_array(env, o, "nextCols", napi_uint8_array, &n_next_cols)) != NULL;
  ok = ok && n_join_gap == (size_t)t->rule_count && n_join_span == (size_t)t->rule_count && n_next_of == (size_t)t->rule_count;
  for (int32_t r = 0; ok && r < t->rule_count; r++) {
    const int32_t no = t->next_of[r];
    if (!(t->join_gap[r] >= 0) || !(t->join_span[r] >= 0) || no < -1 || (no >= 0 && (size_t)no + K_COLS > n_next_cols)) ok = 0;
    if (t->join_gap[r] > 0) t->n_joined++;
  }
  ok = ok && tables_valid(t, n, n_depth, n_out_start, n_out_rule, n_out_len, n_set_min, n_set_from, n_set_idx, n_d_min, n_d_max, n_tok_from, n_tok_flags, n_ctx);
  if (!ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) throw_type(env, "malformed prefilter tables");
    tables_release(t);
    return NULL;
  }
  const int memo = t->n_digit <= 256;
  t->tok_has = (uint8_t *)calloc((size_t)t->max_tok + 1, 1);
  if (memo) {
    t->memo = (struct run_memo *)aligned_alloc(64, K_MEMO * sizeof(struct run_memo));
    if (t->memo != NULL) memset(t->memo, 0, K_MEMO * sizeof(struct run_memo));
  }
  uint8_t col_of[K_COLS];
  if (t->tok_has == NULL || (memo && t->memo == NULL) || !prescale(t, col_of) || !build_len_index(t)) {
    tables_release(t);
    napi_throw_error(env, "LS_NATIVE_MEMORY", "out of memory");
    return NULL;
  }
  if (memo) shape_classes(t);
  t->pure_set = -1;
  for (int32_t j = 0; j < t->n_sets && t->pure_set < 0; j++) if (t->set_masks[j] == 0) t->pure_set = j;
  int32_t max_out = 0;
  for (int32_t s = 0; s < t->n_states; s++) {
    int32_t k = t->out_start[s + 1] - t->out_start[s];
    if (k > max_out) max_out = k;
  }
  int32_t max_tok_rules = 0;
  for (int32_t len = 0; len <= t->max_tok; len++) {
    int32_t k = t->tok_from[len + 1] - t->tok_from[len];
    if (k > max_tok_rules) max_tok_rules = k;
    t->tok_has[len] = k > 0;
  }
  t->max_events_per_char = max_out + t->n_digit + max_tok_rules;
  for (int c = 0; c < 256; c++) {
    t->cls256[c] = c < K_COLS ? t->cls[c] : 0;
    t->col256[c] = col_of[c < K_COLS ? c : (c == K_KELVIN ? 107 : 0)];
    t->alnum256[c] = (t->cls256[c] == K_DIGIT || t->cls256[c] == K_LETTER) ? t->cls256[c] : 0;
    t->kind256[c] = (uint8_t)((t->cls256[c] == K_DIGIT) | ((t->alnum256[c] != 0) << 1) | ((t->cls256[c] == K_SEP) << 2));
  }
  t->plain_kinds = 1;
  for (int c = 0; c < K_COLS; c++) {
    if ((t->cls[c] & K_SEP) == 0) continue;
    if (t->cls[c] != K_SEP || t->n_seps == 8) t->plain_kinds = 0;
    else t->seps[t->n_seps++] = (uint8_t)c;
  }
  t->run_win = t->min_digits < 1 ? 1 : t->min_digits > 64 ? 64 : t->min_digits;
  t->tok_win = 64;
  for (int32_t len = t->max_tok < 64 ? t->max_tok : 64; len >= 1; len--) if (t->tok_has[len]) t->tok_win = len;
  napi_value ext;
  napi_create_external(env, t, tables_finalize, NULL, &ext);
  napi_type_tag_object(env, ext, &kTablesTag);
  return ext;
}

/* ---- state(tables) -> external --------------------------------------------------------------- */

/* A state as a fresh one starts: everything zero but its arrays, the context ends at -inf, and no run,
   token or character after a run seen yet. Used by create_state and by reset_state (a scan's state is
   reused by the thread's next scan: allocating and finalizing one per scan was a tenth of a small
   body's cost). */
static void state_init(state_t *s, tables_t *t) {
  uint32_t *fired = s->fired;
  int32_t *sub_start = s->sub_start, *sub_sep = s->sub_sep;
  double *ctx_end = s->ctx_end;
  int64_t *join_start = s->join_start, *join_end = s->join_end;
  memset(s, 0, sizeof *s);
  s->fired = fired;
  s->sub_start = sub_start;
  s->sub_sep = sub_sep;
  s->ctx_end = ctx_end;
  s->join_start = join_start;
  s->join_end = join_end;
  for (int32_t r = 0; r < t->rule_count; r++) join_start[r] = -1;
  memset(fired, 0, ((size_t)t->n_digit + 1) * sizeof(uint32_t));
  memset(sub_start, 0, ((size_t)t->n_sets + 1) * sizeof(int32_t));
  memset(sub_sep, 0, ((size_t)t->n_sets + 1) * sizeof(int32_t));
  for (int32_t r = 0; r < t->rule_count; r++) ctx_end[r] = -INFINITY;
  s->t = t;
  s->run_start = -1;
  s->tok_start = -1;
  s->after1 = -1;
  s->after2 = -1;
}

static napi_value create_state(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  tables_t *t = (tables_t *)handle_arg(env, info, 1, argv, &kTablesTag, "state(tables): expected a tables handle");
  if (t == NULL) return NULL;
  state_t *s = (state_t *)calloc(1, sizeof(state_t));
  if (s != NULL) {
    s->fired = (uint32_t *)calloc((size_t)t->n_digit + 1, sizeof(uint32_t));
    s->sub_start = (int32_t *)calloc((size_t)t->n_sets + 1, sizeof(int32_t));
    s->sub_sep = (int32_t *)calloc((size_t)t->n_sets + 1, sizeof(int32_t));
    s->ctx_end = (double *)malloc(((size_t)t->rule_count + 1) * sizeof(double));
    s->join_start = (int64_t *)malloc(((size_t)t->rule_count + 1) * sizeof(int64_t));
    s->join_end = (int64_t *)calloc((size_t)t->rule_count + 1, sizeof(int64_t));
  }
  if (s == NULL || s->fired == NULL || s->sub_start == NULL || s->ctx_end == NULL || s->sub_sep == NULL || s->join_start == NULL || s->join_end == NULL) {
    if (s) { free(s->fired); free(s->sub_start); free(s->ctx_end); free(s->sub_sep); free(s->join_start); free(s->join_end); free(s); }
    napi_throw_error(env, "LS_NATIVE_MEMORY", "out of memory");
    return NULL;
  }
  state_init(s, t);
  t->refs++;
  napi_value ext;
  napi_create_external(env, s, state_finalize, NULL, &ext);
  napi_type_tag_object(env, ext, &kStateTag);
  return ext;
}

static napi_value reset_state(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  state_t *s = (state_t *)handle_arg(env, info, 1, argv, &kStateTag, "reset(state): expected a state handle");
  if (s == NULL) return NULL;
  state_init(s, s->t);
  return NULL;
}

/* ---- the pass ---------------------------------------------------------------------------------- */

typedef struct { double *out; int32_t n; } sink_t;

static inline void put(sink_t *k, int32_t rule, int64_t start, int64_t end) {
  double *o = k->out + 3 * (size_t)k->n;
  o[0] = rule; o[1] = (double)start; o[2] = (double)end;
  k->n++;
}

/* The three column bytes before cols[i] (nearest lowest), those before `from` from the state's tail. */
static inline int32_t bytes_before(const state_t *s, const uint8_t *cols, int32_t from, int32_t i) {
  int32_t b = s->tail;
  for (int32_t j = (i - 3 > from ? i - 3 : from); j < i; j++) b = ((b << 8) | cols[j]) & 0xffffff;
  return b;
}

/* `run_before` of the run starting at `st`, taken now if no shape needed it yet (as `Prefilter.#beforeBytes`). */
static int32_t run_before(state_t *s, int64_t st) {
  /* A run that started in an earlier call had its bytes taken when that call ended. */
  if (s->run_before < 0) s->run_before = s->cols != NULL ? bytes_before(s, s->cols, s->from, (int32_t)(st - s->off)) : s->tail;
  return s->run_before;
}

/*
 * Side k of digit rule i's shape, for the characters x0, x1, x2 going away from the run or sub-run
 * (-1 for one not seen yet, which passes): past the side's skip character, if x0 is it, its next
 * `count` characters are in its set (as `Prefilter.#sideOk`).
 */
static int side_ok(const tables_t *t, int32_t i, int k, int32_t x0, int32_t x1, int32_t x2) {
  const uint8_t *side = t->d_sides + 8 * (size_t)i + 2 * k;
  const uint8_t *row = t->d_side_sets + 128 * (4 * (size_t)i + k);
  int p = (side[0] != 0 && x0 == side[0]) ? 1 : 0;
  for (const int end = p + side[1]; p < end; p++) {
    const int32_t ch = p == 0 ? x0 : p == 1 ? x1 : x2;
    if (ch < 0) return 1;
    if (ch >= K_COLS || row[ch] == 0) return 0;
  }
  return 1;
}

/* True when the run being flushed, starting at `st`, has digit rule i's shape (as `Prefilter.#shapeOk`). */
static int shape_ok(state_t *s, int32_t i, int64_t st) {
  const tables_t *t = s->t;
  if (((t->d_first[i] >> (s->run_first - 48)) & 1) == 0) return 0;
  const uint8_t *sides = t->d_sides + 8 * (size_t)i;
  if (sides[1] != 0) {
    const int32_t b = run_before(s, st);
    if (!side_ok(t, i, 0, b & 0xff, (b >> 8) & 0xff, (b >> 16) & 0xff)) return 0;
  }
  if (sides[3] != 0 && !side_ok(t, i, 1, s->after1, s->after2, -1)) return 0;
  /* The sub-run's sides: inside the run, a separator, then a digit beyond it (48 stands for it). */
  if (sides[5] != 0) {
    const int32_t b = s->block_from >= 0 ? (s->sep_chars[s->block_from] | (48 << 8)) : run_before(s, st);
    if (!side_ok(t, i, 2, b & 0xff, (b >> 8) & 0xff, (b >> 16) & 0xff)) return 0;
  }
  if (sides[7] != 0) {
    const int ok = s->block_to >= 0 ? side_ok(t, i, 3, s->sep_chars[s->block_to], 48, -1) : side_ok(t, i, 3, s->after1, s->after2, -1);
    if (!ok) return 0;
  }
  const int32_t within = t->d_groups[4 * i];
  if (within > 0) {
    /* Separators are logged with the digits before them, in order. */
    if (t->d_groups[4 * i + 3] != 0 && (s->seps == 0 || s->sep_at[0] >= within)) return 0;
    uint8_t bit0 = 0;
    for (int32_t q = 0; q < s->seps; q++) {
      if (s->sep_at[q] >= within) break;
      const uint8_t bit = t->sep_bit[s->sep_chars[q]];
      if (q == 0) {
        if (s->sep_at[0] != t->d_groups[4 * i + 1] || (bit & t->d_groups[4 * i + 2]) == 0) return 0;
        bit0 = bit;
      } else if (bit != bit0) return 0;
    }
  }
  return 1;
}

/* False when `rule` is screened by context and no context word ended within its reach before `start`. */
static inline int ctx_ok(const state_t *s, int32_t rule, int64_t start) {
  const double w = s->t->ctx_within[rule];
  return !(w > 0 && s->ctx_end[rule] <= (double)start - w);
}

/* Reports a trigger, unless its context screen drops it (as `Prefilter.#report`). */
static inline void report(state_t *s, sink_t *k, int32_t rule, int64_t start, int64_t end) {
  if (ctx_ok(s, rule, start)) put(k, rule, start, end);
}

/* A keyword hit of a joined rule, before the column byte `next` (-1: the end of the piece); as
   `Prefilter.#join`. Writes at most one event (the open span it cannot join). */
static void join_hit(state_t *s, sink_t *k, int32_t rule, int64_t start, int64_t end, int32_t next) {
  const tables_t *t = s->t;
  if (!ctx_ok(s, rule, start)) return;
  const int32_t row = t->next_of[rule];
  if (row >= 0 && next >= 0 && (next >= K_COLS || t->next_cols[row + next] == 0)) return;
  const int64_t js = s->join_start[rule];
  if (js >= 0) {
    const int64_t je = s->join_end[rule];
    const int64_t lo = start < js ? start : js, hi = end > je ? end : je;
    if ((double)start <= (double)je + t->join_gap[rule] && (double)(hi - lo) <= t->join_span[rule]) {
      s->join_start[rule] = lo;
      s->join_end[rule] = hi;
      return;
    }
    put(k, rule, js, je);
  } else {
    s->joins_open++;
  }
  s->join_start[rule] = start;
  s->join_end[rule] = end;
}

/* `shaped` 0: a stretch of a piece of an overlong run, whose sides are not known (see flush_piece). */
static void end_sub_run(state_t *s, int32_t j, int32_t c, int64_t st, int64_t en, sink_t *k, int shaped) {
  tables_t *t = s->t;
  /* A run's sub-run holds at most K_MAX_RUN_SPAN digits (runs are cut into pieces of that span); a
     stretch counted across pieces may hold more, and the last length's list is then checked rule by rule. */
  const int32_t *from = t->len_from + (size_t)j * K_LENS + (c < K_LENS - 1 ? c : K_LENS - 1);
  for (int32_t q = from[0], to = from[1]; q < to; q++) {
    const int32_t i = t->len_idx[q];
    const int32_t rule = t->d_rule[i];
    if (c >= K_LENS - 1 && (t->d_min[i] > c || (double)c > t->d_max[i])) continue;
    /* The context screen first: it is cheaper than the shape, and report() would drop the run anyway.
       Stamped once it passes: with a block shape, a later sub-run of the run may pass where this one did not. */
    if (s->fired[i] == s->gen || (s->rec == NULL && !ctx_ok(s, rule, st))) continue;
    if (!shaped || shape_ok(s, i, st)) {
      s->fired[i] = s->gen;
      if (s->rec != NULL) {
        if (s->rec_n < K_MEMO_RULES) s->rec[s->rec_n] = (uint8_t)i;
        s->rec_n++;
      }
      else put(k, rule, st, en);
    }
  }
}

/* The sub-runs of the run [st, en) of `digits` digits, each against its set's rules (see flush_run). */
static void flush_sub_runs(state_t *s, int64_t st, int64_t en, int32_t digits, sink_t *k) {
  tables_t *t = s->t;
  s->gen++; /* a new run for `fired` */
  int32_t sets = t->n_sets;
  if (s->seps == 0) {
    /* One sub-run of every set: the whole run (the index past the sets lists all their rules). */
    s->block_from = -1;
    s->block_to = -1;
    end_sub_run(s, sets, digits, st, en, k, 1);
    return;
  }
  int32_t *sub = s->sub_start;
  int32_t *sub_sep = s->sub_sep;
  for (int32_t j = 0; j < sets; j++) { sub[j] = 0; sub_sep[j] = -1; }
  for (int32_t q = 0; q < s->seps; q++) {
    const int32_t at = s->sep_at[q];
    const uint8_t bit = t->sep_bit[s->sep_chars[q]];
    for (int32_t j = 0; j < sets; j++) {
      if ((t->set_masks[j] & bit) != 0) continue;
      if (at - sub[j] >= t->set_min[j]) {
        s->block_from = sub_sep[j];
        s->block_to = at == digits ? -1 : q;
        end_sub_run(s, j, at - sub[j], st, en, k, 1);
      }
      sub[j] = at;
      sub_sep[j] = q;
    }
  }
  for (int32_t j = 0; j < sets; j++) {
    if (digits - sub[j] >= t->set_min[j]) {
      s->block_from = sub_sep[j];
      s->block_to = -1;
      end_sub_run(s, j, digits - sub[j], st, en, k, 1);
    }
  }
}

/*
 * The look of the run being flushed (see run_memo), packed: its digit count (9 bits), separator count
 * (4), first digit's class (4), the three bytes before by class (24), and the two after by class, +1
 * (9 each; 0 unseen), with the top bit set so that no look packs to 0 (an empty entry); then the
 * separators' places and bytes, one byte each. Three words, compared and hashed at once: the former
 * field-by-field hash was a chain of multiplies as long as the fields.
 */
typedef struct { uint64_t key, sep_at, sep_chars; } look_t;

static inline look_t look_of(const state_t *s, int32_t digits, int32_t before) {
  const tables_t *t = s->t;
  const uint8_t *bc = t->byte_class;
  const uint64_t b = (uint64_t)bc[before & 0xff] | ((uint64_t)bc[(before >> 8) & 0xff] << 8) | ((uint64_t)bc[(before >> 16) & 0xff] << 16);
  const uint64_t a1 = s->after1 < 0 ? 0 : (uint64_t)bc[s->after1] + 1;
  const uint64_t a2 = s->after2 < 0 ? 0 : (uint64_t)bc[s->after2] + 1;
  look_t l;
  l.key = (uint64_t)digits | ((uint64_t)s->seps << 9) | ((uint64_t)t->first_class[s->run_first - 48] << 13) | (b << 17) | (a1 << 41) | (a2 << 50) | (1ULL << 63);
  l.sep_at = 0;
  l.sep_chars = 0;
  for (int32_t q = 0; q < s->seps; q++) {
    l.sep_at |= (uint64_t)(uint8_t)s->sep_at[q] << (8 * q);
    l.sep_chars |= (uint64_t)s->sep_chars[q] << (8 * q);
  }
  return l;
}

static inline uint32_t memo_slot(look_t l) {
  const uint64_t h = l.key * 0x9e3779b97f4a7c15ULL ^ l.sep_at * 0xc2b2ae3d27d4eb4fULL ^ l.sep_chars * 0x165667b19e3779f9ULL;
  return (uint32_t)(h >> 55) & (K_MEMO - 1);
}

/* The run's rules from its look's entry, each reported unless its context screen drops it. */
static void memo_report(state_t *s, const struct run_memo *m, int64_t st, int64_t en, sink_t *k) {
  for (int32_t q = 0; q < m->n; q++) report(s, k, s->t->d_rule[m->rules[q]], st, en);
}

/*
 * A piece of an overlong run (as `Prefilter.#flushPiece`). The rules of contiguous digits (the separator
 * set without separators) wake only for a stretch between separators whose length is in their range,
 * the piece's first stretch counted on from the pieces before (s->carry); every other digit rule wakes,
 * except, in a piece with no separator, those whose longest value is shorter than its digits.
 */
static void flush_piece(state_t *s, int64_t st, int64_t en, int32_t digits, sink_t *k) {
  tables_t *t = s->t;
  s->gen++;
  const int32_t j0 = t->pure_set;
  if (j0 >= 0) {
    int64_t prev = -s->carry;
    for (int32_t q = 0; q <= s->seps; q++) {
      const int32_t at = q < s->seps ? s->sep_at[q] : digits;
      const int64_t len = at - prev;
      if (at > (prev > 0 ? prev : 0) && len >= t->set_min[j0]) end_sub_run(s, j0, len > INT32_MAX ? INT32_MAX : (int32_t)len, st, en, k, 0);
      prev = at;
    }
    for (int32_t q = t->set_from[j0]; q < t->set_from[j0 + 1]; q++) s->fired[t->set_idx[q]] = s->gen;
  }
  const int pure = s->seps == 0;
  for (int32_t i = 0; i < t->n_digit; i++) {
    if (s->fired[i] == s->gen) continue;
    if (!pure || (double)digits <= t->d_max[i]) report(s, k, t->d_rule[i], st, en);
  }
}

static void flush_run(state_t *s, int64_t st, int64_t en, int32_t digits, sink_t *k) {
  tables_t *t = s->t;
  if (en <= st) return;
  if (s->run_piece) {
    flush_piece(s, st, en, digits, k);
    return;
  }
  if (t->memo == NULL || s->seps > K_MEMO_SEPS) {
    flush_sub_runs(s, st, en, digits, k);
    return;
  }
  const look_t l = look_of(s, digits, run_before(s, st));
  struct run_memo *m = t->memo + memo_slot(l);
  if (m->key != l.key || m->sep_at != l.sep_at || m->sep_chars != l.sep_chars) {
    /* Work the look out with no context screen, into the entry. */
    m->key = 0;
    s->rec = m->rules;
    s->rec_n = 0;
    flush_sub_runs(s, st, en, digits, k);
    s->rec = NULL;
    if (s->rec_n > K_MEMO_RULES) {
      /* More rules than the entry holds: reported as worked out, the entry left empty. */
      flush_sub_runs(s, st, en, digits, k);
      return;
    }
    m->n = (uint8_t)s->rec_n;
    m->sep_at = l.sep_at;
    m->sep_chars = l.sep_chars;
    m->key = l.key;
  }
  memo_report(s, m, st, en, k);
}

static void end_token(state_t *s, int64_t st, int64_t en, int has_digit, int has_letter, sink_t *k) {
  tables_t *t = s->t;
  int32_t len = (int32_t)(en - st);
  for (int32_t q = t->tok_from[len], to = t->tok_from[len + 1]; q < to; q++) {
    uint8_t f = t->tok_flags[q];
    if ((f & 1) && !has_digit) continue;
    if ((f & 2) && !has_letter) continue;
    report(s, k, t->tok_rule[q], st, en);
  }
}

/*
 * The run [st, en) of `digits` digits ended before the character `next` (-1: the end of the text),
 * `sep` when a separator followed its last digit (the last one logged): the characters after it are
 * noted for the shapes, and it is reported (as `Prefilter.#endRun`).
 */
static void end_run(state_t *s, int64_t st, int64_t en, int32_t digits, int sep, int32_t next, sink_t *k) {
  s->after1 = sep ? s->sep_chars[s->seps - 1] : next;
  s->after2 = sep ? next : -1;
  flush_run(s, st, en, digits, k);
}

static int64_t min_future_start(state_t *s) {
  int64_t m = s->pos - s->t->depth[s->st];
  if (s->run_start >= 0 && s->run_start < m) m = s->run_start;
  /* A token already longer than every token rule's maximum can no longer be reported (as the TypeScript pass). */
  if (s->tok_start >= 0 && s->tok_start < m && s->pos - s->tok_start <= s->t->max_tok) m = s->tok_start;
  return m;
}

/* A run begins with digit `first`: no separators yet, not a piece, its bytes before not taken yet. */
static inline void begin_run(state_t *s, uint8_t first) {
  s->run_piece = 0;
  s->seps = 0;
  s->run_first = first;
  s->run_before = -1;
}

/*
 * ---- blocks ----
 * Up to 64 characters in which no keyword state comes up: the automaton steps through them alone (see
 * walk), their kinds go in three masks (see classify_block), and the runs and tokens are settled from
 * the masks.
 * Only what can report is worked out one by one: a token long enough for some token rule, a run long
 * enough to hold min_digits digits, the run or token the block began in, and the run and token it
 * ends in. A shorter run or token inside the block reports nothing and leaves nothing the pass reads
 * later, so the events are those of the one-by-one pass, character for character.
 */

/* A block cut short by a keyword state before this many characters sends the next characters one by
   one: K_BLOCK_BACKOFF of them, twice as many after each further short block, up to K_BLOCK_BACKOFF_MAX
   (where keywords come thick, blocks only cost). */
#define K_BLOCK_SHORT 16
#define K_BLOCK_BACKOFF 64
#define K_BLOCK_BACKOFF_MAX 1024

/* The run and token trackers between characters (the pass keeps them in locals). */
typedef struct {
  int64_t run_start, run_end, tok_start;
  int32_t run_digits;
  int run_sep, tok_digit, tok_letter;
} track_t;

/* A block's masks (bit j: character j of the block): letters and digits, digits, characters that go on
   with a digit run (its digits, and a separator right after one), and the characters in the block. */
typedef struct { uint64_t alnum, digit, run, valid; } block_t;

/* Bit p set where bits p - w + 1 .. p of x are all set (only bits of x count: none before bit 0). */
static inline uint64_t ones_through(uint64_t x, int32_t w) {
  int32_t h = 1;
  while (2 * h <= w) { x &= x << h; h *= 2; }
  return h < w ? x & (x << (w - h)) : x;
}

/* The set bits of x (without the popcnt instruction, x86-64's baseline makes the builtin a call). */
static inline int32_t bit_count(uint64_t x) {
#ifdef __POPCNT__
  return __builtin_popcountll(x);
#else
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return (int32_t)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* Bits [from, to) of a mask, 0 <= from <= to <= 64. */
static inline uint64_t bits_from_to(int32_t from, int32_t to) {
  const uint64_t below = to == 64 ? ~(uint64_t)0 : (((uint64_t)1 << to) - 1);
  return from == 64 ? 0 : below & (~(uint64_t)0 << from);
}

/*
 * The run whose characters end before block character q (the run the block began in when `in_run` and
 * no character before q ends a run) taken into `r`: begun if it starts in the block, its separators
 * logged with the digits before each, its digits counted.
 */
static void take_run(state_t *s, track_t *r, const uint8_t *at, int64_t g0, const block_t *b, int32_t q, int in_run) {
  const uint64_t z = ~b->run & bits_from_to(0, q);
  const int32_t sb = z != 0 ? 64 - __builtin_clzll(z) : 0;
  if (z != 0 || !in_run) {
    r->run_start = g0 + sb;
    r->run_digits = 0;
    begin_run(s, at[sb]);
  }
  const uint64_t m = bits_from_to(sb, q), d = b->digit & m;
  for (uint64_t sp = b->run & ~b->digit & m; sp != 0; sp &= sp - 1) {
    const int32_t p = __builtin_ctzll(sp);
    const int32_t n = s->seps++;
    s->sep_at[n] = r->run_digits + bit_count(d & bits_from_to(0, p));
    s->sep_chars[n] = at[p];
  }
  if (d != 0) {
    r->run_digits += bit_count(d);
    r->run_end = g0 + 64 - __builtin_clzll(d);
  }
  if (m != 0) r->run_sep = ((b->digit >> (q - 1)) & 1) == 0;
}

/* The token whose characters end before block character q taken into `r` (as take_run). */
static void take_token(track_t *r, int64_t g0, const block_t *b, int32_t q, int in_tok) {
  const uint64_t z = ~b->alnum & bits_from_to(0, q);
  const int32_t sb = z != 0 ? 64 - __builtin_clzll(z) : 0;
  if (z != 0 || !in_tok) {
    r->tok_start = g0 + sb;
    r->tok_digit = 0;
    r->tok_letter = 0;
  }
  const uint64_t m = bits_from_to(sb, q);
  r->tok_digit |= (b->digit & m) != 0;
  r->tok_letter |= (b->alnum & ~b->digit & m) != 0;
}

/* The block of `n` characters at `at` (global position g0) settled: its events, then `r` as after it. */
static void settle_block(state_t *s, track_t *r, const uint8_t *at, int64_t g0, const block_t *b, int32_t n, sink_t *k) {
  const tables_t *t = s->t;
  const int in_run = r->run_start >= 0, in_tok = r->tok_start >= 0;
  /* Where a run or token ends: the first character past one (bit 0 for the one the block began in). */
  const uint64_t run_ends = ~b->run & ((b->run << 1) | (uint64_t)in_run) & b->valid;
  const uint64_t tok_ends = ~b->alnum & ((b->alnum << 1) | (uint64_t)in_tok) & b->valid;
  uint64_t runs = run_ends & (ones_through(b->run, t->run_win) << 1);
  uint64_t toks = tok_ends & (ones_through(b->alnum, t->tok_win) << 1);
  if (in_run) runs |= run_ends & -run_ends;
  if (in_tok) toks |= tok_ends & -tok_ends;
  /* In order; at one character, its token's end comes before its run's, as one by one. */
  for (uint64_t u = runs | toks; u != 0; u &= u - 1) {
    const int32_t q = __builtin_ctzll(u);
    if ((toks >> q) & 1) {
      take_token(r, g0, b, q, in_tok);
      const int64_t len = g0 + q - r->tok_start;
      if (len <= t->max_tok && t->tok_has[len]) end_token(s, r->tok_start, g0 + q, r->tok_digit, r->tok_letter, k);
    }
    if ((runs >> q) & 1) {
      take_run(s, r, at, g0, b, q, in_run);
      if (r->run_digits >= t->min_digits || s->run_piece) end_run(s, r->run_start, r->run_end, r->run_digits, r->run_sep, at[q], k);
      r->run_start = -1;
      r->run_sep = 0;
    }
  }
  if ((b->run >> (n - 1)) & 1) {
    take_run(s, r, at, g0, b, n, in_run);
  } else {
    r->run_start = -1;
    r->run_sep = 0;
  }
  if ((b->alnum >> (n - 1)) & 1) take_token(r, g0, b, n, in_tok);
  else r->tok_start = -1;
}

/* One step of the automaton from scaled state `st` on column `c` (see tables_t). The state is a size_t:
   as a 32-bit value it cost a zero-extending move on the chain from one character to the next. */
static inline __attribute__((always_inline)) size_t step(const uint8_t *tab, size_t st, uint32_t c, const int wide) {
  const uint8_t *col = tab + (size_t)c * (wide ? 4 : 2);
  /* Keeps the compiler from folding the column back into the state's index (an add on the chain). */
  __asm__("" : "+r"(col));
  return wide ? (size_t)*(const uint32_t *)(col + st * 8) : (size_t)*(const uint16_t *)(col + st * 8);
}

/*
 * The kinds of the `n` characters at `p` (n <= 64): digits, letters and digits, and separators (in
 * b->run; see scan_loop), bit j for character j. `wide_read`: the 64 bytes at p may be read (those past
 * n are not counted), and 16 are then told at once.
 */
static void classify_block(const tables_t *t, const uint8_t *p, int32_t n, int wide_read, block_t *b) {
  uint64_t digit = 0, alnum = 0, sep = 0;
#ifdef __SSE2__
  if (wide_read && t->plain_kinds) {
    /* Signed compares: the column bytes past ASCII (0x80, 0x81) are below every bound. */
    const __m128i lo_d = _mm_set1_epi8('0' - 1), hi_d = _mm_set1_epi8('9' + 1);
    const __m128i lo_l = _mm_set1_epi8('a' - 1), hi_l = _mm_set1_epi8('z' + 1), fold = _mm_set1_epi8(0x20);
    for (int32_t j = 0; j < 64; j += 16) {
      const __m128i v = _mm_loadu_si128((const __m128i *)(p + j));
      const __m128i d = _mm_and_si128(_mm_cmpgt_epi8(v, lo_d), _mm_cmplt_epi8(v, hi_d));
      const __m128i f = _mm_or_si128(v, fold);
      const __m128i l = _mm_and_si128(_mm_cmpgt_epi8(f, lo_l), _mm_cmplt_epi8(f, hi_l));
      __m128i sp = _mm_setzero_si128();
      for (int32_t q = 0; q < t->n_seps; q++) sp = _mm_or_si128(sp, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)t->seps[q])));
      digit |= (uint64_t)(uint32_t)_mm_movemask_epi8(d) << j;
      alnum |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_or_si128(d, l)) << j;
      sep |= (uint64_t)(uint32_t)_mm_movemask_epi8(sp) << j;
    }
    const uint64_t valid = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    b->digit = digit & valid;
    b->alnum = alnum & valid;
    b->run = sep & valid;
    return;
  }
#else
  (void)wide_read;
#endif
  for (int32_t j = 0; j < n; j++) {
    const uint64_t kd = t->kind256[p[j]];
    digit |= (kd & 1) << j;
    alnum |= ((kd >> 1) & 1) << j;
    sep |= ((kd >> 2) & 1) << j;
  }
  b->digit = digit;
  b->alnum = alnum;
  b->run = sep;
}

/* Blocks shorter than this are walked in one chain of steps, and a byte to split a longer one at is
   looked for among this many past its middle (see walk). */
#define K_WALK_SPLIT 24
#define K_WALK_LOOK 12

/*
 * The automaton's steps through up to `lim` characters at `p` from scaled state *st, up to the first
 * that reaches a keyword state (*st is the state before it): returns how many it took. A function of
 * its own, so that its loop keeps the state in a register: inside the pass, the state went through
 * memory at every step.
 *
 * Each step waits for the one before (a load from the row the last one chose). After a byte of no
 * keyword the state is the root whatever came before, so a block with such a byte near its middle is
 * walked as two chains at once, the second from the root after that byte: twice the steps in flight.
 * Keyword states are rare; when either chain meets one, the block is walked again in one chain, which
 * stops at the first.
 */
static inline __attribute__((always_inline)) int32_t walk(const tables_t *t, const uint8_t *p, int32_t lim, size_t *st, const int wide) {
  const uint8_t *tab = wide ? (const uint8_t *)t->d32 : (const uint8_t *)t->d16;
  const uint8_t *col256 = t->col256;
  /* A power of two (see tables_t): the OR of states below it stays below it. */
  const size_t first_out = (size_t)t->out_base * (size_t)t->scale;
  if (lim >= K_WALK_SPLIT) {
    int32_t r = lim / 2;
    const int32_t r_end = r + K_WALK_LOOK;
    while (r < r_end && !t->reset256[p[r]]) r++;
    if (r < r_end) {
      /* Bytes [0, r] from *st (the state after r is the root), bytes (r, lim) from the root. */
      const uint8_t *q = p + r + 1;
      const int32_t len_a = r + 1, len_b = lim - r - 1, both = len_a < len_b ? len_a : len_b;
      size_t a = *st, b = 0, seen = 0;
      int32_t j = 0;
      for (; j < both; j++) {
        a = step(tab, a, col256[p[j]], wide);
        b = step(tab, b, col256[q[j]], wide);
        seen |= a | b;
      }
      for (int32_t ja = j; ja < len_a; ja++) {
        a = step(tab, a, col256[p[ja]], wide);
        seen |= a;
      }
      for (int32_t jb = j; jb < len_b; jb++) {
        b = step(tab, b, col256[q[jb]], wide);
        seen |= b;
      }
      if (seen < first_out) {
        *st = b;
        return lim;
      }
    }
  }
  size_t at = *st;
  int32_t n = 0;
  for (; n < lim; n++) {
    const size_t next = step(tab, at, col256[p[n]], wide);
    if (next >= first_out) break;
    at = next;
  }
  *st = at;
  return n;
}

static __attribute__((noinline)) int32_t walk16(const tables_t *t, const uint8_t *p, int32_t lim, size_t *st) {
  return walk(t, p, lim, st, 0);
}

static __attribute__((noinline)) int32_t walk32(const tables_t *t, const uint8_t *p, int32_t lim, size_t *st) {
  return walk(t, p, lim, st, 1);
}

/*
 * The pass over cols[from, to) (see `scan`): returns where it stopped. Inlined into two callers, one
 * per width of the transition table, so the hot loop tests neither (and keeps its state in registers).
 */
static inline __attribute__((always_inline)) int32_t scan_loop(state_t *s, const uint8_t *cols, int32_t ncols, int32_t from, int32_t to, sink_t *k, int32_t room,
                                                                const int wide) {
  /* The table by bytes, its entries' width, and the scale of its entries (see tables_t). */
  const uint8_t *tab = wide ? (const uint8_t *)s->t->d32 : (const uint8_t *)s->t->d16;
  const tables_t *t = s->t;
  const uint32_t scale = (uint32_t)t->scale, shift = (uint32_t)t->scale_shift;
  /* The first output state, scaled: a power of two (see tables_t). */
  const uint32_t first_out = (uint32_t)t->out_base * scale;
  const uint8_t *cls = t->cls256;
  const uint8_t *col256 = t->col256;
  const uint8_t *alnum = t->alnum256;
  const uint8_t *tok_has = t->tok_has;
  const int32_t max_tok = t->max_tok;
  const int32_t min_digits = t->min_digits;
  const int64_t off = s->pos - from;
  s->cols = cols; s->from = from; s->off = off;
  /* The state, scaled: its row's offset / 8. */
  size_t st = (size_t)renumbered(t, s->st) * scale;
  int64_t run_start = s->run_start, run_end = s->run_end, tok_start = s->tok_start;
  int32_t run_digits = s->run_digits;
  int run_sep = s->run_sep, tok_digit = s->tok_digit, tok_letter = s->tok_letter;
  int32_t i = from;
  const int32_t per_char = t->max_events_per_char > 0 ? t->max_events_per_char : 1;
  /* Characters before this one are taken one at a time (see the stretches below), and before the
     other one they are not taken in blocks (see settle_block). */
  int32_t one_by_one = from, by_block = from, backoff = K_BLOCK_BACKOFF;
  while (i < to && k->n <= room) {
    /* Blocks (see settle_block), each of characters whose events all fit (as `span` below). */
    while (i >= by_block && i < to && k->n <= room) {
      const int32_t fit = (room - k->n) / per_char + 1;
      const int32_t lim = to - i < 64 ? (to - i < fit ? to - i : fit) : (64 < fit ? 64 : fit);
      /* A run that may reach K_MAX_RUN_SPAN in the block, or is cut into pieces, goes one by one. */
      if (run_start >= 0 && (s->run_piece || off + i + lim - run_start >= K_MAX_RUN_SPAN)) {
        by_block = i + 64;
        break;
      }
      block_t b;
      const int32_t n = wide ? walk32(t, cols + i, lim, &st) : walk16(t, cols + i, lim, &st);
      if (n > 0) {
        classify_block(t, cols + i, n, ncols - i >= 64, &b);
        b.valid = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
        b.run = b.digit | (b.run & ((b.digit << 1) | (uint64_t)(run_start >= 0 && !run_sep)));
        track_t r = { run_start, run_end, tok_start, run_digits, run_sep, tok_digit, tok_letter };
        settle_block(s, &r, cols + i, off + i, &b, n, k);
        run_start = r.run_start; run_end = r.run_end; tok_start = r.tok_start; run_digits = r.run_digits;
        run_sep = r.run_sep; tok_digit = r.tok_digit; tok_letter = r.tok_letter;
        i += n;
      }
      if (n < lim) {
        /* A keyword state at character i: it goes one by one, and after a short block so do the next
           `backoff` characters. */
        one_by_one = i + 1;
        by_block = i + 1;
        if (n < K_BLOCK_SHORT) {
          by_block = i + backoff;
          backoff = backoff < K_BLOCK_BACKOFF_MAX ? 2 * backoff : K_BLOCK_BACKOFF_MAX;
        } else {
          backoff = K_BLOCK_BACKOFF;
        }
        break;
      }
      backoff = K_BLOCK_BACKOFF;
    }
    if (i >= to || k->n > room) break;
    /* A character reports at most max_events_per_char events: the next `span` ones all fit, and the
    loop over them need not look (it stops where the one-by-one test would, see `scan`). */
    const int32_t span = (room - k->n) / per_char + 1;
    const int32_t end = to - i > span ? i + span : to;
    for (; i < end; i++) {
      if (i >= by_block) break;
      const uint8_t c = cols[i];
      if (alnum[c] != 0 && i >= one_by_one) {
        /*
         * A stretch of letters and digits (up to 64, within the block): the automaton steps through it
         * alone, noting the digits in a mask, then the stretch's token and runs are settled from the
         * mask, run by run. Nothing inside a stretch ends a token, and a letter ends a run: the same
         * events as one character at a time, unless a keyword state comes up inside (its events would
         * come before the runs it follows) or a run would reach K_MAX_RUN_SPAN; then the stretch is
         * done again one character at a time. In hex ids, where digits and letters alternate at
         * random, this saves the branch mispredicted at every change of class.
         */
        const int32_t lim = end - i > 64 ? i + 64 : end;
        const size_t st0 = st;
        int32_t x = i;
        /* Every state visited, OR-ed: one was an output state if and only if the result is past first_out. */
        size_t seen = 0;
        uint64_t dm = 0;
        for (; x < lim; x++) {
          const uint8_t ch = cols[x];
          const uint8_t a = alnum[ch];
          if (a == 0) break;
          st = step(tab, st, col256[ch], wide);
          seen |= st;
          dm |= (uint64_t)(a & 1) << (x - i);
        }
        const int64_t g = off + i;
        if (__builtin_expect(seen >= first_out || (run_start >= 0 && off + x - run_start >= K_MAX_RUN_SPAN), 0)) {
          st = st0;
          one_by_one = x;
        } else {
          const int32_t n = x - i;
          const uint64_t all = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
          if (tok_start < 0) { tok_start = g; tok_digit = 0; tok_letter = 0; }
          tok_digit |= dm != 0;
          tok_letter |= dm != all;
          if ((dm & 1) == 0 && run_start >= 0) {
            if (run_digits >= min_digits || s->run_piece) end_run(s, run_start, run_end, run_digits, run_sep, c, k);
            run_start = -1;
            run_sep = 0;
          }
          uint64_t m = dm;
          while (m != 0) {
            const int32_t a = __builtin_ctzll(m);
            const uint64_t rest = ~(m >> a);
            const int32_t b = rest == 0 ? 64 : a + __builtin_ctzll(rest);
            if (a != 0 || run_start < 0) {
              run_start = g + a;
              run_digits = 0;
              begin_run(s, cols[i + a]);
            }
            run_digits += b - a;
            run_end = g + b;
            run_sep = 0;
            if (b < n) {
              if (run_digits >= min_digits || s->run_piece) end_run(s, run_start, run_end, run_digits, 0, cols[i + b], k);
              run_start = -1;
            }
            m = b == 64 ? 0 : (m >> b) << b;
          }
          i = x - 1;
          continue;
        }
      }
      const int32_t col = col256[c];
      st = step(tab, st, col, wide);
      if (st >= first_out) {
        const int64_t e = off + i + 1;
        const int32_t sn = original(t, (int32_t)(st >> shift));
        for (int32_t q = t->out_start[sn], qe = t->out_start[sn + 1]; q < qe; q++) {
          const int32_t r = t->out_rule[q];
          if (r >= t->rule_count) s->ctx_end[r - t->rule_count] = (double)e;
          else if (t->join_gap[r] > 0) join_hit(s, k, r, e - t->out_len[q], e, i + 1 < to ? cols[i + 1] : -1);
          else report(s, k, r, e - t->out_len[q], e);
        }
      }
      const uint8_t kk = cls[c];
      if (kk == K_LETTER) {
        if (tok_start < 0) { tok_start = off + i; tok_digit = 0; }
        tok_letter = 1;
        if (run_start >= 0) {
          if (run_digits >= min_digits || s->run_piece) end_run(s, run_start, run_end, run_digits, run_sep, c, k);
          run_start = -1;
          run_sep = 0;
        }
        continue;
      }
      if (kk == K_DIGIT) {
        const int64_t g = off + i;
        if (tok_start < 0) { tok_start = g; tok_letter = 0; }
        tok_digit = 1;
        if (run_start < 0) {
          run_start = g;
          run_digits = 0;
          begin_run(s, c);
        }
        run_digits++;
        run_end = g + 1;
        run_sep = 0;
        if (run_end - run_start >= K_MAX_RUN_SPAN) {
          /* The run goes on: what follows the piece is not known yet, its shapes' after sides pass. */
          s->after1 = -1;
          s->after2 = -1;
          flush_run(s, run_start, run_end, run_digits, k);
          /* The stretch without separators the piece ends in goes on in the next (see flush_piece). */
          s->carry = s->seps > 0 ? run_digits - s->sep_at[s->seps - 1] : (s->run_piece ? s->carry : 0) + run_digits;
          run_start = run_end;
          run_digits = 0;
          s->run_piece = 1;
          s->seps = 0;
        }
        continue;
      }
      if (tok_start >= 0) {
        const int64_t len = off + i - tok_start;
        if (len <= max_tok && tok_has[len]) end_token(s, tok_start, off + i, tok_digit, tok_letter, k);
        tok_start = -1;
      }
      if (run_start < 0) continue;
      if (kk == K_SEP && !run_sep && run_end == off + i) {
        run_sep = 1;
        const int32_t q = s->seps++;
        s->sep_at[q] = run_digits;
        s->sep_chars[q] = c;
      } else {
        if (run_digits >= min_digits || s->run_piece) end_run(s, run_start, run_end, run_digits, run_sep, c, k);
        run_start = -1;
        run_sep = 0;
      }
    }
  }
  if (run_start >= 0 && s->run_before < 0) s->run_before = bytes_before(s, cols, from, (int32_t)(run_start - off));
  s->tail = bytes_before(s, cols, from, i);
  s->cols = NULL; /* JS memory: not kept past the call */
  s->st = original(t, (int32_t)(st >> shift));
  s->pos = off + i;
  s->run_start = run_start; s->run_end = run_end; s->run_digits = run_digits; s->run_sep = run_sep;
  s->tok_start = tok_start; s->tok_digit = tok_digit; s->tok_letter = tok_letter;
  return i;
}

static int32_t scan_loop16(state_t *s, const uint8_t *cols, int32_t ncols, int32_t from, int32_t to, sink_t *k, int32_t room) {
  return scan_loop(s, cols, ncols, from, to, k, room, 0);
}

static int32_t scan_loop32(state_t *s, const uint8_t *cols, int32_t ncols, int32_t from, int32_t to, sink_t *k, int32_t room) {
  return scan_loop(s, cols, ncols, from, to, k, room, 1);
}

/* Reports open joined spans, in rule order, while `k` has room below `cap`. */
static void drain_joins(state_t *s, sink_t *k, int32_t cap) {
  for (int32_t r = 0; r < s->t->rule_count && s->joins_open > 0 && k->n < cap; r++) {
    if (s->join_start[r] < 0) continue;
    put(k, r, s->join_start[r], s->join_end[r]);
    s->join_start[r] = -1;
    s->joins_open--;
  }
}

/*
 * scan(state, cols, from, to, out, meta) -> events written. meta[0] = where it stopped (to, or
 * earlier when `out` is full), meta[1] = the earliest start any later event can have. The call that
 * reaches `to` reports the piece's open joined spans last (see `PrefilterSpec.joins`).
 */
static napi_value scan(napi_env env, napi_callback_info info) {
  napi_value argv[6];
  state_t *s = (state_t *)handle_arg(env, info, 6, argv, &kStateTag, "scan(state, cols, from, to, out, meta): expected a state handle");
  if (s == NULL) return NULL;
  uint8_t *cols; size_t ncols; double *out; size_t nout; double *meta; size_t nmeta;
  int32_t from, to;
  if (!get_bytes(env, argv[1], &cols, &ncols)) return NULL;
  if (napi_get_value_int32(env, argv[2], &from) != napi_ok || napi_get_value_int32(env, argv[3], &to) != napi_ok) { throw_type(env, "from and to must be integers"); return NULL; }
  if (!get_f64(env, argv[4], &out, &nout) || !get_f64(env, argv[5], &meta, &nmeta)) return NULL;
  if (from < 0 || to < from || (size_t)to > ncols || nmeta < 2) { napi_throw_range_error(env, "LS_NATIVE_ARGS", "scan range outside the column bytes"); return NULL; }
  tables_t *t = s->t;
  const int32_t cap = (int32_t)(nout / 3);
  /* A call stops while one more character's events and every joined rule's open span still fit. */
  const int32_t room = cap - t->max_events_per_char - t->n_joined;
  if (room <= 0) { napi_throw_range_error(env, "LS_NATIVE_ARGS", "event buffer too small"); return NULL; }
  sink_t k = { out, 0 };
  /* The column bytes the blocks may read (see classify_block): all of them, up to what an int32 indexes. */
  const int32_t readable = ncols > INT32_MAX ? INT32_MAX : (int32_t)ncols;
  const int32_t i = t->d16 != NULL ? scan_loop16(s, cols, readable, from, to, &k, room) : scan_loop32(s, cols, readable, from, to, &k, room);
  /* The piece is done: its open joined spans go out after its last events (room kept for them). */
  if (i == to && s->joins_open > 0) drain_joins(s, &k, cap);
  meta[0] = i;
  meta[1] = (double)min_future_start(s);
  napi_value r;
  napi_create_int32(env, k.n, &r);
  return r;
}

/* finish(state, out, meta) -> events written: the run and token in progress. */
static napi_value finish(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  double *out; size_t nout; double *meta; size_t nmeta;
  state_t *s = (state_t *)handle_arg(env, info, 3, argv, &kStateTag, "finish(state, out, meta): expected a state handle");
  if (s == NULL) return NULL;
  if (!get_f64(env, argv[1], &out, &nout) || !get_f64(env, argv[2], &meta, &nmeta)) return NULL;
  tables_t *t = s->t;
  if ((int64_t)(nout / 3) < (int64_t)t->max_events_per_char || nmeta < 2) { napi_throw_range_error(env, "LS_NATIVE_ARGS", "event buffer too small"); return NULL; }
  sink_t k = { out, 0 };
  if (s->run_start >= 0) end_run(s, s->run_start, s->run_end, s->run_digits, s->run_sep, -1, &k);
  s->run_start = -1;
  if (s->tok_start >= 0) {
    const int64_t len = s->pos - s->tok_start;
    if (len <= t->max_tok) end_token(s, s->tok_start, s->pos, s->tok_digit, s->tok_letter, &k);
  }
  s->tok_start = -1;
  meta[0] = 0;
  meta[1] = (double)min_future_start(s);
  napi_value r;
  napi_create_int32(env, k.n, &r);
  return r;
}

/* True when the eight bytes at `p` are all ASCII (the UTF-8 passes take such a stretch at once). */
static inline int ascii8(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return (v & 0x8080808080808080ULL) == 0;
}

/*
 * utf8Offsets(bytes, base, out, wide) -> non-ASCII code units: for valid UTF-8 `bytes`, the byte
 * offset (plus `base`) of each UTF-16 code unit it decodes to, as `utf8OffsetsJs` in
 * src/engine/text/charset.ts computes them: a byte that is not a continuation starts a character, and
 * a 4-byte sequence is two units that both start there. `out` gets the offsets and `wide` the index
 * of every unit that is not ASCII, whose count is returned. The loop writes a slot ahead on every byte
 * and keeps it only where a unit starts (no branch per byte on ASCII text), so `out` must hold a slot
 * per byte plus one and `wide` half as many plus two, whatever the text.
 */
static napi_value utf8_offsets(napi_env env, napi_callback_info info) {
  size_t argc = 4; napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *b; size_t len;
  if (argc < 4 || !get_bytes(env, argv[0], &b, &len)) { if (argc < 4) throw_type(env, "utf8Offsets(bytes, base, out, wide)"); return NULL; }
  int64_t base;
  if (napi_get_value_int64(env, argv[1], &base) != napi_ok) { throw_type(env, "base must be an integer"); return NULL; }
  size_t cap, cap_w; int32_t *out, *wide;
  if (!get_typed(env, argv[2], napi_int32_array, "expected an Int32Array", (void **)&out, &cap)) return NULL;
  if (!get_typed(env, argv[3], napi_int32_array, "expected an Int32Array", (void **)&wide, &cap_w)) return NULL;
  /* Units never outnumber bytes, and non-ASCII units never outnumber half the bytes (each takes two
     or more; a 4-byte sequence is two units): with these bounds no write below can land outside. */
  if (cap < len + 1 || cap_w < len / 2 + 2) { napi_throw_range_error(env, "LS_NATIVE_ARGS", "offsets array too small"); return NULL; }
  size_t n = 0, w = 0;
  /* Stored as an Int32Array stores a number (ToInt32), so this agrees with the TypeScript loop. */
  const uint32_t base32 = (uint32_t)base;
  for (size_t j = 0; j < len; j++) {
    /* Eight ASCII bytes at once: eight units at consecutive offsets (the common case in a slice that
       holds a few non-ASCII characters). */
    while (j + 8 <= len && ascii8(b + j)) {
      const uint32_t at0 = base32 + (uint32_t)j;
      for (int k = 0; k < 8; k++) out[n + k] = (int32_t)(at0 + (uint32_t)k);
      n += 8;
      j += 8;
    }
    if (j >= len) break;
    const uint8_t x = b[j];
    const int32_t at = (int32_t)(base32 + (uint32_t)j);
    out[n] = at;
    wide[w] = (int32_t)n;
    w += x >= 0xc0;            /* a lead byte: a non-ASCII character starts here */
    n += (x & 0xc0) != 0x80;   /* not a continuation: a unit starts here */
    if (x >= 0xf0) {           /* the second unit of a 4-byte sequence */
      out[n] = at;
      wide[w++] = (int32_t)n;
      n++;
    }
  }
  napi_value r;
  napi_create_int32(env, (int32_t)w, &r);
  return r;
}

/* Per thread (per env): the UTF-16 and Latin-1 scratch of utf8Text, grown as needed, freed with the env. */
typedef struct { uint16_t *units; uint8_t *narrow; size_t cap; } text_scratch_t;

static void text_scratch_finalize(napi_env env, void *data, void *hint) {
  (void)env; (void)hint;
  text_scratch_t *x = (text_scratch_t *)data;
  free(x->units); free(x->narrow); free(x);
}

/* The code point of the UTF-8 sequence at b[j] and its length (`need`; cut short at the end of invalid input). */
static inline uint32_t utf8_at(const uint8_t *b, size_t len, size_t j, size_t *need) {
  const uint32_t c0 = b[j];
  uint32_t cp;
  size_t k;
  if (c0 < 0x80) { cp = c0; k = 1; }
  else if (c0 >= 0xf0) { cp = c0 & 0x07; k = 4; }
  else if (c0 >= 0xe0) { cp = c0 & 0x0f; k = 3; }
  else { cp = c0 & 0x1f; k = 2; }
  if (j + k > len) k = len - j; /* invalid input only: a truncated sequence */
  for (size_t q = 1; q < k; q++) cp = (cp << 6) | (b[j + q] & 0x3f);
  *need = k;
  return cp;
}

/*
 * utf8Text(bytes) -> string: valid UTF-8 `bytes` (the caller checks them, as `decodeValidUtf8` does
 * with `isUtf8`) decoded to the string `Buffer#toString('utf8')` gives, in one pass that takes eight
 * ASCII bytes at a time: a Latin-1 string when every character fits, else a UTF-16 one. Invalid
 * input gives some string, never a read or write out of bounds.
 */
static napi_value utf8_text(napi_env env, napi_callback_info info) {
  size_t argc = 1; napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *b; size_t len;
  if (argc < 1 || !get_bytes(env, argv[0], &b, &len)) { if (argc < 1) throw_type(env, "utf8Text(bytes)"); return NULL; }
  text_scratch_t *x = NULL;
  if (napi_get_instance_data(env, (void **)&x) != napi_ok || x == NULL) {
    x = (text_scratch_t *)calloc(1, sizeof(text_scratch_t));
    if (x == NULL || napi_set_instance_data(env, x, text_scratch_finalize, NULL) != napi_ok) {
      free(x);
      napi_throw_error(env, "LS_NATIVE_MEMORY", "out of memory");
      return NULL;
    }
  }
  if (x->cap < len + 1) {
    size_t cap = len + 1 > 2 * x->cap ? len + 1 : 2 * x->cap;
    uint16_t *u = (uint16_t *)malloc(cap * sizeof(uint16_t));
    uint8_t *nb = (uint8_t *)malloc(cap);
    if (u == NULL || nb == NULL) { free(u); free(nb); napi_throw_error(env, "LS_NATIVE_MEMORY", "out of memory"); return NULL; }
    free(x->units); free(x->narrow);
    x->units = u; x->narrow = nb; x->cap = cap;
  }
  /* Latin-1 as long as every character fits, written once; at the first one that does not, what was
     written is widened and the rest goes to UTF-16. */
  uint8_t *nb = x->narrow;
  size_t n = 0, j = 0;
  while (j < len) {
    while (j + 8 <= len && ascii8(b + j)) {
      memcpy(nb + n, b + j, 8);
      n += 8;
      j += 8;
    }
    if (j >= len) break;
    size_t need;
    const uint32_t cp = utf8_at(b, len, j, &need);
    if (cp >= 0x100) break;
    nb[n++] = (uint8_t)cp;
    j += need;
  }
  napi_value r;
  if (j >= len) {
    napi_create_string_latin1(env, (const char *)nb, n, &r);
    return r;
  }
  uint16_t *u = x->units;
  for (size_t k = 0; k < n; k++) u[k] = nb[k];
  while (j < len) {
    while (j + 8 <= len && ascii8(b + j)) {
      for (int k = 0; k < 8; k++) u[n + k] = b[j + k];
      n += 8;
      j += 8;
    }
    if (j >= len) break;
    size_t need;
    uint32_t cp = utf8_at(b, len, j, &need);
    j += need;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      u[n++] = (uint16_t)(0xd800 + ((cp >> 10) & 0x3ff)); /* n <= j - 2 here: a 4-byte sequence */
      u[n++] = (uint16_t)(0xdc00 + (cp & 0x3ff));
    } else {
      u[n++] = (uint16_t)cp;
    }
  }
  napi_create_string_utf16(env, (const char16_t *)u, n, &r);
  return r;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    { "tables", NULL, create_tables, NULL, NULL, NULL, napi_default, NULL },
    { "state", NULL, create_state, NULL, NULL, NULL, napi_default, NULL },
    { "reset", NULL, reset_state, NULL, NULL, NULL, napi_default, NULL },
    { "scan", NULL, scan, NULL, NULL, NULL, napi_default, NULL },
    { "finish", NULL, finish, NULL, NULL, NULL, napi_default, NULL },
    { "utf8Offsets", NULL, utf8_offsets, NULL, NULL, NULL, napi_default, NULL },
    { "utf8Text", NULL, utf8_text, NULL, NULL, NULL, napi_default, NULL },
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  return exports;
}

NAPI_MODULE_INIT() { return init(env, exports); }
