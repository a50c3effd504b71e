// A lean Node-API binding to RE2 for the matcher's confirm step: compile a pattern once, then search
// UTF-8 bytes (or a string) from an offset and get the match and one group as four integers written
// into an Int32Array the caller owns. No object is made per call and none per match (an `exec` that
// returns a match array, a copy per group and an index pair per group cost 1.6-3.3 us of a match's
// 2-3.7 us on the matcher's windows: docs/design/engine.md, "RE2 binding").
//
// RE2 is the system's (pkg-config re2: Debian/Ubuntu libre2-dev, Homebrew re2, Fedora re2-devel),
// linked as a shared library; this file is the only C++ of ours. JavaScript-only syntax (`\u0041`,
// `(?<name>`) is rewritten before it gets here (src/engine/backend/re2-syntax.ts). The options that
// decide matches are UTF-8 and case folding for `i`, as the `re2` npm package set them.
#include <node_api.h>

#include <cstdint>
#include <memory>
#include <string>

#include "re2/re2.h"

namespace {

// RE2's budget for a pattern's compiled program and its two lazily built DFAs (forward, and reverse to
// find where a match starts). RE2's default, 8 MiB (what the re2 npm package used): with it, some of
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
// capturing groups than `group`. compileColumns(…) is the same in Latin-1 (one byte per character):
// for `exec` over the matcher's column bytes, where every non-ASCII character is one byte that no
// ASCII class holds; never for execString, which hands RE2 UTF-8.
napi_value CompileAs(napi_env env, napi_callback_info info, bool latin1) {
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
  if (latin1) options.set_encoding(re2::RE2::Options::EncodingLatin1);
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

// The leftmost match in `whole` starting at or after byte `from` (text before `from` is context for
// `^` and `\b`, as in a JavaScript regex's lastIndex). On a match, out[0..3] = match start, end, group
// start, group end (byte offsets into `whole`); false when there is none, or the group did not take part.
napi_value Compile(napi_env env, napi_callback_info info) { return CompileAs(env, info, false); }
napi_value CompileColumns(napi_env env, napi_callback_info info) { return CompileAs(env, info, true); }

bool Search(const Pattern& pattern, re2::StringPiece whole, size_t from, int32_t* out) {
  // RE2 fills submatches 0..group (just the whole match for group 0); the group is the last of them.
  const int group = pattern.group;
  re2::StringPiece stack[16];
  std::unique_ptr<re2::StringPiece[]> heap;
  re2::StringPiece* sub = stack;
  if (group >= 16) {
    heap.reset(new re2::StringPiece[group + 1]);
    sub = heap.get();
  }
  if (!pattern.re.Match(whole, from, whole.size(), re2::RE2::UNANCHORED, sub, group + 1) || sub[group].data() == nullptr) return false;
  out[0] = static_cast<int32_t>(sub[0].data() - whole.data());
  out[1] = out[0] + static_cast<int32_t>(sub[0].size());
  out[2] = static_cast<int32_t>(sub[group].data() - whole.data());
  out[3] = out[2] + static_cast<int32_t>(sub[group].size());
  return true;
}

// The pattern (argv[0]) and the Int32Array of at least 4 (argv[3]) every search takes; null after
// throwing when either is wrong or missing.
int32_t* SearchArgs(napi_env env, size_t argc, napi_value* argv, const Pattern** pattern, const char* usage) {
  void* data = nullptr;
  napi_typedarray_type type;
  size_t outLength = 0;
  void* outData = nullptr;
  if (argc < 4 || napi_get_value_external(env, argv[0], &data) != napi_ok ||
      napi_get_typedarray_info(env, argv[3], &type, &outLength, &outData, nullptr, nullptr) != napi_ok || type != napi_int32_array || outLength < 4) {
    napi_throw_type_error(env, "LEAKSCAN_RE2_ARGS", usage);
    return nullptr;
  }
  *pattern = static_cast<const Pattern*>(data);
  return static_cast<int32_t*>(outData);
}

napi_value Boolean(napi_env env, bool value) {
  napi_value result = nullptr;
  napi_get_boolean(env, value, &result);
  return result;
}

// exec(pattern, bytes: Uint8Array, from: number, out: Int32Array): boolean
// Search() over `bytes`, `from` and out[] in bytes.
napi_value Exec(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  const char* usage = "exec(pattern, bytes: Uint8Array, from, out: Int32Array)";
  const Pattern* pattern = nullptr;
  int32_t* out = SearchArgs(env, argc, argv, &pattern, usage);
  if (out == nullptr) return nullptr;
  napi_typedarray_type type;
  size_t length = 0;
  void* bytes = nullptr;
  if (napi_get_typedarray_info(env, argv[1], &type, &length, &bytes, nullptr, nullptr) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, "LEAKSCAN_RE2_ARGS", "bytes must be a Uint8Array");
    return nullptr;
  }
  int64_t from = 0;
  CHECK(napi_get_value_int64(env, argv[2], &from));
  if (from < 0 || static_cast<size_t>(from) > length) return Boolean(env, false);
  const re2::StringPiece whole(bytes == nullptr ? "" : static_cast<const char*>(bytes), length);
  return Boolean(env, Search(*pattern, whole, static_cast<size_t>(from), out));
}

// UTF-16 code units in the UTF-8 bytes [from, to) that start on character boundaries: one per
// character, two for a 4-byte one (a pair in UTF-16).
int64_t Units(const char* s, size_t from, size_t to) {
  int64_t n = 0;
  for (size_t b = from; b < to; b++) {
    const unsigned char x = static_cast<unsigned char>(s[b]);
    if ((x & 0xc0) != 0x80) n += x >= 0xf0 ? 2 : 1;
  }
  return n;
}

// execString(pattern, text: string, from: number, out: Int32Array): boolean
// Search() over a JavaScript string, `from` and out[] in UTF-16 code units. The text is encoded to
// UTF-8 as Node encodes it (napi_get_value_string_utf8): a lone surrogate becomes U+FFFD, still one
// code unit, as in the matcher's own encoding of a window. A `from` between the two halves of a pair
// starts after the pair (no match starts inside a character); the positions reported are exact.
napi_value ExecString(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  const char* usage = "execString(pattern, text: string, from, out: Int32Array)";
  const Pattern* pattern = nullptr;
  int32_t* out = SearchArgs(env, argc, argv, &pattern, usage);
  if (out == nullptr) return nullptr;
  size_t units = 0;
  size_t size = 0;
  if (napi_get_value_string_utf16(env, argv[1], nullptr, 0, &units) != napi_ok) {
    napi_throw_type_error(env, "LEAKSCAN_RE2_ARGS", "text must be a string");
    return nullptr;
  }
  int64_t from = 0;
  CHECK(napi_get_value_int64(env, argv[2], &from));
  if (from < 0 || static_cast<size_t>(from) > units) return Boolean(env, false);
  // One buffer per thread, grown as needed: the worker threads each have their own.
  thread_local std::string text;
  CHECK(napi_get_value_string_utf8(env, argv[1], nullptr, 0, &size));
  text.resize(size + 1);
  CHECK(napi_get_value_string_utf8(env, argv[1], text.data(), size + 1, &size));
  const char* s = text.data();
  // Byte of `from`: walk characters until `from` code units are behind (or, inside a pair, one more).
  size_t b = 0;
  int64_t u = 0;
  while (u < from && b < size) {
    const unsigned char x = static_cast<unsigned char>(s[b]);
    b += x < 0x80 ? 1 : x < 0xe0 ? 2 : x < 0xf0 ? 3 : 4;
    u += x >= 0xf0 ? 2 : 1;
  }
  int32_t bytes[4];
  if (!Search(*pattern, re2::StringPiece(s, size), b, bytes)) return Boolean(env, false);
  // Match start <= group start <= group end <= match end: one walk forward converts all four.
  u += Units(s, b, bytes[0]);
  out[0] = static_cast<int32_t>(u);
  u += Units(s, bytes[0], bytes[2]);
  out[2] = static_cast<int32_t>(u);
  u += Units(s, bytes[2], bytes[3]);
  out[3] = static_cast<int32_t>(u);
  out[1] = static_cast<int32_t>(u + Units(s, bytes[3], bytes[1]));
  return Boolean(env, true);
}

napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"compile", nullptr, Compile, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"exec", nullptr, Exec, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"execString", nullptr, ExecString, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"compileColumns", nullptr, CompileColumns, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  if (napi_define_properties(env, exports, 4, props) != napi_ok) return nullptr;
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
