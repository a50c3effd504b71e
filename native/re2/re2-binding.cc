// A lean Node-API binding to RE2 for the matcher's confirm step: compile a pattern once, then search
// UTF-8 bytes from a byte offset and get the match and one group as four integers written into an
// Int32Array the caller owns. No object is made per call and none per match: the `re2` package's
// `exec` builds an array, a Buffer copy per group and an index array per group on every match, which
// was about 1.6-3.3 us of a match's 2-3.7 us on the matcher's windows, plus an ArrayBuffer for the
// garbage collector's sweeper to find each time (README, "Lean RE2 binding").
//
// The RE2 and Abseil sources are the ones the `re2` npm package ships (see scripts/re2-sources.mjs);
// this file is the only C++ of ours. The options that decide matches are the ones that package gives
// RE2 (UTF-8, case folding for `i`), so both bindings find the same matches (the conformance suite
// runs both); only the DFA memory budget differs (kMaxMem below).
//
// Both copies of RE2 and Abseil live in one process. binding.gyp builds this one with hidden visibility
// and -fno-gnu-unique: template statics that GCC exports as GNU-unique symbols otherwise bind
// process-wide, even between addons loaded RTLD_LOCAL, and this binding's DFA state sets ran on the
// package's copies of their hash-set functions (one pattern searched 4x slower; test/engine/
// re2-binding.test.ts checks the exported symbols).
#include <node_api.h>

#include <memory>
#include <string>

#include "re2/re2.h"

namespace {

// RE2's budget for a pattern's compiled program and its two lazily built DFAs (forward, and reverse to
// find where a match starts). RE2's default, 8 MiB, is what the re2 package gives: with it, some of
// the larger patterns ran out of DFA memory and threw their states away again and again, about 5% of a
// scanning thread spent rebuilding states (perf, batch corpus: DFA::AddToQueue, RunWorkqOnByte,
// WorkqToCachedState; 1% at 64 MiB). At 16 MiB that is gone: 0.90 of the time a pass on the batch corpus (12 alternated
// pairs in one process), the same RSS to within 3 MB after every bench body, adversarial ones and all
// rules included (states are built only as text reaches them). It changes no match.
constexpr int64_t kMaxMem = 16 << 20;

struct Pattern {
  Pattern(const std::string& source, const re2::RE2::Options& options) : re(source, options) {}
  re2::RE2 re;
  int group = 0;
};

void DeletePattern(napi_env, void* data, void*) { delete static_cast<Pattern*>(data); }

#define CHECK(call)                                  \
  do {                                               \
    if ((call) != napi_ok) return nullptr;           \
  } while (0)

// compile(pattern: string, ignoreCase: boolean, group: number): object (an external)
// Throws a SyntaxError with RE2's message when the pattern does not compile, or when it has fewer
// capturing groups than `group`.
napi_value Compile(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  if (argc < 3) {
    napi_throw_type_error(env, "LEAKSCAN_RE2_ARGS", "compile(pattern, ignoreCase, group)");
    return nullptr;
  }
  size_t len = 0;
  if (napi_get_value_string_utf8(env, argv[0], nullptr, 0, &len) != napi_ok) {
    napi_throw_type_error(env, "LEAKSCAN_RE2_ARGS", "pattern must be a string");
    return nullptr;
  }
  std::string source(len, '\0');
  CHECK(napi_get_value_string_utf8(env, argv[0], source.data(), len + 1, &len));
  bool ignoreCase = false;
  CHECK(napi_get_value_bool(env, argv[1], &ignoreCase));
  int32_t group = 0;
  CHECK(napi_get_value_int32(env, argv[2], &group));

  re2::RE2::Options options;
  options.set_case_sensitive(!ignoreCase);
  options.set_log_errors(false);
  options.set_max_mem(kMaxMem);
  auto pattern = std::make_unique<Pattern>(source, options);
  if (!pattern->re.ok()) {
    napi_value code, msg, err;
    CHECK(napi_create_string_utf8(env, "LEAKSCAN_RE2_SYNTAX", NAPI_AUTO_LENGTH, &code));
    CHECK(napi_create_string_utf8(env, pattern->re.error().c_str(), NAPI_AUTO_LENGTH, &msg));
    CHECK(napi_create_error(env, code, msg, &err));
    napi_throw(env, err);
    return nullptr;
  }
  if (group < 0 || group > pattern->re.NumberOfCapturingGroups()) {
    napi_throw_range_error(env, "LEAKSCAN_RE2_GROUP", "group is not a capturing group of the pattern");
    return nullptr;
  }
  pattern->group = group;
  napi_value external;
  CHECK(napi_create_external(env, pattern.get(), DeletePattern, nullptr, &external));
  pattern.release();
  return external;
}

// exec(pattern, bytes: Uint8Array, from: number, out: Int32Array): boolean
// The leftmost match starting at or after byte `from` (text before `from` is context for `^` and
// `\b`, as in a JavaScript regex's lastIndex). On a match, out[0..3] = match start, end, group start,
// group end (byte offsets into `bytes`); false when there is none, or the group did not take part.
napi_value Exec(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  void* data = nullptr;
  if (argc < 4 || napi_get_value_external(env, argv[0], &data) != napi_ok) {
    napi_throw_type_error(env, "LEAKSCAN_RE2_ARGS", "exec(pattern, bytes, from, out)");
    return nullptr;
  }
  const Pattern* pattern = static_cast<const Pattern*>(data);
  napi_typedarray_type type;
  size_t length = 0;
  void* bytes = nullptr;
  if (napi_get_typedarray_info(env, argv[1], &type, &length, &bytes, nullptr, nullptr) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, "LEAKSCAN_RE2_ARGS", "bytes must be a Uint8Array");
    return nullptr;
  }
  int64_t from = 0;
  CHECK(napi_get_value_int64(env, argv[2], &from));
  size_t outLength = 0;
  void* outData = nullptr;
  if (napi_get_typedarray_info(env, argv[3], &type, &outLength, &outData, nullptr, nullptr) != napi_ok || type != napi_int32_array || outLength < 4) {
    napi_throw_type_error(env, "LEAKSCAN_RE2_ARGS", "out must be an Int32Array of at least 4");
    return nullptr;
  }
  napi_value result;
  if (from < 0 || static_cast<size_t>(from) > length) {
    CHECK(napi_get_boolean(env, false, &result));
    return result;
  }
  const absl::string_view whole(bytes == nullptr ? "" : static_cast<const char*>(bytes), length);
  // RE2 fills submatches 0..group (just the whole match for group 0); the group is the last of them.
  const int group = pattern->group;
  absl::string_view stack[16];
  std::unique_ptr<absl::string_view[]> heap;
  absl::string_view* sub = stack;
  if (group >= 16) {
    heap.reset(new absl::string_view[group + 1]);
    sub = heap.get();
  }
  const bool found = pattern->re.Match(whole, static_cast<size_t>(from), length, re2::RE2::UNANCHORED, sub, group + 1) &&
                     sub[group].data() != nullptr;
  if (found) {
    int32_t* out = static_cast<int32_t*>(outData);
    out[0] = static_cast<int32_t>(sub[0].data() - whole.data());
    out[1] = out[0] + static_cast<int32_t>(sub[0].size());
    out[2] = static_cast<int32_t>(sub[group].data() - whole.data());
    out[3] = out[2] + static_cast<int32_t>(sub[group].size());
  }
  CHECK(napi_get_boolean(env, found, &result));
  return result;
}

napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"compile", nullptr, Compile, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"exec", nullptr, Exec, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  if (napi_define_properties(env, exports, 2, props) != napi_ok) return nullptr;
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
