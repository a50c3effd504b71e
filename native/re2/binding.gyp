{
  "targets": [
    {
      "target_name": "leakscan_re2",
      "sources": ["re2-binding.cc"],
      # The system RE2 (scripts/build-native.mjs checks that pkg-config finds it before building).
      "cflags_cc": ["<!@(pkg-config --cflags re2)", "-O3", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-Wno-unused-parameter"],
      "libraries": ["<!@(pkg-config --libs re2)"],
      "defines": ["NDEBUG", "NAPI_VERSION=8"],
      "xcode_settings": {
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "MACOSX_DEPLOYMENT_TARGET": "10.15",
        "OTHER_CPLUSPLUSFLAGS": ["<!@(pkg-config --cflags re2)", "-O3", "-fvisibility=hidden", "-fvisibility-inlines-hidden"]
      }
    }
  ]
}
