{
  "targets": [
    {
      "target_name": "leakscan_re2",
      "sources": ["re2-binding.cc", "<!@(node ../../scripts/re2-sources.mjs sources)"],
      "include_dirs": ["<!@(node ../../scripts/re2-sources.mjs include)"],
      "libraries": ["<!@(node ../../scripts/re2-sources.mjs objects)"],
      "cflags_cc": ["-O3", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-Wno-sign-compare", "-Wno-unused-parameter", "-Wno-missing-field-initializers", "-Wno-cast-function-type", "-Wno-deprecated-declarations"],
      "defines": ["NDEBUG", "NOMINMAX", "NAPI_VERSION=8"],
      "conditions": [
        ["OS==\"linux\"", { "cflags": ["-pthread"], "cflags_cc": ["-fno-gnu-unique"], "ldflags": ["-pthread", "-Wl,--version-script=<(module_root_dir)/exports.map", "-Wl,--strip-debug"] }]
      ],
      "xcode_settings": {
        "CLANG_CXX_LANGUAGE_STANDARD": "c++2a",
        "MACOSX_DEPLOYMENT_TARGET": "10.15",
        "OTHER_CFLAGS": ["-O3", "-fvisibility=hidden", "-fvisibility-inlines-hidden"]
      }
    }
  ]
}
